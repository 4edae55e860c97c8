"""The ending every file generator shares: write the file, or with --check compare it with what
would be written and exit 1 on a difference (CI runs each generator with --check)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write_or_check(output, text, tool, summary=""):
    """Writes `text` to `output`, or checks it is there as is when --check was given."""
    relative = output.relative_to(ROOT)
    if "--check" in sys.argv[1:]:
        if not output.exists() or output.read_text() != text:
            print(f"{tool}: {relative} differs from what the generator writes (run Scripts/{tool}.py)")
            sys.exit(1)
        print(f"{tool}: up to date")
        return
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text)
    print(f"{tool}: wrote {relative}{summary}")
