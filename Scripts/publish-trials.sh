#!/usr/bin/env bash
# Concurrent publishes into one release folder (issue 65, item 7): TRIALS trials, each two
# `calldir publish` runs of different containers started at once, the second after a random
# offset of 0 to 200 ms. A trial is broken when a run fails or the final index names a file
# that is not in the folder. Prints one Markdown row; exit 0 when no trial broke.
#
# usage: Scripts/publish-trials.sh CALLDIR [TRIALS]     (default 50)
set -euo pipefail
calldir=$1
trials=${2:-50}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for index in 0 1 2; do
  "$calldir" generate --profile ci-smoke --entries $((20000 + 2000 * index)) --format tsv \
    --out "$work/d$index.tsv" >/dev/null
  "$calldir" compile "$work/d$index.tsv" --out "$work/box$index" --quiet >/dev/null
done
broken=0
failed_runs=0
for trial in $(seq 1 "$trials"); do
  releases=$work/R$trial
  "$calldir" publish "$work/box0" --out "$releases" --quiet >/dev/null
  offset=$(printf '0.%03d' $((RANDOM % 200)))
  "$calldir" publish "$work/box1" --out "$releases" --quiet >"$work/a.log" 2>&1 &
  first=$!
  sleep "$offset"
  "$calldir" publish "$work/box2" --out "$releases" --quiet >"$work/b.log" 2>&1 &
  second=$!
  status=0
  wait "$first" || status=1
  wait "$second" || status=1
  missing=$(python3 - "$releases" <<'PY'
import json, os, sys
root = sys.argv[1]
index = json.load(open(os.path.join(root, "index.json")))
files = [b["file"] for v in index["versions"] for b in v["bases"]] + [p["file"] for p in index["patches"]]
print(sum(not os.path.exists(os.path.join(root, f)) for f in files))
PY
)
  if ((status != 0)); then failed_runs=$((failed_runs + 1)); fi
  if ((status != 0 || missing > 0)); then broken=$((broken + 1)); fi
  rm -rf "$releases"
done
echo "| trials | runs failed | broken releases (a file the index names missing, or a run failed) |"
echo "| ---: | ---: | ---: |"
echo "| $trials | $failed_runs | $broken |"
((broken == 0))
