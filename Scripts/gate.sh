#!/usr/bin/env bash
# The gate on a team's own data, on a laptop as in the Action: builds calldir here (release) when
# it is not built, then runs `calldir gate` with these arguments. Every decision is calldir's
# (`calldir gate --help`); this only builds and calls it.
#
# usage: Scripts/gate.sh --data DIR [--against-rev REV] [--base-calldir DIR] [calldir gate flags…]
# Exit status: calldir gate's (0 passed; 1 usage or input error; 2 a budget or threshold missed).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
calldir=$here/.build/release/calldir
if [[ ! -x $calldir ]]; then
  swift build -c release --package-path "$here" --product calldir >&2
fi
exec "$calldir" gate "$@"
