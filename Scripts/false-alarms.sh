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
# usage: Scripts/false-alarms.sh [RUNS]     (default 50; on two cores a run of all four gates takes ~2-4 minutes)
# Environment: BUSY (busy loops, default 6), SKIP_PLANTED=1 (A/A only), LOG_DIR (keep each
# gate's per-run log there: a stopped measurement still says how far it got), GATES (the A/A
# loops to run, default "baseline ab two-phase history": a measurement finished in parts).
# Exit status: 0 no false alarm and every planted regression caught; 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-50}
busy=${BUSY:-6}
gates_wanted=" ${GATES:-baseline ab two-phase history} "
wanted() { [[ $gates_wanted == *" $1 "* ]]; }
work=$(mktemp -d)
log_dir=${LOG_DIR:-$work/logs} # one file per gate, a line per run
mkdir -p "$log_dir"
loops=()
gates=()
cleanup() {
  for pid in "${loops[@]}" "${gates[@]}"; do kill "$pid" 2>/dev/null || true; done
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
row() { # gate runs alarms (empty when a run failed: run_gate said why)
  echo "| \`$1\` | $2 | ${3:-a run failed} |"
  if [[ -z $3 ]] || (($3 > 0)); then failures=1; fi
}
# run_gate NAME command... : runs the command RUNS times and writes one line per run to
# $log_dir/NAME ("run N exit S"), so a long measurement that is stopped still says how far it got.
# Exit status 2 is the gate's alarm; any other failure stops that gate's loop.
run_gate() {
  local name=$1 status
  shift
  : >"$log_dir/$name"
  for run in $(seq 1 "$runs"); do
    status=0
    "$@" >"$work/$name.log" 2>&1 || status=$?
    echo "run $run exit $status" >>"$log_dir/$name"
    if ((status == 2)); then
      grep -h "gate" "$work/$name.log" | head -3 >>"$log_dir/$name.alarms"
    elif ((status != 0)); then
      tail -3 "$work/$name.log" >>"$log_dir/$name.alarms"
      return 1
    fi
  done
}
# history changes --gate over an A/A history: each run a commit of its own, same build; the
# gate is asked from the fourth commit on (a change needs a few points on each side).
history_gate() {
  local status
  : >"$log_dir/history"
  for run in $(seq 1 $((runs + 3))); do
    "$calldir" bench --profile ci-smoke --allocator jemalloc --quiet --out "$work/h.csv" >/dev/null
    "$calldir" history add "$work/h.csv" --commit "$(printf '%040x' "$run")" \
      --db "$work/h.sqlite" >/dev/null
    if ((run >= 4)); then
      status=0
      "$calldir" history changes --gate --db "$work/h.sqlite" >"$work/history.log" 2>&1 ||
        status=$?
      echo "run $((run - 3)) exit $status" >>"$log_dir/history"
      if ((status != 0)); then cat "$work/history.log" >>"$log_dir/history.alarms"; fi
    fi
  done
}
alarms_in() { # NAME: the alarms counted so far, or nothing when a run failed otherwise
  if grep -qv ' exit [02]$' "$log_dir/$1"; then return; fi
  grep -c ' exit 2$' "$log_dir/$1" || true
}
runs_in() { wc -l <"$log_dir/$1"; }

# The four gates' loops run side by side, so each gate shares the cores with the busy loops and
# with the other three gates: more load than the busy loops alone, never less.
if wanted baseline; then
  run_gate baseline "$calldir" bench --profile ci-smoke --allocator jemalloc --gate \
    --baseline Results/baseline.json --quiet --out "$work/bench.csv" &
  gates+=($!)
fi
if wanted ab; then
  run_gate ab "$calldir" bench ab --against "$work/same-build" --profile ci-smoke \
    --strategies mmap,buffered --repeat 10 --gate --quiet --out "$work/ab.csv" &
  gates+=($!)
fi
if wanted two-phase; then
  run_gate two-phase "$calldir" bench two-phase --profile ci-smoke --regions 3,300 --repeat 3 \
    --gate --out "$work/two-phase.csv" &
  gates+=($!)
fi
if wanted history; then
  history_gate &
  gates+=($!)
fi
for pid in "${gates[@]}"; do wait "$pid" || true; done

echo "| gate (A/A, $busy busy loops on $(nproc) cores, the A/A loops side by side) | runs | false alarms |"
echo "| --- | --- | --- |"
if wanted baseline; then
  row "bench --gate --baseline Results/baseline.json" "$(runs_in baseline)" "$(alarms_in baseline)"
fi
if wanted ab; then row "bench ab --gate (same build)" "$(runs_in ab)" "$(alarms_in ab)"; fi
if wanted two-phase; then row "bench two-phase --gate" "$(runs_in two-phase)" "$(alarms_in two-phase)"; fi
if wanted history; then
  row "history changes --gate (A/A history)" "$(runs_in history)" "$(alarms_in history)"
fi
cat "$log_dir"/*.alarms 2>/dev/null >&2 || true

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
