#!/usr/bin/env python3
"""Every `@inlinable` member in Sources/ sits in a type another module can inline from.

Swift accepts `@inlinable` on a member of a `package` or internal type that is not
`@usableFromInline`, and then quietly serializes nothing: callers in other modules get a plain
call and no specialization. That is how the loader's per-entry loop stopped being specialized
for the extension's context when BaseLoader moved from public to package (CI's gate: 314.4 ->
375.8 instructions per entry, +19.5%), with no diagnostic from the compiler. Public types lose
nothing this way; this check names the others.

Usage: check-inlinable.py [--self-test] [SOURCES]   (exit 1 with one line per finding)
"""

import pathlib
import re
import sys
import tempfile

TYPE_DECLARATION = re.compile(
    r"^(?P<attributes>(?:@\w+(?:\([^)]*\))?\s+)*)(?P<access>public|package|internal|fileprivate|"
    r"private)?\s*(?:final\s+)?(?P<kind>class|struct|enum|protocol|actor)\s+(?P<name>\w+)")
EXTENSION = re.compile(r"^(?:@\w+\s+)*(?:public\s+|package\s+)?extension\s+(?P<name>[\w.]+)")


def visible_types(files):
    """The names of the top-level types another module can inline from, and of all the others."""
    visible, hidden = set(), set()
    for path in files:
        lines = path.read_text(encoding="utf-8").split("\n")
        for index, line in enumerate(lines):
            match = TYPE_DECLARATION.match(line)
            if not match:
                continue
            attributes = match["attributes"] + (lines[index - 1] if index else "")
            if match["access"] == "public" or "@usableFromInline" in attributes:
                visible.add(match["name"])
            else:
                hidden.add(match["name"])
    return visible, hidden - visible


def findings(root):
    files = sorted(pathlib.Path(root).rglob("*.swift"))
    visible, hidden = visible_types(files)
    found = []
    for path in files:
        enclosing = None
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            if not line.startswith((" ", "\t", "}")) and line.strip():
                match = TYPE_DECLARATION.match(line) or EXTENSION.match(line)
                if match:
                    enclosing = match["name"].split(".")[-1]
            if "@inlinable" in line and line.startswith(" ") and enclosing in hidden:
                found.append(
                    f"{path}:{number}: @inlinable in {enclosing}, which is neither public nor"
                    " @usableFromInline: other modules cannot inline or specialize it")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        (root / "Hidden.swift").write_text(
            "package enum Hidden {\n  @inlinable static func run() {}\n}\n")
        (root / "Shown.swift").write_text(
            "@usableFromInline package enum Shown {\n  @inlinable static func run() {}\n}\n"
            "public struct Open {}\nextension Open {\n  @inlinable public func go() {}\n}\n"
            "extension Hidden {\n  @inlinable static func again() {}\n}\n")
        got = findings(root)
        expected = ["Hidden.swift:2:", "Shown.swift:9:"]
        if len(got) != 2 or not all(any(e in g for g in got) for e in expected):
            sys.exit(f"check-inlinable self-test: expected findings at {expected}, got {got}")
    print("check-inlinable self-test: a hidden type's @inlinable members are found, in its"
          " declaration and its extensions; public and @usableFromInline types pass")


def main(arguments):
    if "--self-test" in arguments:
        self_test()
        return
    root = next((a for a in arguments if not a.startswith("-")), "Sources")
    found = findings(root)
    for line in found:
        print(line)
    if found:
        sys.exit(1)
    print(f"check-inlinable: every @inlinable member of {root} can be inlined by other modules")


if __name__ == "__main__":
    main(sys.argv[1:])
