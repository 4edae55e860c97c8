#!/usr/bin/env bash
# Runs every fuzz target (Sources/calldir-fuzz) under libFuzzer for a bounded time.
#
# usage: Scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (default 30 s, every target)
#
# Builds calldir-fuzz with -sanitize=fuzzer into .build/fuzz, starts each target from its seed
# corpus (Tests/FuzzCorpus/TARGET, copied: new inputs go to .build/fuzz/corpus/TARGET), and
# fails on the first crash, keeping the input in .build/fuzz/crashes/ and printing its path.
# Replay a crash with the normal build: swift run calldir-fuzz TARGET FILE.
# Exit status: 0 no crash; 1 a target crashed (or leaked, or ran out of memory); 2 usage.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-30}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then targets=(base manifest frame rows normalize index patterns rules); fi
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1)); then
  echo "fuzz.sh: seconds must be a whole number of at least 1, got '$seconds'" >&2
  exit 2
fi

swift build -c release --product calldir-fuzz --build-path .build/fuzz \
  -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING
binary=.build/fuzz/release/calldir-fuzz
mkdir -p .build/fuzz/crashes

for target in "${targets[@]}"; do
  corpus=.build/fuzz/corpus/$target
  mkdir -p "$corpus"
  cp -n Tests/FuzzCorpus/"$target"/* "$corpus"/ 2>/dev/null || true
  log=.build/fuzz/$target.log
  echo "fuzzing $target for ${seconds}s"
  # The Swift runtime's backtracer would take the crash before libFuzzer saves the input.
  if ! SWIFT_BACKTRACE=enable=no CALLDIR_FUZZ_TARGET=$target "$binary" "$corpus" \
    -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix=.build/fuzz/crashes/"$target"- -print_final_stats=1 >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "fuzz.sh: $target crashed; input kept: $(ls -t .build/fuzz/crashes/"$target"-* | head -1)" >&2
    exit 1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  echo "$target: $runs executions, no crash"
done
