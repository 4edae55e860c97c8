#!/usr/bin/env bash
# Runs Scripts/gate.sh (what action.yml calls) as a team would, on a team's own data: a container
# compiled from a generated dump in a scratch git repository. Checks that
#   - a baseline saved from the container gates the same container: passed (exit 0), and the
#     step summary opens with the verdict;
#   - a baseline whose instructions per entry are 10% lower (a planted regression) fails it
#     (exit 2), and the summary says so first;
#   - a pull request branch with changed data, gated against its merge base: passed;
#   - usage errors (no such data, a folder that is not a container, a bad --repeat, a revision
#     that is not there) exit 1 with a line naming the problem.
# usage: Scripts/gate-self-test.sh [CALLDIR]   (default: .build/release/calldir, built if missing)
# Exit status: 0 every case as expected; 1 otherwise.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
calldir=$(realpath -m "${1:-$here/.build/release/calldir}")
if [[ ! -x $calldir ]]; then
  swift build -c release --package-path "$here" --product calldir >&2
  swift build -c release --package-path "$here" --product calldir-extension >&2
fi
team=$(mktemp -d)
trap 'rm -rf "$team"' EXIT
failed=0
expect() { # STATUS DESCRIPTION command...
  local want=$1 what=$2 status=0
  shift 2
  "$@" >"$team/out.log" 2>&1 || status=$?
  if ((status == want)); then echo "ok: $what (exit $status)"; else
    echo "FAILED: $what: exit $status, expected $want" >&2
    tail -5 "$team/out.log" >&2
    failed=1
  fi
}
summary_opens_with() { # TEXT
  if [[ $(head -1 "$GITHUB_STEP_SUMMARY") == *"$1"* ]]; then echo "ok: the summary opens with '$1'"
  else
    echo "FAILED: the summary opens with '$(head -1 "$GITHUB_STEP_SUMMARY")', not '$1'" >&2
    failed=1
  fi
}
git() { command git -c user.email=gate@example.com -c user.name=gate -c init.defaultBranch=main "$@"; }
gate=("$here/Scripts/gate.sh" --calldir "$calldir" --repeat 3 --out "$team/repo/.calldir/gate")
export GITHUB_STEP_SUMMARY=$team/summary.md

mkdir "$team/repo"
cd "$team/repo"
git init -q
"$calldir" generate --format tsv --entries 200k --seed 11 --out dump.tsv >/dev/null
"$calldir" compile dump.tsv --country RU --out directory >/dev/null 2>&1
expect 0 "a baseline saved from the team's container" "${gate[@]}" --data directory \
  --save-baseline calldir-baseline.json
git add dump.tsv directory calldir-baseline.json
git commit -qm "the team's directory and its baseline"

rm -f "$GITHUB_STEP_SUMMARY"
expect 0 "the container against its committed baseline" "${gate[@]}" --data directory \
  --baseline calldir-baseline.json
summary_opens_with "passed"

python3 - calldir-baseline.json "$team/lowered.json" <<'PY'
import json, sys
baseline = json.load(open(sys.argv[1]))
for strategies in baseline["profiles"].values():
    for figures in strategies.values():
        figures["instructions_per_entry"] *= 0.9
json.dump(baseline, open(sys.argv[2], "w"))
PY
rm -f "$GITHUB_STEP_SUMMARY"
expect 2 "a baseline 10% lower in instructions per entry (planted)" "${gate[@]}" \
  --data directory --baseline "$team/lowered.json"
summary_opens_with "❌"

git checkout -qb more-data
"$calldir" generate --format tsv --entries 220k --seed 12 --out dump.tsv >/dev/null
rm -rf directory
"$calldir" compile dump.tsv --country RU --out directory >/dev/null 2>&1
git add -A
git commit -qm "more numbers"
rm -f "$GITHUB_STEP_SUMMARY"
expect 0 "a branch with changed data against its merge base" "${gate[@]}" --data directory \
  --against-rev main
summary_opens_with "passed"

expect 1 "data that does not exist" "${gate[@]}" --data missing/bases.cdb
mkdir -p empty-folder
expect 1 "a folder that is not a container" "${gate[@]}" --data empty-folder
expect 1 "--repeat 0" "${gate[@]}" --data directory --repeat 0
expect 1 "a revision that is not there" "${gate[@]}" --data directory --against-rev no-such-branch
expect 1 "two modes at once" "${gate[@]}" --data directory --baseline calldir-baseline.json \
  --against-rev main
exit $failed
