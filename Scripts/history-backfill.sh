#!/usr/bin/env bash
# Fills a CI history from this repository's past: builds each of the last COUNT commits of
# HEAD's first-parent line (oldest first, one at a time, in one git worktree), runs the ci-smoke
# bench on it, and records it with this checkout's calldir (`calldir history add`); then writes
# the report. A commit that does not build or whose bench fails is skipped, with a line.
#
# usage: Scripts/history-backfill.sh COUNT DB [REPORT.html]
# Exit status: 0 done; 1 usage error, or this checkout's calldir is not built.
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# < 2)); then
  echo "usage: Scripts/history-backfill.sh COUNT DB [REPORT.html]" >&2
  exit 1
fi
count=$1
db=$(realpath -m "$2")
report=${3:+$(realpath -m "$3")}
calldir=$PWD/.build/release/calldir
[[ -x $calldir ]] || {
  echo "history-backfill.sh: build this checkout first (swift build -c release)" >&2
  exit 1
}
worktree=$PWD/.build/history-tree
results=$PWD/.build/history-results
mkdir -p "$results"
mapfile -t commits < <(git rev-list --first-parent -n "$count" HEAD | tac)
git worktree remove --force "$worktree" 2>/dev/null || rm -rf "$worktree"
git worktree add --detach --quiet "$worktree" "${commits[0]}"
trap 'git worktree remove --force "$worktree" 2>/dev/null || true' EXIT
number=0
for sha in "${commits[@]}"; do
  number=$((number + 1))
  short=$(git rev-parse --short "$sha")
  echo "[$number/${#commits[@]}] $short $(git log -1 --format=%s "$sha" | cut -c1-70)" >&2
  git -C "$worktree" checkout --quiet --detach "$sha"
  if ! swift build -c release --package-path "$worktree" --product calldir \
    >"$results/$sha.build.log" 2>&1; then
    echo "  $short does not build: skipped (see $results/$sha.build.log)" >&2
    continue
  fi
  if ! (cd "$worktree" && .build/release/calldir bench --profile ci-smoke --allocator jemalloc \
    --quiet --out "$results/$sha.csv" >"$results/$sha.bench.log" 2>&1); then
    echo "  $short: its bench failed: skipped (see $results/$sha.bench.log)" >&2
    continue
  fi
  "$calldir" history add "$results/$sha.csv" --commit "$sha" \
    --parent "$(git rev-parse "$sha^" 2>/dev/null || true)" --branch main \
    --subject "$(git log -1 --format=%s "$sha")" --db "$db" >&2
done
if [[ -n $report ]]; then
  "$calldir" history report --db "$db" --out "$report"
fi
"$calldir" history changes --db "$db"
