#!/usr/bin/env bash
# Runs the Action's steps (action.yml) by hand, as a team's pull request would run them, on a
# team's own data: a container compiled from a generated dump in a scratch git repository whose
# workflow uses calldir at a ref. Checks that
#   - Scripts/gate-calldirs.sh keys the head's calldir by its sources (the same key twice: a
#     second run restores it and builds nothing) and skips the A/B when the base revision's
#     workflow uses the same ref;
#   - a data pull request (new rows, longer labels) gated against its merge base passes, and the
#     summary opens with the verdict, "calldir" and "data" sections in that order;
#   - a budget missed (a label budget of 1 byte) fails it (exit 2), "❌" first;
#   - a pull request that changes the ref finds the base's calldir sources (base-source) and the
#     A/B runs (here against this build's extension with other bytes: calldir "changed");
#   - usage errors (no such data, a folder that is not a container, a revision that is not
#     there, an unknown setting) exit 1 with one line naming the problem.
# usage: Scripts/gate-self-test.sh [CALLDIR]   (default: .build/release/calldir, built if missing)
# Exit status: 0 every case as expected; 1 otherwise.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
calldir=${1:-$here/.build/release/calldir}
calldir=$(cd "$(dirname "$calldir")" && pwd)/$(basename "$calldir")
if [[ ! -x $calldir ]]; then
  swift build -c release --package-path "$here" --product calldir >&2
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
check() { # DESCRIPTION test...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else
    echo "FAILED: $what" >&2
    failed=1
  fi
}
git() { command git -c user.email=gate@example.com -c user.name=gate -c init.defaultBranch=main "$@"; }
export GITHUB_STEP_SUMMARY=$team/summary.md GITHUB_ACTION_PATH=$here RUNNER_TEMP=$team/runner
export CALLDIR_REPOSITORY=calldir/calldir
mkdir -p "$RUNNER_TEMP"
# The Action's gate step, as action.yml writes it.
gate() { "$calldir" gate --data directory --against-rev main --out "$team/out" --quiet "$@"; }
workflow() { # REF
  mkdir -p .github/workflows
  printf 'jobs:\n  gate:\n    steps:\n      - uses: calldir/calldir@%s\n        with: { data: directory }\n' \
    "$1" >.github/workflows/gate.yml
}

mkdir "$team/repo"
cd "$team/repo"
git init -q
workflow v1
"$calldir" generate --format tsv --entries 100k --seed 11 --out dump.tsv >/dev/null
"$calldir" compile dump.tsv --country RU --out directory >/dev/null 2>&1
git add -A
git commit -qm "the team's directory"

git checkout -qb more-data
python3 - dump.tsv <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
for i in range(1, len(lines), 50):
    f = lines[i].split("\t"); f[1] += " — a longer label"; lines[i] = "\t".join(f)
lines += [l.replace("+7", "+7", 1)[:-1] + "9" for l in lines[1:1000]]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
rm -rf directory
"$calldir" compile dump.tsv --country RU --out directory >/dev/null 2>&1
git add -A
git commit -qm "more numbers, longer labels"

CALLDIR_REF=v1 CALLDIR_AGAINST=main "$here/Scripts/gate-calldirs.sh" >"$team/outputs" 2>"$team/why"
check "the head's calldir is keyed by its sources" grep -q '^head-key=[0-9a-f]\{64\}$' "$team/outputs"
CALLDIR_REF=v1 CALLDIR_AGAINST=main "$here/Scripts/gate-calldirs.sh" >"$team/outputs2" 2>/dev/null
check "the same sources, the same key (a second run restores the cache, builds nothing)" \
  cmp -s "$team/outputs" "$team/outputs2"
check "the same ref at both revisions: no base calldir" \
  bash -c "! grep -q '^base-source=' '$team/outputs' && grep -q 'did not change' '$team/why'"

rm -f "$GITHUB_STEP_SUMMARY"
expect 0 "a data pull request against its merge base" gate --summary "$GITHUB_STEP_SUMMARY"
check "the summary opens with the verdict" grep -q '^## calldir gate — ✅ passed' \
  <(head -1 "$GITHUB_STEP_SUMMARY")
check "calldir's section says the A/B was skipped, then the data's" \
  bash -c "grep -n '^### ' '$GITHUB_STEP_SUMMARY' | tr '\n' ' ' | grep -q 'calldir — ⏭️ A/B skipped.*data — ✅'"

rm -f "$GITHUB_STEP_SUMMARY"
expect 2 "a label budget of 1 byte (planted)" gate --set budgets.label-bytes-per-entry=1 \
  --summary "$GITHUB_STEP_SUMMARY"
check "the summary opens with ❌" grep -q '^## calldir gate — ❌' <(head -1 "$GITHUB_STEP_SUMMARY")

# A pull request that bumps calldir: the base's sources are found (here a clone of this
# repository, standing in for GitHub's), and the A/B runs against a build that differs.
workflow v2
git commit -qam "calldir v2"
if command git -C "$here" rev-parse --git-dir >/dev/null 2>&1; then
  command git -C "$here" tag -f gate-self-test-base HEAD >/dev/null
  CALLDIR_REF=v2 CALLDIR_AGAINST=main CALLDIR_BASE_REF=gate-self-test-base \
    CALLDIR_SOURCE_URL=$here "$here/Scripts/gate-calldirs.sh" >"$team/outputs" 2>"$team/why" || true
  command git -C "$here" tag -d gate-self-test-base >/dev/null
  # The tag is this very commit: on a clean tree its sources are the head's (no A/B needed);
  # with uncommitted changes they differ, and the checkout is handed on to be built.
  check "a changed ref is found and checked out (or seen to build the same sources)" \
    bash -c "grep -q 'same sources' '$team/why' || { source=\$(sed -n 's/^base-source=//p' '$team/outputs'); [[ -f \$source/Package.swift ]] && grep -q '^base-key=' '$team/outputs'; }"
fi
mkdir -p "$team/base-build"
cp "$(dirname "$calldir")/calldir-extension" "$team/base-build/"
printf '\0' >>"$team/base-build/calldir-extension" # other bytes: calldir "changed"
expect 0 "a calldir change runs the A/B (same code, other bytes)" gate --base-calldir "$team/base-build"
check "the A/B's table is in the report" grep -q '^| mmap | ' "$team/out/gate.md"

expect 1 "data that does not exist" "$calldir" gate --data missing --out "$team/out"
mkdir -p empty-folder
expect 1 "a folder that is not a container" "$calldir" gate --data empty-folder --out "$team/out"
expect 1 "a revision that is not there" gate --against-rev no-such-branch
expect 1 "an unknown setting" gate --set budgets.nothing=1
exit $failed
