#!/usr/bin/env python3
"""Checks that the module graph is true and stays true (issue 28, item 3).

Three views of one graph must agree:
  1. the imports in each target's Swift files,
  2. the dependencies each target declares in Package.swift,
  3. the graph drawn in Package.swift's header comment (lines "A, B ← C": C uses A and B).

It fails (exit 1, one line per drift) on
  - an import of a package module the target does not declare (a missing arrow),
  - a declared dependency on a library target or product no file of the target imports (a dead
    arrow; executables listed only so that they are built first are exempt),
  - an edge between library targets drawn in the header but not declared, or declared but not
    drawn,
  - a module of Package.swift's iOS lists (`iOSModules`, `iOSModulesOnFoundation`: what an app
    links) that is not a target, uses a module outside those lists and the mirrored packages, or
    (the first list) imports Foundation.

usage: Scripts/check-module-graph.py [--print-header | --ios-modules [--on-foundation] | --self-test]
  --print-header  prints the header's graph lines as Package.swift declares them, to paste.
  --ios-modules   prints the iOS modules without Foundation, lowest first, one line, for the
                  scripts that build them (with --on-foundation: the ones on Foundation).
  --self-test     plants a dead arrow and a header edge in a copy of Package.swift's text and
                  fails unless both are reported.
Exit status: 0 the three agree; 1 drift (each line names the target and the module); 2 usage.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARROW = "←"

# Modules that come with the toolchain or the system, never declared.
TOOLCHAIN = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Darwin", "Dispatch",
    "Testing", "XCTest", "Musl", "WinSDK", "os", "CallKit", "SwiftUI", "UIKit", "Synchronization",
    "_Concurrency", "Swift",
}
# A package product's name and the module it provides.
PRODUCT_MODULES = {
    "SystemPackage": "SystemPackage", "HeapModule": "HeapModule", "ExtrasBase64": "ExtrasBase64",
    "ArgumentParser": "ArgumentParser",
}


def read_package(text=None):
    if text is None:
        text = open(os.path.join(ROOT, "Package.swift"), encoding="utf-8").read()
    targets = {}
    kinds = r"(target|executableTarget|testTarget|systemLibrary)"
    for match in re.finditer(r"\.%s\(\s*name:\s*\"([^\"]+)\"" % kinds, text):
        kind, name = match.group(1), match.group(2)
        # The call's text: up to the matching close parenthesis.
        depth, index = 0, match.start()
        while True:
            char = text[index]
            depth += char == "("
            depth -= char == ")"
            index += 1
            if depth == 0 and char == ")":
                break
        call = text[match.start():index]
        dependencies = set()
        found = re.search(r"dependencies:\s*\[(.*?)\]\s*(,\s*(path|exclude|linkerSettings|resources)|\))",
                          call, re.S)
        if found:
            body = re.sub(r"//[^\n]*", "", found.group(1))
            for product in re.findall(r"\.product\(name:\s*\"([^\"]+)\"", body):
                dependencies.add(PRODUCT_MODULES.get(product, product))
            body = re.sub(r"\.product\([^)]*\)", "", body)
            dependencies |= set(re.findall(r"\"([^\"]+)\"", body))
        path = re.search(r"path:\s*\"([^\"]+)\"", call)
        folder = path.group(1) if path else (
            ("Tests/" if kind == "testTarget" else "Sources/") + name)
        targets[name] = {"kind": kind, "dependencies": dependencies, "folder": folder}
    return text, targets


def imports_of(folder):
    found = {}
    pattern = re.compile(
        r"^\s*(?:@testable\s+|@_implementationOnly\s+|@preconcurrency\s+|public\s+|internal\s+)*"
        r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)",
        re.M)
    for directory, _, files in os.walk(os.path.join(ROOT, folder)):
        for file in files:
            if not file.endswith(".swift"):
                continue
            path = os.path.join(directory, file)
            for line_number, line in enumerate(open(path, encoding="utf-8"), 1):
                match = pattern.match(line)
                if match:
                    found.setdefault(match.group(1), os.path.relpath(path, ROOT) + f":{line_number}")
    return found


def header_edges(text):
    """(used, user) pairs drawn in the header's graph lines."""
    edges = set()
    lines = []
    for line in text.splitlines():
        if not line.startswith("//"):
            if lines:
                break
            continue
        body = line[2:]
        if lines and lines[-1].rstrip().endswith(","):
            lines[-1] += " " + body.strip()  # a continuation of the line before
        elif ARROW in body or body.rstrip().endswith(","):
            lines.append(body)  # a graph line, or the first of a wrapped one
    for line in lines:
        line = re.sub(r"\([^)]*\)", "", line)  # remarks in parentheses
        segments = [
            [name.strip() for name in segment.split(",") if name.strip()]
            for segment in line.split(ARROW)
        ]
        for left, right in zip(segments, segments[1:]):
            for used in left:
                for user in right:
                    edges.add((used, user))
    return edges


