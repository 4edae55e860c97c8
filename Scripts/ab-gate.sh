#!/usr/bin/env bash
# A/B gate for a change: builds BASE_REV (for a pull request, the merge base) in a git worktree,
# then benches its calldir-extension (A) against this checkout's (B) in one run, interleaved
# ABBA on the same data, and fails when this build is slower beyond noise or does more work.
#
# usage: Scripts/ab-gate.sh BASE_REV [calldir bench flags...]
#   default flags: --profile ci-smoke --strategies mmap,buffered --repeat 10
# Exit status: 0 no regression; 2 a regression (one line each); 1 usage, build or git error.
set -euo pipefail
cd "$(dirname "$0")/.."

if (($# < 1)); then
  echo "usage: Scripts/ab-gate.sh BASE_REV [calldir bench flags...]" >&2
  exit 1
fi
base=$1
shift
if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
  echo "ab-gate.sh: '$base' is not a commit of this repository" >&2
  exit 1
fi
worktree=.build/ab-base
git worktree remove --force "$worktree" 2>/dev/null || rm -rf "$worktree"
git worktree add --detach --quiet "$worktree" "$base"
trap 'git worktree remove --force "$worktree" 2>/dev/null || true' EXIT

echo "building A ($(git rev-parse --short "$base")) in $worktree"
swift build -c release --package-path "$worktree" --product calldir-extension
echo "building B (this checkout)"
swift build -c release
flags=("$@")
if ((${#flags[@]} == 0)); then
  flags=(--profile ci-smoke --strategies mmap,buffered --repeat 10)
fi
exec swift run -c release calldir bench "${flags[@]}" --against "$worktree/.build/release" \
  --gate --out .build/ab-gate.csv
