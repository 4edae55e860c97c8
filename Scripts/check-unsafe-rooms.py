#!/usr/bin/env python3
"""Checks that unsafe code stays in its named rooms, or says why it is safe (issues 28 and 57).

Seven kinds of unsafe construct are read in every Swift file under Sources/ (comments aside):

  pointer      a raw pointer type named: UnsafePointer and its kin, OpaquePointer
  unmanaged    Unmanaged (a reference kept or passed without a reference count)
  unretained   _withUnsafeGuaranteedRef, unowned(unsafe)
  view-start   ByteView's unsafeStart (the address behind a bounds-checked view)
  exclusivity  @exclusivity(unchecked) (no dynamic exclusivity checks on a property)
  isolation    nonisolated(unsafe) (a global or static the compiler does not isolate)
  sendable     @unchecked Sendable (a type the compiler does not check for data races)

A file listed in CONTRIBUTING.md's rooms table (between `<!-- unsafe-rooms -->` and
`<!-- /unsafe-rooms -->`, a row `| `Sources/...swift` | room | why |`) may hold any of them.
Anywhere else, each use must carry a reason the check reads: a comment holding `Safe:` on its
line, or above it in the same paragraph (no blank line between), which covers the paragraph's
following lines. The compiler's strict memory safety (SE-0458, Package.swift) checks the
targets without rooms on top of this.

It fails (exit 1, one line each) on
  - a use outside the rooms with no reason (its file, line and kind),
  - a file in the table that holds none of the kinds (a stale room: take it out).

usage: Scripts/check-unsafe-rooms.py [--self-test | --count | --rooms-table]
  --self-test    plants one use of each kind outside the rooms and a stale room, and fails
                 unless all eight are reported
  --count        prints the uses by kind: in rooms, outside with a reason, outside without
  --rooms-table  prints the rooms, one `room: files` line each (CONTRIBUTING.md's list is
                 checked against the table it is made from)
Exit status: 0 the rooms and the sources agree; 1 a drift; 2 usage.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = [
    ("pointer", re.compile(r"\b(?:Unsafe(?:Mutable)?(?:Raw)?(?:Buffer)?Pointer|OpaquePointer)\b")),
    ("unmanaged", re.compile(r"\bUnmanaged\b")),
    ("unretained", re.compile(r"_withUnsafeGuaranteedRef|\bunowned\(unsafe\)")),
    ("view-start", re.compile(r"\bunsafeStart\b")),
    ("exclusivity", re.compile(r"@exclusivity\(unchecked\)")),
    ("isolation", re.compile(r"\bnonisolated\(unsafe\)")),
    ("sendable", re.compile(r"@unchecked\s+Sendable\b")),
]
ROOM_ROW = re.compile(r"^\|\s*`(Sources/[^`]+\.swift)`\s*\|\s*([^|]+?)\s*\|")
REASON = "Safe:"


def code_of(line):
    """The line without its comment (a `//` outside a string literal, roughly: enough here)."""
    quoted = False
    for index, character in enumerate(line):
        if character == '"':
            quoted = not quoted
        elif not quoted and line.startswith("//", index):
            return line[:index]
    return line


def uses_in(text):
    """(line number, kind, reasoned) for each use of a kind in a file's text."""
    found = []
    reasoned = False
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            reasoned = False
            continue
        if REASON in line and "//" in line:
            reasoned = True
        code = code_of(line)
        for kind, pattern in KINDS:
            if pattern.search(code):
                found.append((number, kind, reasoned))
    return found