def header_lines(targets, libraries, source_targets):
    """The header's graph, one line per target that uses others, lowest layer first (a target
    after everything it uses), wrapped at 100 columns."""
    ordered, placed = [], set()
    remaining = sorted(source_targets)
    while remaining:
        ready = [n for n in remaining
                 if all(d in placed or d not in source_targets for d in targets[n]["dependencies"])]
        if not ready:  # a cycle: the compiler refuses it anyway
            ready = remaining[:1]
        for name in ready:
            ordered.append(name)
            placed.add(name)
            remaining.remove(name)
    lines = []
    for name in ordered:
        used = sorted(d for d in targets[name]["dependencies"] if d in libraries)
        if not used:
            continue
        line = "//  "
        for index, module in enumerate(used):
            word = " " + module + ("," if index < len(used) - 1 else f" {ARROW} {name}")
            if len(line) + len(word) > 100:
                lines.append(line)
                line = "//    "
            line += word
        lines.append(line)
    return lines


# What an iOS module may use besides the iOS lists: the mirrored packages and the system's zlib.
IOS_PACKAGES = {"SystemPackage", "HeapModule", "ExtrasBase64", "CZlib", "PrivacyInfo"}
FOUNDATION = {"Foundation", "FoundationEssentials", "FoundationNetworking"}


def ios_modules(text):
    """Package.swift's two iOS lists: (without Foundation, on Foundation), each lowest first."""
    lists = []
    for name in ("iOSModules", "iOSModulesOnFoundation"):
        found = re.search(r"^let %s = \[(.*?)\]" % name, text, re.S | re.M)
        lists.append(re.findall(r"\"([^\"]+)\"", found.group(1)) if found else None)
    return lists


def ios_drifts(text, targets):
    """What disagrees with the iOS lists: a list missing, a module that is not a target, a use of
    a module outside the lists, Foundation imported on the extension's path."""
    without, on_foundation = ios_modules(text)
    if without is None or on_foundation is None:
        return ["Package.swift: the iOS lists (let iOSModules, let iOSModulesOnFoundation) are missing"]
    drift = []
    allowed = set(without) | set(on_foundation) | IOS_PACKAGES
    for module in without + on_foundation:
        if module not in targets:
            drift.append(f"Package.swift: the iOS list names {module}, which is not a target")
            continue
        for used in sorted(targets[module]["dependencies"] - allowed):
            drift.append(f"Package.swift: the iOS module {module} uses {used}, which no iOS list holds")
        if module in without:
            for imported, place in sorted(imports_of(targets[module]["folder"]).items()):
                if imported in FOUNDATION:
                    drift.append(f"{place}: the iOS module {module} imports {imported}, "
                                 "which the extension's path does without")
    return drift


# Modules no library product (what an app or its extension links) may reach.
APP_BANNED = {"FaultInjection"}

# Targets depended on for the resources they bundle, not for code: nothing imports them.
RESOURCE_ONLY = {"PrivacyInfo"}


def drifts(text=None):
    """Every disagreement, one line each, for Package.swift's text (the file's by default)."""
    text, targets = read_package(text)
    libraries = {name for name, target in targets.items() if target["kind"] in ("target", "systemLibrary")}
    modules = set(targets) | set(PRODUCT_MODULES.values())
    source_targets = [n for n, t in targets.items() if t["kind"] in ("target", "executableTarget")
                      and t["folder"].startswith("Sources/")]
    drift = []
    for name, target in sorted(targets.items()):
        if target["kind"] == "systemLibrary":
            continue
        imported = imports_of(target["folder"])
        declared = target["dependencies"]
        for module, place in sorted(imported.items()):
            if module in TOOLCHAIN or module == name:
                continue
            if module in modules and module not in declared:
                drift.append(f"{place}: {name} imports {module}, which Package.swift does not declare")
        for module in sorted(declared):
            if module in targets and targets[module]["kind"] == "executableTarget":
                continue  # listed so that it is built first, never imported
            if module in RESOURCE_ONLY:
                continue  # bundled for its resources (a privacy manifest), never imported
            if module not in imported:
                drift.append(f"Package.swift: {name} declares {module}, which none of its files imports")
    drawn = header_edges(text)
    declared_edges = {
        (used, name) for name in source_targets
        for used in targets[name]["dependencies"] if used in libraries
    }
    for used, user in sorted(drawn - declared_edges):
        drift.append(f"Package.swift header: draws {used} {ARROW} {user}, which is not declared")
    for used, user in sorted(declared_edges - drawn):
        drift.append(f"Package.swift header: {user} uses {used}, which the header does not draw")
    # What an app links never reaches the test hook (issue 40): every library product's modules.
    for product in re.findall(r"\.library\(\s*name:\s*\"([^\"]+)\"", text):
        reached, waiting = set(), [product]
        while waiting:
            module = waiting.pop()
            if module in reached or module not in targets:
                continue
            reached.add(module)
            waiting.extend(targets[module]["dependencies"])
        for banned in sorted(APP_BANNED & reached):
            drift.append(f"Package.swift: the library product {product} reaches {banned}, "
                         "which only the command-line tools may link")
    drift += ios_drifts(text, targets)
    return drift, targets, libraries, source_targets, declared_edges


