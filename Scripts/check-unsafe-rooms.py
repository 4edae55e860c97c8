#!/usr/bin/env python3
"""Checks that raw pointers stay in their named rooms (issue 28, item 4).

A source file names a raw pointer type when its text holds one of UnsafePointer,
UnsafeMutablePointer, UnsafeRawPointer, UnsafeMutableRawPointer, UnsafeBufferPointer,
UnsafeMutableBufferPointer, UnsafeRawBufferPointer, UnsafeMutableRawBufferPointer or
OpaquePointer as a word (`withUnsafeBytes` and its kin do not count: they lend bytes to a
closure without naming the type). Every such file must be listed in CONTRIBUTING.md's table between
the markers `<!-- unsafe-rooms -->` and `<!-- /unsafe-rooms -->`, with the reason it needs one;
everything else reads bytes through ByteCoding's `ByteView`, `LittleEndianReader` and writer.

It fails (exit 1, one line each) on
  - a file that names a raw pointer type and is not in the table (its first such line),
  - a file in the table that no longer names one (a stale room: take it out).

usage: Scripts/check-unsafe-rooms.py [--self-test]
  --self-test  plants a file outside the rooms and a stale room, and fails unless both are
               reported.
Exit status: 0 the rooms and the sources agree; 1 a drift; 2 usage.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POINTER = re.compile(
    r"\b(?:Unsafe(?:Mutable)?(?:Raw)?(?:Buffer)?Pointer|OpaquePointer)\b")
ROOM_ROW = re.compile(r"^\|\s*`(Sources/[^`]+\.swift)`")


def pointer_files(root):
    """Maps each Swift file under Sources that names a raw pointer type to its first such line."""
    found = {}
    sources = os.path.join(root, "Sources")
    for folder, _, names in os.walk(sources):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as file:
                for number, line in enumerate(file, 1):
                    if POINTER.search(line):
                        found[os.path.relpath(path, root)] = number
                        break
    return found


def rooms(readme_text):
    """The files CONTRIBUTING.md's rooms table lists."""
    inside = False
    listed = set()
    for line in readme_text.splitlines():
        if line.strip() == "<!-- unsafe-rooms -->":
            inside = True
        elif line.strip() == "<!-- /unsafe-rooms -->":
            inside = False
        elif inside:
            match = ROOM_ROW.match(line)
            if match:
                listed.add(match.group(1))
    return listed


def drifts(found, listed):
    """One line per file outside the rooms and per stale room."""
    lines = []
    for path in sorted(set(found) - listed):
        lines.append(
            f"{path}:{found[path]}: names a raw pointer type outside the rooms "
            "(CONTRIBUTING.md's unsafe-bytes table): read bytes through ByteView, or add the room with "
            "its reason")
    for path in sorted(listed - set(found)):
        lines.append(f"CONTRIBUTING.md: {path} is listed as a room but names no raw pointer type: "
                     "take it out of the table")
    return lines


def self_test(found, listed):
    planted = dict(found)
    planted["Sources/Planted/Outside.swift"] = 3
    stale = set(listed) | {"Sources/Planted/Stale.swift"}
    reported = drifts(planted, stale)
    outside = any(line.startswith("Sources/Planted/Outside.swift:3:") for line in reported)
    gone = any("Sources/Planted/Stale.swift is listed" in line for line in reported)
    if outside and gone:
        print("check-unsafe-rooms self-test: a file outside the rooms and a stale room are "
              "both reported")
        return 0
    print("check-unsafe-rooms self-test: a planted drift went unreported", file=sys.stderr)
    return 1


def main(arguments):
    if arguments not in ([], ["--self-test"]):
        print(__doc__.strip().splitlines()[-4], file=sys.stderr)
        return 2
    with open(os.path.join(ROOT, "CONTRIBUTING.md"), encoding="utf-8") as file:
        listed = rooms(file.read())
    found = pointer_files(ROOT)
    if not listed:
        print("CONTRIBUTING.md: no unsafe-rooms table between its markers", file=sys.stderr)
        return 1
    if arguments == ["--self-test"]:
        return self_test(found, listed)
    lines = drifts(found, listed)
    for line in lines:
        print(line, file=sys.stderr)
    if lines:
        print(f"{len(lines)} drifts between the sources and the rooms", file=sys.stderr)
        return 1
    print(f"unsafe rooms: {len(found)} files name a raw pointer type, each a listed room")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