def source_uses(root):
    """Maps each Swift file under Sources to its uses."""
    result = {}
    for folder, _, names in os.walk(os.path.join(root, "Sources")):
        for name in sorted(names):
            if name.endswith(".swift"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as file:
                    uses = uses_in(file.read())
                if uses:
                    result[os.path.relpath(path, root)] = uses
    return result


def rooms(text):
    """CONTRIBUTING.md's rooms table: file → room name."""
    inside = False
    listed = {}
    for line in text.splitlines():
        if line.strip() == "<!-- unsafe-rooms -->":
            inside = True
        elif line.strip() == "<!-- /unsafe-rooms -->":
            inside = False
        elif inside:
            match = ROOM_ROW.match(line)
            if match:
                listed[match.group(1)] = match.group(2)
    return listed


def drifts(uses, listed):
    """One line per unreasoned use outside the rooms and per stale room."""
    lines = []
    for path in sorted(uses):
        if path in listed:
            continue
        for number, kind, reasoned in uses[path]:
            if not reasoned:
                lines.append(
                    f"{path}:{number}: {kind} outside the rooms with no reason: add a `// {REASON} "
                    "…` comment saying what makes it safe, move it into a room, or add the room "
                    "to CONTRIBUTING.md's table")
    for path in sorted(set(listed) - set(uses)):
        lines.append(f"CONTRIBUTING.md: {path} is listed as a room but holds no unsafe construct: "
                     "take it out of the table")
    return lines


def counts(uses, listed):
    """Per kind: (in rooms, outside with a reason, outside without)."""
    table = {kind: [0, 0, 0] for kind, _ in KINDS}
    for path, found in uses.items():
        for _, kind, reasoned in found:
            table[kind][0 if path in listed else (1 if reasoned else 2)] += 1
    return table


def self_test(uses, listed):
    planted_text = "\n".join([
        "let a: UnsafeRawPointer? = nil",
        "let b = Unmanaged<AnyObject>.passRetained(x)",
        "b._withUnsafeGuaranteedRef { _ in }",
        "let c = view.unsafeStart",
        "@exclusivity(unchecked) var d = 0",
        "nonisolated(unsafe) var e = 0",
        "final class F: @unchecked Sendable {}",
        "",
        "// Safe: a reasoned use is not reported.",
        "nonisolated(unsafe) var g = 0",
    ])
    planted = dict(uses)
    planted["Sources/Planted/Outside.swift"] = uses_in(planted_text)
    stale = dict(listed)
    stale["Sources/Planted/Stale.swift"] = "planted"
    reported = drifts(planted, stale)
    kinds = {line.split(": ")[1].split(" ")[0] for line in reported
             if line.startswith("Sources/Planted/Outside.swift:")}
    reasoned_reported = any(line.startswith("Sources/Planted/Outside.swift:10:")
                            for line in reported)
    gone = any("Sources/Planted/Stale.swift is listed" in line for line in reported)
    expected = {kind for kind, _ in KINDS}
    if kinds == expected and gone and not reasoned_reported:
        print(f"check-unsafe-rooms self-test: all {len(expected)} planted kinds outside the rooms "
              "and a stale room are reported; a reasoned use is not")
        return 0
    print(f"check-unsafe-rooms self-test: reported {sorted(kinds)} of {sorted(expected)}, "
          f"stale room {'reported' if gone else 'missed'}, reasoned use "
          f"{'wrongly reported' if reasoned_reported else 'passed'}", file=sys.stderr)
    return 1


def rooms_table(listed):
    by_room = {}
    for path, room in listed.items():
        by_room.setdefault(room, []).append(path)
    return [f"{room}: {', '.join(sorted(paths))}" for room, paths in sorted(by_room.items())]


def main(arguments):
    if arguments not in ([], ["--self-test"], ["--count"], ["--rooms-table"]):
        print("usage: Scripts/check-unsafe-rooms.py [--self-test | --count | --rooms-table]",
              file=sys.stderr)
        return 2
    with open(os.path.join(ROOT, "CONTRIBUTING.md"), encoding="utf-8") as file:
        listed = rooms(file.read())
    if not listed:
        print("CONTRIBUTING.md: no unsafe-rooms table between its markers", file=sys.stderr)
        return 1
    uses = source_uses(ROOT)
    if arguments == ["--self-test"]:
        return self_test(uses, listed)
    if arguments == ["--rooms-table"]:
        print("\n".join(rooms_table(listed)))
        return 0
    if arguments == ["--count"]:
        print("| kind | in rooms | outside, with a reason | outside, without |")
        print("| --- | ---: | ---: | ---: |")
        for kind, (inside, reasoned, bare) in counts(uses, listed).items():
            print(f"| {kind} | {inside} | {reasoned} | {bare} |")
        return 0
    lines = drifts(uses, listed)
    for line in lines:
        print(line, file=sys.stderr)
    if lines:
        print(f"{len(lines)} drifts between the sources and the rooms", file=sys.stderr)
        return 1
    total = sum(len(found) for found in uses.values())
    print(f"unsafe rooms: {total} unsafe uses in {len(uses)} files, each in a listed room or "
          "with its reason")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
