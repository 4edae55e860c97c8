#!/usr/bin/env bash
# Builds the DocC catalogs (swift-docc-plugin, one combined archive) with warnings as errors, so
# a stale symbol link, an undocumented parameter or an article nobody can reach fails the build.
#
# usage: Scripts/build-docs.sh [--self-test] [OUTPUT]   (default OUTPUT: .build/docs)
#   --self-test: first plant a stale symbol link in an article and check the build fails on it.
# Exit status: 0 built without a warning (and, with --self-test, the planted link was caught);
# 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

# The modules whose catalogs and symbols are documented: what an app links, the formats, the
# harness and the command line.
targets=(CallDirectoryApp CallDirectoryCore CallDirectoryLoader CallKitAdapter DirectoryContainer
  BaseFormat ReleaseFormat ReleaseDownload PhoneNormalization SystemChannel BenchMeasuring
  BenchReporting BenchGating calldir)
build() { # OUTPUT
  local flags=()
  for target in "${targets[@]}"; do flags+=(--target "$target"); done
  swift package --disable-sandbox generate-documentation --enable-experimental-combined-documentation \
    "${flags[@]}" --warnings-as-errors --output-path "$1"
}

if [[ ${1:-} == --self-test ]]; then
  shift
  planted=Sources/CallDirectoryApp/CallDirectoryApp.docc/PlantedStaleLink.md
  trap 'rm -f "$planted"' EXIT
  printf '# A planted stale link\n\nSee ``ContainerApp/syncEverything(now:)``.\n' >"$planted"
  if build "$(mktemp -d)" >/tmp/calldir-docs-self-test.log 2>&1; then
    echo "build-docs.sh: a stale symbol link did not fail the documentation build" >&2
    exit 1
  fi
  if ! grep -q "syncEverything(now:)" /tmp/calldir-docs-self-test.log; then
    echo "build-docs.sh: the build failed, but not on the planted link:" >&2
    tail -5 /tmp/calldir-docs-self-test.log >&2
    exit 1
  fi
  rm -f "$planted"
  echo "build-docs.sh self-test: a planted stale symbol link fails the build"
fi
build "${1:-.build/docs}"
