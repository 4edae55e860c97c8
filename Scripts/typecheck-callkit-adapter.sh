#!/usr/bin/env bash
# Type-checks Sources/CallKitAdapter and the example app's extension and updater
# (Examples/CallerID) under Swift 6 against a
# stand-in for CallKit (Scripts/CallKitStandIn.swift: the signatures Apple's documentation
# gives, no behaviour). Linux has no CallKit, so this is the only check of the adapter here: it
# catches wrong signatures and Swift 6 concurrency errors (CallKit's handlers are @Sendable)
# before a macOS runner would. It does not replace .github/workflows/ios.yml, which builds
# against the real SDK.
# Needs the debug build's modules (swift build or swift test first).
# Exit status: 0 clean; 1 a compile error (printed) or a README without the example.
set -euo pipefail
cd "$(dirname "$0")/.."
modules="$(swift build --show-bin-path)/Modules"
csystem=.build/checkouts/swift-system/Sources/CSystem/include
[ -d "$modules" ] && [ -d "$csystem" ] || { echo "build first: swift build" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The app's half reads patches through zlib (ReleaseFormat imports CZlib, the system's zlib).
flags=(-swift-version 6 -I "$work" -I "$modules" -Xcc "-fmodule-map-file=$csystem/module.modulemap"
  -I "$csystem" -Xcc "-fmodule-map-file=Sources/CZlib/module.modulemap" -I Sources/CZlib)
swiftc "${flags[@]}" -parse-as-library -emit-module -module-name CallKit \
  -emit-module-path "$work/CallKit.swiftmodule" Scripts/CallKitStandIn.swift
swiftc "${flags[@]}" -parse-as-library -emit-module -module-name CallKitAdapter \
  -emit-module-path "$work/CallKitAdapter.swiftmodule" Sources/CallKitAdapter/*.swift
# The README's principal class is the example extension's, line for line.
handler=Examples/CallerID/Extension/CallDirectoryHandler.swift
example=$(awk '/^final class CallDirectoryHandler/,/^```$/' README.md | grep -v '^```' || true)
[ -n "$example" ] || { echo "README.md: no CallDirectoryHandler example found" >&2; exit 1; }
if ! diff <(printf '%s\n' "$example") <(awk '/^final class CallDirectoryHandler/,0' "$handler"); then
  echo "README.md's CallDirectoryHandler differs from $handler" >&2
  exit 1
fi
# The example's extension and the app's work (Shared/: no SwiftUI, no Combine, which Linux lacks).
swiftc "${flags[@]}" -typecheck -parse-as-library "$handler" Examples/CallerID/Shared/*.swift
echo "CallKitAdapter, the example's extension (the README's) and its DirectoryUpdater type-check" \
  "under Swift 6 (stand-in CallKit); its SwiftUI files are built only by ios.yml"
