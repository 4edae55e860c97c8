#!/usr/bin/env bash
# The Action's build steps (action.yml), kept out of the gate's logic: which calldirs the gate
# runs, and building one. Portable: bash, git, openssl and POSIX tools, as on Linux and macOS
# runners (no find -printf, no realpath --relative-to).
#
# usage: Scripts/gate-calldirs.sh                 prints head-key=, base-source=, base-key= lines
#                                                 (for $GITHUB_OUTPUT)
#        Scripts/gate-calldirs.sh --build SRC DEST builds calldir from SRC, copies its executables
#                                                 into DEST (what actions/cache keeps)
# Environment (the first form): GITHUB_ACTION_PATH (the head's calldir sources),
# CALLDIR_REPOSITORY and CALLDIR_REF (this action's repository and ref, from github.action_*),
# CALLDIR_BASE_REF (auto: read the ref from the base revision's workflows; none: no A/B; else a
# ref), CALLDIR_AGAINST or GITHUB_BASE_REF (the base revision), CALLDIR_SOURCE_URL (where the
# base's calldir is cloned from; default https://github.com/$CALLDIR_REPOSITORY).
# A calldir is keyed by the hash of its sources and the Swift version, not by its ref: a
# branch ref (main) moves, its sources say what is built.
# Exit status: 0 done; 1 a build, clone or checkout failed (one line on stderr).
set -euo pipefail

fail() {
  echo "gate-calldirs.sh: $*" >&2
  exit 1
}
source_key() { # SRC: the sources' hash and the toolchain's version
  local src=$1
  {
    swift --version 2>/dev/null | head -1
    (cd "$src" && find Package.swift Sources -type f -print0 | LC_ALL=C sort -z | xargs -0 cat)
  } | openssl dgst -sha256 | awk '{print $NF}'
}

if [[ ${1:-} == --build ]]; then
  (($# == 3)) || fail "--build takes SRC and DEST"
  src=$2 dest=$3
  # One product: calldir's package lists the measured executables as its dependencies.
  swift build -c release --package-path "$src" --product calldir >&2 ||
    fail "swift build failed in $src"
  bin=$(swift build -c release --package-path "$src" --show-bin-path)
  mkdir -p "$dest"
  for executable in calldir calldir-extension calldir-baselines calldir-patch; do
    cp "$bin/$executable" "$dest/" || fail "the build made no $executable"
  done
  exit 0
fi

head=${GITHUB_ACTION_PATH:?the Action sets GITHUB_ACTION_PATH}
echo "head-key=$(source_key "$head")"

base_ref=${CALLDIR_BASE_REF:-auto}
against=${CALLDIR_AGAINST:-${GITHUB_BASE_REF:+origin/$GITHUB_BASE_REF}}
repository=${CALLDIR_REPOSITORY:-}
if [[ $base_ref == none ]]; then
  echo "calldir A/B: off (base-calldir-ref: none)" >&2
  exit 0
fi
if [[ $base_ref == auto ]]; then
  if [[ -z $against || -z $repository ]]; then
    echo "calldir A/B: no base revision or no action repository to compare with" >&2
    exit 0
  fi
  merge_base=$(git merge-base HEAD "$against" 2>/dev/null) ||
    fail "HEAD and '$against' have no merge base (actions/checkout's fetch-depth: 0)"
  # The ref the base revision's workflows name for this action: `uses: OWNER/NAME@REF`.
  base_ref=$(git grep -h -o -E "uses:[[:space:]]*['\"]?$repository@[^[:space:]'\"#]+" \
    "$merge_base" -- .github/workflows 2>/dev/null | head -1 | sed -E 's/.*@//') || true
  if [[ -z $base_ref ]]; then
    echo "calldir A/B: the base revision's workflows do not use $repository" >&2
    exit 0
  fi
  if [[ $base_ref == "${CALLDIR_REF:-}" ]]; then
    echo "calldir A/B: skipped, calldir did not change ($repository@$base_ref at both)" >&2
    exit 0
  fi
fi
url=${CALLDIR_SOURCE_URL:-https://github.com/$repository}
source=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/calldir-base-source
rm -rf "$source"
git clone --quiet "$url" "$source" >&2 || fail "cannot clone $url"
git -C "$source" checkout --quiet "$base_ref" >&2 || fail "no ref '$base_ref' in $url"
if [[ $(source_key "$source") == $(source_key "$head") ]]; then
  echo "calldir A/B: skipped, $base_ref builds the same sources as the head" >&2
  exit 0
fi
echo "base-source=$source"
echo "base-key=$(source_key "$source")"
