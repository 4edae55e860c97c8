#!/usr/bin/env bash
# A/B gate for a change: finds the merge base of this checkout's HEAD and BASE_REV (for a pull
# request, its target branch: what it would merge into, not whatever that branch holds now),
# builds it in a git worktree, then benches its calldir-extension (A) against this checkout's (B)
# in one run, interleaved ABBA on the same data, and fails when this build is slower beyond
# noise or does more work. When $GITHUB_STEP_SUMMARY is set (GitHub Actions, forks included: it
# needs no token), the run's Markdown summary is appended to it.
#
# usage: Scripts/ab-gate.sh BASE_REV [calldir bench ab flags...]
#   BASE_REV: a branch (origin/main) or a commit; its merge base with HEAD is measured
#   default flags: --profile ci-smoke --strategies mmap,buffered --repeat 10
# Exit status: 0 no regression; 2 a regression (one line each); 1 usage, build or git error.
set -euo pipefail
cd "$(dirname "$0")/.."

if (($# < 1)); then
  echo "usage: Scripts/ab-gate.sh BASE_REV [calldir bench ab flags...]" >&2
  exit 1
fi
base=$1
if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
  echo "ab-gate.sh: '$base' is not a commit of this repository" >&2
  exit 1
fi
base=$(git merge-base HEAD "$base") || {
  echo "ab-gate.sh: HEAD and '$1' have no merge base" >&2
  exit 1
}
worktree=.build/ab-base
git worktree remove --force "$worktree" 2>/dev/null || rm -rf "$worktree"
git worktree add --detach --quiet "$worktree" "$base"
trap 'git worktree remove --force "$worktree" 2>/dev/null || true' EXIT

shift
echo "building A (the merge base, $(git rev-parse --short "$base")) in $worktree"
swift build -c release --package-path "$worktree" --product calldir-extension
echo "building B (this checkout)"
swift build -c release
flags=("$@")
if ((${#flags[@]} == 0)); then
  flags=(--profile ci-smoke --strategies mmap,buffered --repeat 10)
fi
if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
  flags+=(--summary "$GITHUB_STEP_SUMMARY")
fi
exec swift run -c release calldir bench ab "${flags[@]}" --against "$worktree/.build/release" \
  --gate --out .build/ab-gate.csv
