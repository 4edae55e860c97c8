#!/usr/bin/env bash
# Checks calldir export lcidl's output against the schema, not against calldir's own code:
# exports a generated container (and the samples, with an icon and a refused one), then decodes
# both databases with protoc --decode (Debian's protobuf-compiler) against the .proto files in
# Sources/LiveLookupExport/Protos, and checks that every row decodes, the counts are the
# export's, keywords are E.164 and ascend, every identity has a name, and the onboarding test
# identity is there.
# usage: Scripts/check-lcidl.sh [CALLDIR]   (default .build/release/calldir)
# Exit status: 0 every check passed; 1 otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
calldir=$(realpath -m "${1:-$root/.build/release/calldir}")
protos=$root/Sources/LiveLookupExport/Protos
command -v protoc >/dev/null || { echo "check-lcidl.sh: protoc is missing (apt-get install protobuf-compiler)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
check() { # DESCRIPTION CONDITION...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what" >&2; failed=1; fi
}
decode() { # MESSAGE PROTO FILE
  protoc --proto_path="$protos" --decode="$1" "$2" <"$3"
}

"$calldir" generate --profile ci-smoke --entries 20000 --format container --out "$work/box" \
  --cache "$work/cache" >/dev/null
# A tiny HEIC-branded icon for the first identity, and a file that is not HEIC for another.
"$calldir" inspect "$(ls "$work"/box/bases/region-*.cdb | head -1)" --dump >"$work/dump.txt"
first=$(head -1 "$work/dump.txt" | cut -f1)
mkdir "$work/icons"
printf '\000\000\000\030ftypheic\000\000\000\000mif1heic' >"$work/icons/+$first.heic"
printf 'not an image' >"$work/icons/+14085551212.heic"
"$calldir" export lcidl --container "$work/box" --out "$work/out" --bundle-id net.example.lookup \
  --icons "$work/icons" --cache-expiry-minutes 60 >"$work/report.txt" 2>"$work/stderr.txt"
cat "$work/report.txt"
block_rows=$(sed -n 's/^wrote .*: \([0-9]*\) block rows.*/\1/p' "$work/report.txt")
identity_rows=$(sed -n 's/^wrote .*, \([0-9]*\) identities.*/\1/p' "$work/report.txt")

decode apple.swift_homomorphic_encryption.pir.v1.KeywordDatabase pir.proto "$work/out/block.binpb" \
  >"$work/block.txt"
decode calldir.lcidl.IdentityDatabase identity_view.proto "$work/out/identity.binpb" \
  >"$work/identity.txt"
check "block.binpb decodes as a KeywordDatabase of $block_rows rows" \
  test "$(grep -c '^rows {' "$work/block.txt")" = "$block_rows"
check "identity.binpb decodes with a CallIdentity in each of its $identity_rows rows" \
  test "$(grep -c '^    name: ' "$work/identity.txt")" = "$identity_rows"
check "every block value is one byte, 0 or 1" \
  test "$(grep -c '^  value: "\\00[01]"$' "$work/block.txt")" = "$block_rows"
keywords_ascend() { # FILE
  grep '^  keyword: ' "$1" | sed 's/.*"+\([0-9]*\)"/\1/' >"$work/keys"
  sort -n -c -u "$work/keys" && ! grep -qv '^[1-9][0-9]\{0,14\}$' "$work/keys"
}
check "block keywords are E.164 (+ and up to 15 digits) and strictly ascending" \
  keywords_ascend "$work/block.txt"
check "identity keywords are E.164 and strictly ascending" keywords_ascend "$work/identity.txt"
check "the onboarding identity is there, a person" \
  grep -A4 'keyword: "+14085551212"' "$work/identity.txt" -q
check "...named Johnny Appleseed" grep -q 'name: "Johnny Appleseed"' "$work/identity.txt"
check "the HEIC icon is attached, as IMAGE_FORMAT_HEIC" grep -q 'format: IMAGE_FORMAT_HEIC' \
  "$work/identity.txt"
check "the cache expiry is carried" grep -q 'cache_expiry_minutes: 60' "$work/identity.txt"
check "the file that is not HEIC is refused with its name and reason" \
  grep -q 'refused +14085551212.heic: not a HEIC image' "$work/stderr.txt"
check "the configs name the use cases" grep -q '"net.example.lookup.identity"' \
  "$work/out/usecases.json"
check "the configs are keyword databases with a fixed bucket count" \
  grep -q '"fixedSize"' "$work/out/identity-config.json"
echo "decoded sample:"
head -12 "$work/identity.txt"
exit $failed
