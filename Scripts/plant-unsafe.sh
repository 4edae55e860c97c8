#!/usr/bin/env bash
# Plants one use of each kind of unsafe construct in a target with no room (PhoneNormalization),
# one at a time, and checks that the build and Scripts/check-unsafe-rooms.py refuse it (issue 57):
# the rooms are enforced by the compiler, not only by a regex.
#
# The compiler's strict memory safety (SE-0458, on with its diagnostics as errors in every
# roomless target) refuses the five memory kinds: a raw pointer, Unmanaged, an unretained
# reference, ByteView's unsafeStart and an @exclusivity(unchecked) property. nonisolated(unsafe)
# and @unchecked Sendable are escapes from data-race checking, which SE-0458 leaves alone, so the
# build takes them; the check refuses all seven.
#
# usage: Scripts/plant-unsafe.sh [--scratch-path DIR]   (default: the package's .build)
# Exit status: 0 every planted use refused as expected; 1 one was let through (named on stderr);
# 2 usage. The planted file is removed however the script ends.
set -uo pipefail
cd "$(dirname "$0")/.."
scratch=(--scratch-path .build)
case "${1:-}" in
  "") ;;
  --scratch-path) [[ -n "${2:-}" ]] || { echo "plant-unsafe: --scratch-path needs a folder" >&2; exit 2; }
    scratch=(--scratch-path "$2") ;;
  *) echo "plant-unsafe: unknown argument '$1' (usage: Scripts/plant-unsafe.sh [--scratch-path DIR])" >&2; exit 2 ;;
esac

target=PhoneNormalization
planted="Sources/$target/PlantedUnsafeUse.swift"
trap 'rm -f "$planted"' EXIT
[[ -e "$planted" ]] && { echo "plant-unsafe: $planted exists already; refusing to overwrite it" >&2; exit 2; }

# kind | whether the compiler must refuse it | the planted code
plants=(
  "pointer|yes|func plantedLoad(_ address: UnsafeRawPointer) -> UInt8 { address.load(as: UInt8.self) }"
  "unmanaged|yes|final class PlantedBox { var value = 1 }
func plantedPeek(_ box: PlantedBox) -> Int { Unmanaged.passUnretained(box).takeUnretainedValue().value }"
  "unretained|yes|final class PlantedBox { var value = 1 }
final class PlantedHolder { unowned(unsafe) let box: PlantedBox; init(_ box: PlantedBox) { self.box = box } }
func plantedRead(_ holder: PlantedHolder) -> Int { holder.box.value }"
  "view-start|yes|import ByteCoding
func plantedStart(_ view: ByteView) -> Bool { view.unsafeStart != nil }"
  "exclusivity|yes|final class PlantedCounter { @exclusivity(unchecked) var count = 0 }
func plantedBump(_ counter: PlantedCounter) { counter.count += 1 }"
  "isolation|no|nonisolated(unsafe) var plantedGlobal = 0"
  "sendable|no|final class PlantedShared: @unchecked Sendable { var value = 0 }"
)

failures=0
for plant in "${plants[@]}"; do
  kind=${plant%%|*}
  rest=${plant#*|}
  compilerRefuses=${rest%%|*}
  code=${rest#*|}
  printf '// Planted by Scripts/plant-unsafe.sh (removed when it ends).\n%s\n' "$code" >"$planted"

  if python3 Scripts/check-unsafe-rooms.py >/tmp/plant-check.$$ 2>&1; then
    echo "plant-unsafe: $kind: check-unsafe-rooms.py let it through" >&2
    failures=$((failures + 1))
  elif ! grep -q "PlantedUnsafeUse.swift.*$kind" /tmp/plant-check.$$; then
    echo "plant-unsafe: $kind: check-unsafe-rooms.py failed without naming it: $(head -3 /tmp/plant-check.$$)" >&2
    failures=$((failures + 1))
  fi

  swift build "${scratch[@]}" --target "$target" >/tmp/plant-build.$$ 2>&1
  built=$?
  refusedForSafety=no
  if ((built != 0)) && grep -q "PlantedUnsafeUse.swift:.*error:.*unsafe" /tmp/plant-build.$$; then
    refusedForSafety=yes
  fi
  if [[ $compilerRefuses == yes && $refusedForSafety != yes ]]; then
    echo "plant-unsafe: $kind: the build of $target did not refuse it (exit $built): $(grep -m1 error: /tmp/plant-build.$$)" >&2
    failures=$((failures + 1))
  elif [[ $compilerRefuses == no && $built != 0 ]]; then
    echo "plant-unsafe: $kind: the build failed for another reason: $(grep -m1 error: /tmp/plant-build.$$)" >&2
    failures=$((failures + 1))
  fi
  if [[ $compilerRefuses == yes ]]; then
    echo "$kind: refused by the compiler ($(grep -m1 -o 'error: [^[]*' /tmp/plant-build.$$)) and by the check"
  else
    echo "$kind: refused by the check (the compiler's memory safety does not cover it)"
  fi
done
rm -f /tmp/plant-check.$$ /tmp/plant-build.$$
if ((failures)); then
  echo "plant-unsafe: $failures planted use(s) let through" >&2
  exit 1
fi
echo "plant-unsafe: all ${#plants[@]} planted kinds refused"
