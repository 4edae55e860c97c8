#!/usr/bin/env bash
# Measures each default gate's false-alarm rate on a busy machine, and that planted regressions
# are still caught (issue 41, item 2). Every gate runs as A/A (the same build against itself)
# RUNS times while BUSY busy loops share the cores (default 6: three per core on a 2-core
# runner, a shared CI runner's neighbours). Then the planted regressions run once each:
#   - an -Osize build of the extension, A/B against this one;
#   - an assertions-on build (-assert-config Debug), against the committed baseline;
#   - this build with CALLDIR_PLANTED_WORK=N, which makes the extension's context do N extra
#     steps per entry (off by default, and compiled in only behind the environment variable).
# Prints a Markdown table (gate, runs, false alarms; planted regression, caught) for the README.
#
# usage: Scripts/false-alarms.sh [RUNS]     (default 50; RUNS=5 takes about 25 minutes)
# Environment: BUSY (busy loops, default 6), SKIP_PLANTED=1 (A/A only).
# Exit status: 0 no false alarm and every planted regression caught; 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-50}
busy=${BUSY:-6}
work=$(mktemp -d)
loops=()
cleanup() {
  for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

swift build -c release >/dev/null
calldir=$PWD/.build/release/calldir
mkdir "$work/same-build" # A/A's A: this very build's extension, copied
cp -L .build/release/calldir-extension "$work/same-build/"
if [[ ${SKIP_PLANTED:-} != 1 ]]; then
  # The planted builds first, on a quiet machine: only the measurements run under load.
  swift build -c release --product calldir --scratch-path "$work/osize" \
    -Xswiftc -Osize >/dev/null 2>&1
  swift build -c release --product calldir --scratch-path "$work/asserts" -Xswiftc -assert-config \
    -Xswiftc Debug >/dev/null 2>&1
fi
for _ in $(seq 1 "$busy"); do
  (while :; do :; done) &
  loops+=($!)
done

failures=0
row() { # gate runs alarms (empty when a run failed: count_alarms said why)
  echo "| \`$1\` | $2 | ${3:-a run failed} |"
  if [[ -z $3 ]] || (($3 > 0)); then failures=1; fi
}
count_alarms() { # command... : runs it RUNS times, counts exit status 2
  local alarms=0 status
  for run in $(seq 1 "$runs"); do
    status=0
    "$@" >"$work/last.log" 2>&1 || status=$?
    if ((status == 2)); then
      alarms=$((alarms + 1))
      grep -h "gate" "$work/last.log" | head -3 >&2
    elif ((status != 0)); then
      echo "false-alarms.sh: run $run of '$*' failed with $status:" >&2
      tail -3 "$work/last.log" >&2
      exit 1
    fi
  done
  echo "$alarms"
}

echo "| gate (A/A, $busy busy loops on $(nproc) cores) | runs | false alarms |"
echo "| --- | --- | --- |"
row "bench --gate --baseline Results/baseline.json" "$runs" "$(count_alarms "$calldir" bench \
  --profile ci-smoke --allocator jemalloc --gate --baseline Results/baseline.json --quiet \
  --out "$work/bench.csv")"
row "bench ab --gate (same build)" "$runs" "$(count_alarms "$calldir" bench ab \
  --against "$work/same-build" --profile ci-smoke --strategies mmap,buffered --repeat 10 \
  --gate --quiet --out "$work/ab.csv")"
row "bench two-phase --gate" "$runs" "$(count_alarms "$calldir" bench two-phase \
  --profile ci-smoke --regions 3,300 --repeat 3 --gate --out "$work/two-phase.csv")"
# history changes --gate over an A/A history: each run a commit of its own, same build; the
# gate is asked from the fourth commit on (a change needs a few points on each side).
history_alarms=0
for run in $(seq 1 $((runs + 3))); do
  "$calldir" bench --profile ci-smoke --allocator jemalloc --quiet --out "$work/h.csv" >/dev/null
  "$calldir" history add "$work/h.csv" --commit "$(printf '%040x' "$run")" --db "$work/h.sqlite" \
    >/dev/null
  if ((run >= 4)); then
    "$calldir" history changes --gate --db "$work/h.sqlite" >/dev/null 2>&1 ||
      history_alarms=$((history_alarms + 1))
  fi
done
row "history changes --gate (A/A history)" "$runs" "$history_alarms"

if [[ ${SKIP_PLANTED:-} == 1 ]]; then exit $failures; fi
echo
echo "| planted regression | gate | caught |"
echo "| --- | --- | --- |"
caught() { # label gate command...: caught when the command exits 2
  local label=$1 gate=$2 status=0
  shift 2
  "$@" >"$work/planted.log" 2>&1 || status=$?
  if ((status == 2)); then echo "| $label | \`$gate\` | yes |"; else
    echo "| $label | \`$gate\` | **no** (exit $status) |"
    failures=1
  fi
}
# B is the build the running calldir belongs to: the -Osize one, against this one as A.
caught "-Osize build" "bench ab --gate" "$work/osize/release/calldir" bench ab \
  --against "$work/same-build" --profile ci-smoke --strategies mmap,buffered --repeat 10 \
  --gate --quiet --out "$work/osize.csv"
caught "assertions on" "bench --baseline --gate" "$work/asserts/release/calldir" bench \
  --profile ci-smoke --allocator jemalloc --gate --baseline Results/baseline.json --quiet \
  --out "$work/asserts.csv"
caught "2 extra steps per entry (CALLDIR_PLANTED_WORK=2)" "bench --baseline --gate" \
  env CALLDIR_PLANTED_WORK=2 "$calldir" bench --profile ci-smoke --allocator jemalloc --gate \
  --baseline Results/baseline.json --quiet --out "$work/planted.csv"
exit $failures
