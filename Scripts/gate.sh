#!/usr/bin/env bash
# The performance gate on a team's own data: what action.yml runs, and what a team runs locally.
# It benches calldir's strategies on DATA and gates the run against a committed baseline, or
# against the same DATA at the pull request's merge base, and writes the verdict-first Markdown
# summary to $GITHUB_STEP_SUMMARY when that is set (forks included: it needs no token).
#
# usage: Scripts/gate.sh [--data PATH] [--baseline FILE | --against-rev REV | --save-baseline FILE]
#                        [--repeat N] [--out DIR] [--calldir BINARY]
#   --data PATH          what to bench (default: the ci-smoke profile):
#                          a base file (calldir compile's bases/NAME.….cdb),
#                          a container folder (calldir compile --out): its largest base, the one
#                            nearest the extension's memory limit and the system's cap,
#                          a profile: a name (ci-smoke, regional-2m, …) or a profile JSON file.
#   --baseline FILE      gate against the figures recorded in FILE (instructions and allocations
#                        per entry, heap peak, footprint), made by --save-baseline and committed.
#   --against-rev REV    gate against DATA as it was at the merge base of HEAD and REV (a pull
#                        request's target branch), read with git from the repository holding DATA:
#                        that version is measured first, in the same run, as the baseline.
#   --save-baseline FILE record this run's figures in FILE (to commit), without gating.
#   --repeat N           runs per strategy (default 5; medians are over these).
#   --out DIR            where the CSV, chart and JSON go (default .calldir/gate).
#   --calldir BINARY     the calldir to run (default: built here with swift build -c release).
# With neither --baseline nor --against-rev, the gate's own checks apply (every strategy
# completes, stays within memory, passes the startup and throughput floors).
# Exit status: 0 passed; 2 the gate failed (one line per failure); 1 usage, build, git or input
# error.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

fail() {
  echo "gate.sh: $*" >&2
  exit 1
}
data=ci-smoke
baseline=''
against=''
save=''
repeat=5
out=.calldir/gate
calldir=''
while (($#)); do
  case $1 in
    --data | --baseline | --against-rev | --save-baseline | --repeat | --out | --calldir)
      (($# >= 2)) || fail "$1 needs a value"
      ;;&
    --data) data=$2 ;;
    --baseline) baseline=$2 ;;
    --against-rev) against=$2 ;;
    --save-baseline) save=$2 ;;
    --repeat) repeat=$2 ;;
    --out) out=$2 ;;
    --calldir) calldir=$2 ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *) fail "unknown argument '$1' (see --help)" ;;
  esac
  shift 2
done
modes=0
for mode in "$baseline" "$against" "$save"; do [[ -n $mode ]] && modes=$((modes + 1)); done
((modes <= 1)) || fail "--baseline, --against-rev and --save-baseline exclude one another"
[[ $repeat =~ ^[1-9][0-9]*$ ]] || fail "--repeat must be a positive whole number, got '$repeat'"
[[ -z $baseline || -f $baseline ]] || fail "the baseline '$baseline' is not a file"

if [[ -z $calldir ]]; then
  echo "building calldir in $here"
  swift build -c release --package-path "$here" --product calldir >&2
  swift build -c release --package-path "$here" --product calldir-extension >&2
  calldir=$here/.build/release/calldir
fi
[[ -x $calldir ]] || fail "'$calldir' is not an executable calldir"

# What --data names, as bench flags. A container's largest base is the one to gate.
data_flags() { # PATH
  local path=$1
  if [[ -d $path ]]; then
    [[ -d $path/bases ]] || fail "'$path' is a folder but not a container (no bases/ in it)"
    local largest
    largest=$(find "$path/bases" -maxdepth 1 -name '*.cdb' -type f -printf '%s %p\n' |
      sort -n | tail -1 | cut -d' ' -f2-)
    [[ -n $largest ]] || fail "the container '$path' holds no base (bases/*.cdb)"
    echo "--base"
    echo "$largest"
  elif [[ -f $path && $path == *.json ]]; then
    echo "--profile"
    echo "$path"
  elif [[ -f $path ]]; then
    echo "--base"
    echo "$path"
  elif [[ $path == */* || $path == *.* ]]; then
    fail "'$path' does not exist"
  else
    echo "--profile"
    echo "$path"
  fi
}
mkdir -p "$out"
mapfile -t flags < <(data_flags "$data")
((${#flags[@]} == 2)) || exit 1
common=(--repeat "$repeat" --strategies mmap,buffered --quiet)
if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
  common+=(--summary "$GITHUB_STEP_SUMMARY")
fi

if [[ -n $against ]]; then
  # DATA as the merge base holds it, under the same file name, so the two runs are one series.
  repository=$(git -C "$(dirname "$data")" rev-parse --show-toplevel 2>/dev/null) ||
    fail "'$data' is not inside a git repository, so --against-rev has nothing to read"
  git -C "$repository" rev-parse --verify --quiet "$against^{commit}" >/dev/null ||
    fail "'$against' is not a commit of $repository (fetch it: actions/checkout's fetch-depth: 0)"
  merge_base=$(git -C "$repository" merge-base HEAD "$against") ||
    fail "HEAD and '$against' have no merge base in $repository"
  relative=$(realpath --relative-to="$repository" "$data")
  old=$out/merge-base
  rm -rf "$old"
  mkdir -p "$old"
  if [[ -d $data ]]; then
    git -C "$repository" archive "$merge_base" "$relative" | tar -x -C "$old" ||
      fail "'$relative' is not in the merge base $merge_base"
  else
    mkdir -p "$old/$(dirname "$relative")"
    git -C "$repository" show "$merge_base:$relative" >"$old/$relative" ||
      fail "'$relative' is not in the merge base $merge_base"
  fi
  mapfile -t old_flags < <(data_flags "$old/$relative")
  ((${#old_flags[@]} == 2)) || exit 1
  # bench records a base without its content hash (BaseSeriesName): the two runs must be one series.
  series() { basename "$1" | sed -E 's/\.[0-9a-f]{16}\.cdb$/.cdb/'; }
  [[ $(series "${old_flags[1]}") == $(series "${flags[1]}") ]] ||
    fail "the largest base is $(series "${flags[1]}") now, $(series "${old_flags[1]}") at the merge base: name one with --data"
  echo "measuring the merge base's ${old_flags[1]##*/} ($(git -C "$repository" rev-parse --short "$merge_base"))"
  "$calldir" bench strategies "${old_flags[@]}" --repeat "$repeat" --strategies mmap,buffered --quiet \
    --out "$out/merge-base.csv" --save-baseline "$out/merge-base-baseline.json"
  baseline=$out/merge-base-baseline.json
fi

echo "measuring ${flags[1]}"
run=("$calldir" bench strategies "${flags[@]}" "${common[@]}" --out "$out/gate.csv"
  --json "$out/gate.json")
if [[ -n $save ]]; then
  exec "${run[@]}" --save-baseline "$save"
elif [[ -n $baseline ]]; then
  exec "${run[@]}" --gate --baseline "$baseline"
else
  exec "${run[@]}" --gate
fi
