#!/usr/bin/env bash
# Measures this machine's run-to-run noise as a CI history sees it: runs
# `calldir bench --profile ci-smoke` N times on one build and writes each run's per-strategy
# medians and fastest repeat (load time, footprint, instructions per entry) as one CSV. ChangePointTests resample
# it into A/A histories and planted steps; Results/history-aa-ci-smoke.csv is its output.
#
# usage: Scripts/history-noise.sh N OUT.csv [calldir]
# Exit status: 0 written; 1 usage error or a bench run failed.
set -euo pipefail
if (($# < 2)); then
  echo "usage: Scripts/history-noise.sh N OUT.csv [calldir]" >&2
  exit 1
fi
count=$1
out=$2
calldir=${3:-$(cd "$(dirname "$0")/.." && pwd)/.build/release/calldir}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for run in $(seq 1 "$count"); do
  echo "run $run of $count" >&2
  (cd "$scratch" && "$calldir" bench --profile ci-smoke --allocator jemalloc --quiet \
    --out "$scratch/run-$run.csv" >/dev/null)
done
python3 - "$scratch" "$count" "$out" <<'PY'
import csv, statistics, sys
scratch, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(out, "w", newline="") as handle:
    writer = csv.writer(handle, lineterminator="\n")
    writer.writerow(["run", "strategy", "load_s", "load_min_s", "footprint_bytes", "instructions_per_entry"])
    for run in range(1, count + 1):
        rows = [r for r in csv.DictReader(open(f"{scratch}/run-{run}.csv")) if r["run"] == "load"]
        for strategy in dict.fromkeys(r["strategy"] for r in rows):
            mine = [r for r in rows if r["strategy"] == strategy and r["status"] == "ok"]
            load = statistics.median(float(r["load_s"]) for r in mine)
            fastest = min(float(r["load_s"]) for r in mine)
            footprint = statistics.median(float(r["footprint_peak_bytes"]) for r in mine)
            counts = [r["instructions_per_entry"] for r in mine if r["instructions_per_entry"]]
            writer.writerow([run, strategy, f"{load:.6f}", f"{fastest:.6f}", int(footprint), counts[0] if counts else ""])
PY
echo "wrote $out" >&2
