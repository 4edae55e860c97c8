#!/usr/bin/env bash
# Type-checks what an iOS app and its Call Directory extension link, for iOS 16 (the simulator
# target) and macOS 13, with Apple's availability rules, on Linux: no Apple SDK is needed.
#
# usage: Scripts/typecheck-ios.sh            (both targets)
#        Scripts/typecheck-ios.sh ios|macos  (one)
#        Scripts/typecheck-ios.sh --self-test (the stand-ins refuse what the real SDK refuses:
#                                              planted calls must fail for iOS)
# Exit status: 0 every module type-checks; 1 one does not (the compiler's errors are printed).
#
# How (the recipe of issue 26, proven here):
# - A stand-in SDK whose standard library is this toolchain's own interfaces (Swift,
#   _Concurrency, _StringProcessing, Synchronization, SwiftOnoneSupport), retargeted: the
#   `-target` of each interface's flags becomes the Apple target, with
#   -disable-availability-checking for the library itself, and its @backDeployed lines go.
#   The library keeps Apple's @available annotations, so calldir's own code is checked
#   against them: UTF8Span without `if #available` fails with "only available in iOS 26.0".
# - Stand-ins for what Linux lacks, under Scripts/ios-stand-ins/: Darwin (the libc calls
#   calldir's modules make, with Darwin's signatures) and SystemPackage (swift-system's API as
#   calldir uses it; as a package, swift-system's availability is iOS 8) and HeapModule (the
#   part of swift-collections' Heap the loader uses: its sources need that package's own build
#   settings) and CZlib (zlib as Swift imports the SDK's <zlib.h>, for ReleaseFormat's patches).
#   ExtrasBase64 is type-checked from its real sources.
# - Then each module, in dependency order, is compiled to a module for the Apple target:
#   CallDirectoryCore, ByteCoding, SystemCalls, PhoneNormalization, BaseFormat, DirectoryContainer,
#   CallDirectoryLoader, ReleaseFormat, CallDirectoryApp. Without Objective-C interop: with it, Apple targets'
#   pointer conversions (`&value` to an UnsafeMutablePointer) look up
#   AutoreleasingUnsafeMutablePointer, which Linux's standard library lacks ("broken standard
#   library: cannot find intrinsic operations on UnsafeMutablePointer<T>"); none of these
#   modules is @objc, so the availability check is the same.
#   Then, against stand-ins for Apple's Foundation and Dispatch (Scripts/ios-stand-ins/) and
#   CallKit (Scripts/CallKitStandIn.swift), with their availability: ReleaseDownload,
#   CallKitAdapter, and (for iOS) the example's extension and updater, so the async API an app
#   calls is checked for iOS 16. Not covered: the example's SwiftUI files (no SwiftUI stand-in);
#   A check outside this repository (and .github/workflows/ios.yml) compiles all of it against a real iOS SDK.
set -euo pipefail
cd "$(dirname "$0")/.."

toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")
resources=$toolchain/lib/swift
linux=$resources/linux
work=.build/typecheck-ios
if [[ ${1:-} == --self-test ]]; then
  plants=$(mktemp -d)
  trap 'rm -rf "$plants"' EXIT
  printf '%s\n' '// proc_pid_rusage outside #if os(macOS)' 'import Darwin' \
    'func footprint() -> Int32 { proc_pid_rusage(0, RUSAGE_INFO_V4, nil) }' >"$plants/libproc.swift"
  printf '%s\n' '// strlen of an optional pointer' 'import Darwin' \
    'func length(_ text: UnsafePointer<CChar>?) -> Int { strlen(text) }' >"$plants/strlen.swift"
  planted=("$plants/libproc.swift" "$plants/strlen.swift")
  set -- ios