def self_test():
    """Plants a dead arrow (BaseFormat declaring CallDirectoryCore, which it never imports) and
    the matching header line in a copy of Package.swift's text: both must be reported."""
    text = open(os.path.join(ROOT, "Package.swift"), encoding="utf-8").read()
    planted = text.replace('name: "BaseFormat",\n      dependencies: [\n',
                           'name: "BaseFormat",\n      dependencies: [\n        "CallDirectoryCore",\n', 1)
    planted = planted.replace("//   ByteCoding, SystemCalls ← BaseFormat", "//   CallDirectoryCore, ByteCoding, SystemCalls ← BaseFormat", 1)
    planted_header = text.replace("//   ByteCoding, SystemCalls ← BaseFormat", "//   CallDirectoryCore, ByteCoding, SystemCalls ← BaseFormat", 1)
    if planted == text or planted_header == text:
        print("self-test: the planting sites moved; update self_test()")
        return 1
    dead = [line for line in drifts(planted)[0] if "BaseFormat declares CallDirectoryCore" in line]
    drawn = [line for line in drifts(planted_header)[0] if "draws CallDirectoryCore ← BaseFormat" in line]
    # The test hook planted into what an app links.
    hooked = text.replace('name: "DirectoryContainer",\n      dependencies: [\n',
                          'name: "DirectoryContainer",\n      dependencies: [\n        "FaultInjection",\n', 1)
    reached = [line for line in drifts(hooked)[0]
               if "CallDirectoryApp reaches FaultInjection" in line]
    # A harness module used by what an app links.
    outside = text.replace('"CallDirectoryCore", "ByteCoding", "SystemCalls",',
                           '"CallDirectoryCore", "ByteCoding", "SystemCalls", "ProcessSpawning",', 1)
    used = [line for line in drifts(outside)[0]
            if "iOS module ProcessSpawning uses ProcessMetrics, which no iOS list holds" in line]
    if hooked == text or outside == text:
        print("self-test: the planting sites moved; update self_test()")
        return 1
    if not dead or not drawn or not reached or not used:
        print(f"self-test: a planted dead arrow was {'found' if dead else 'missed'}, a planted "
              f"header edge {'found' if drawn else 'missed'}, the test hook in an app's "
              f"product {'found' if reached else 'missed'}, a harness module in the iOS list "
              f"{'found' if used else 'missed'}")
        return 1
    print("self-test: a planted dead arrow, a planted header edge, the test hook planted in "
          "an app's product and a harness module planted in the iOS list are all reported")
    return 0


def main():
    arguments = sys.argv[1:]
    if arguments not in ([], ["--print-header"], ["--self-test"], ["--ios-modules"],
                         ["--ios-modules", "--on-foundation"]):
        print("usage: Scripts/check-module-graph.py [--print-header | --ios-modules "
              "[--on-foundation] | --self-test]", file=sys.stderr)
        return 2
    if arguments == ["--self-test"]:
        return self_test()
    if arguments[:1] == ["--ios-modules"]:
        without, on_foundation = ios_modules(open(os.path.join(ROOT, "Package.swift"),
                                                  encoding="utf-8").read())
        if without is None or on_foundation is None:
            print("Package.swift: the iOS lists are missing", file=sys.stderr)
            return 1
        print(" ".join(on_foundation if arguments[1:] else without))
        return 0
    drift, targets, libraries, source_targets, declared_edges = drifts()
    if arguments == ["--print-header"]:
        for line in header_lines(targets, libraries, source_targets):
            print(line)
        return 0
    for line in drift:
        print(line)
    if drift:
        print(f"{len(drift)} drifts between imports, Package.swift and its header "
              "(Scripts/check-module-graph.py --print-header prints the header's lines)",
              file=sys.stderr)
        return 1
    print(f"module graph: {len(targets)} targets, {len(declared_edges)} edges between library "
          "targets; imports, declarations and header agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