fi
targets=("$@")
if ((${#targets[@]} == 0)); then targets=(ios macos); fi

# Every module an iOS app or extension links, in dependency order: Package.swift's one list
# (iOSModules, then iOSModulesOnFoundation), and ProcessMetrics, which the team's Macs run
# (proc_pid_rusage's footprint on macOS) though no app links it.
read -ra modules <<<"$(python3 Scripts/check-module-graph.py --ios-modules) ProcessMetrics"
read -ra on_foundation <<<"$(python3 Scripts/check-module-graph.py --ios-modules --on-foundation)"

typecheck() { # platform-folder triple interface-triple
  local folder=$1 triple=$2 interface=$3
  local sdk=$work/$folder/SDK
  local library=$sdk/usr/lib/swift/$folder
  local built=$work/$folder/modules
  mkdir -p "$library" "$built" "$work/$folder/cache"
  for module in Swift _Concurrency _StringProcessing Synchronization SwiftOnoneSupport; do
    mkdir -p "$library/$module.swiftmodule"
    sed -e "s/-target x86_64-unknown-linux-gnu/-target $triple -disable-availability-checking/" \
      -e '/@backDeployed(/d' \
      "$linux/$module.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface" \
      >"$library/$module.swiftmodule/$interface.swiftinterface"
  done
  local flags=(-target "$triple" -resource-dir "$resources" -sdk "$sdk" -I "$library" -I "$built"
    -module-cache-path "$work/$folder/cache" -swift-version 6 -parse-as-library -package-name calldir
    -Xcc -Wno-incomplete-umbrella -Xfrontend -disable-objc-interop)
  emit() { # module-name sources...
    local name=$1
    shift
    if ! swiftc -emit-module -module-name "$name" "${flags[@]}" \
      -emit-module-path "$built/$name.swiftmodule" "$@" 2> >(grep -v SDKSettings >&2); then
      echo "typecheck-ios: $name does not type-check for $triple" >&2
      return 1
    fi
  }
  sources() { find "$1" -name '*.swift' -print0 | sort -z; } # a folder's Swift files
  local checkouts=.build/checkouts files
  emit Darwin Scripts/ios-stand-ins/Darwin.swift
  emit SystemPackage Scripts/ios-stand-ins/SystemPackage.swift
  emit HeapModule Scripts/ios-stand-ins/HeapModule.swift
  emit CZlib Scripts/ios-stand-ins/CZlib.swift
  # ExtrasBase64's own settings (its Package.swift): the features its Span code needs.
  mapfile -d '' files < <(sources "$checkouts/swift-extras-base64/Sources/ExtrasBase64")
  emit ExtrasBase64 -enable-upcoming-feature InternalImportsByDefault \
    -enable-upcoming-feature MemberImportVisibility \
    -enable-experimental-feature SuppressedAssociatedTypesWithDefaults \
    -enable-experimental-feature Lifetimes -enable-upcoming-feature LifetimeDependence \
    "${files[@]}"
  if [[ -n ${planted:-} ]]; then
    # Each planted file must fail against the stand-ins, as it fails against the real SDK.
    local plant failed=0
    for plant in "${planted[@]}"; do
      if emit Planted "$plant" 2>/dev/null; then
        echo "typecheck-ios: self-test: $(head -1 "$plant") type-checks for $triple; the real SDK refuses it" >&2
        failed=1
      else
        echo "typecheck-ios: self-test: refused as the SDK refuses it: $(head -1 "$plant")"
      fi
    done
    return $failed
  fi
  # Dispatch first: CallDirectoryApp runs its blocking work on a queue of its own.
  emit Dispatch Scripts/ios-stand-ins/Dispatch.swift
  # calldir's own modules in strict memory safety, its diagnostics errors, as Package.swift
  # builds them: the Darwin branches (`#if canImport(Darwin)`, `#if os(macOS)`) that a Linux
  # build never compiles are checked here (issue 57).
  local strict=(-strict-memory-safety -Werror StrictMemorySafety)
  for module in "${modules[@]}"; do
    mapfile -d '' files < <(sources "Sources/$module")
    emit "$module" "${strict[@]}" "${files[@]}"
  done
  # What an app links beyond them, against stand-ins for Apple's Foundation, Dispatch and
  # CallKit (Scripts/ios-stand-ins/Foundation.swift, Dispatch.swift, Scripts/CallKitStandIn.swift):
  # the release client, the CallKit adapter, and the example's extension and updater (no
  # SwiftUI), so the async API an app calls is checked for iOS 16's availability here.
  emit Foundation Scripts/ios-stand-ins/Foundation.swift
  emit CallKit Scripts/CallKitStandIn.swift
  for module in "${on_foundation[@]}"; do
    mapfile -d '' files < <(sources "Sources/$module")
    emit "$module" "${strict[@]}" "${files[@]}"
  done
  if [[ $folder == iphonesimulator ]]; then # the example is an iOS app
    emit CallerIDExample Examples/CallerID/Extension/*.swift Examples/CallerID/Shared/*.swift
    echo "typecheck-ios: ${modules[*]} ${on_foundation[*]} and the example's" \
      "extension and updater type-check for $triple"
  else
    echo "typecheck-ios: ${modules[*]} ${on_foundation[*]} type-check for $triple"
  fi
}


# One room for system calls (issue 26, item 4): of the modules above, only SystemCalls imports
# the C library (Darwin on Apple systems, Glibc here), and ByteCoding, for memcmp and memchr
# (string functions, not system calls). So the Darwin stand-in is what that room uses, and a
# call added anywhere else fails here, on Linux, before a Mac sees it.
for module in "${modules[@]}"; do
  case $module in SystemCalls | ByteCoding) continue ;; esac
  if grep -ln -E '^\s*import (Glibc|Darwin)\b' -r "Sources/$module" >&2; then
    echo "typecheck-ios: $module imports the C library itself; its calls belong in SystemCalls" >&2
    exit 1
  fi
done

if [[ ! -d .build/checkouts/swift-collections ]]; then swift package resolve >/dev/null; fi
for target in "${targets[@]}"; do
  case $target in
  ios) typecheck iphonesimulator x86_64-apple-ios16.0-simulator x86_64-apple-ios-simulator ;;
  macos) typecheck macosx x86_64-apple-macosx13.0 x86_64-apple-macos ;;
  *)
    echo "typecheck-ios: unknown target '$target' (ios or macos)" >&2
    exit 2
    ;;
  esac
done
