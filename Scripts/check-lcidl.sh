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
# Without --skip-bad-icons the file that is not HEIC fails the export, and nothing is written.
status=0
"$calldir" export lcidl --container "$work/box" --out "$work/out" --bundle-id net.example.lookup \
  --icons "$work/icons" >/dev/null 2>"$work/refused.txt" || status=$?
check "a refused icon fails the export (exit 1) and writes nothing" \
  test "$status" = 1 -a ! -e "$work/out/block.binpb"
"$calldir" export lcidl --container "$work/box" --out "$work/out" --bundle-id net.example.lookup \
  --icons "$work/icons" --skip-bad-icons --cache-expiry-minutes 60 >"$work/report.txt" \
  2>"$work/stderr.txt"
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
# The configurations against PIRProcessDatabase's own constraints (swift-homomorphic-encryption:
# PIRProcessDatabase/main.swift, HashBucket.swift), checked here in Python, not by calldir's
# code: for icons of 1 KB, 8 KB and the largest accepted (just under 63 KiB), the bucket holds the largest value written plus 11
# bytes, the members are ones the processor reads, SHARD_ID is in the output names, the
# sharding function is sha256 or doubleMod of the other use case's count (which the smaller
# count divides), and a fixed bucket count leaves every shard under a 0.9 load factor, in bytes
# and in slots (255 entries a bucket).
for size in 1024 8192 63487; do  # 63487: CallIdentity.maximumIconByteCount
  icons=$work/icons-$size
  mkdir -p "$icons"
  { printf '\000\000\000\030ftypheic\000\000\000\000mif1heic'; head -c $((size - 24)) /dev/zero; } \
    >"$icons/+$first.heic"
  "$calldir" export lcidl --container "$work/box" --out "$work/out-$size" \
    --bundle-id net.example.lookup --icons "$icons" >"$work/report-$size.txt" 2>&1
  check "an icon of $size bytes: the configurations meet PIRProcessDatabase's constraints" \
    python3 - "$work/out-$size" <<'PY'
import json, math, sys
folder = sys.argv[1]
def varint(data, at):
    value = shift = 0
    while True:
        byte = data[at]; at += 1
        value |= (byte & 0x7f) << shift; shift += 7
        if byte < 0x80: return value, at
def values(path):  # KeywordDatabase { repeated Row rows = 1 }, Row { bytes keyword = 1; bytes value = 2 }
    data = open(path, "rb").read(); at = 0
    while at < len(data):
        at += 1; length, at = varint(data, at); end = at + length; value = b""
        while at < end:
            key = data[at]; at += 1; size, at = varint(data, at)
            if key >> 3 == 2: value = data[at:at + size]
            at += size
        yield len(value)
known = {"inputDatabase", "outputDatabase", "outputPirParameters", "rlweParameters", "databaseType",
         "outputEvaluationKeyConfig", "sharding", "shardingFunction", "cuckooTableArguments", "algorithm",
         "keyCompression", "useMaxSerializedBucketSize", "symmetricPirArguments", "trialsPerShard",
         "encodingEntrySize", "unevenDimensions"}
configs = {stem: json.load(open(f"{folder}/{stem}-config.json")) for stem in ("block", "identity")}
shards = {stem: c["sharding"]["shardCount"] for stem, c in configs.items()}
ok = True
for stem, config in configs.items():
    sizes = list(values(f"{folder}/{stem}.binpb"))
    largest, rows = max(sizes), len(sizes)
    cuckoo = config["cuckooTableArguments"]
    bucket = cuckoo["maxSerializedBucketSize"]
    other = shards["identity" if stem == "block" else "block"]
    fixed = cuckoo["bucketCount"]["fixedSize"]["bucketCount"]
    count = shards[stem]
    mean = rows / count
    largest_shard = mean + (4 * math.sqrt(mean) if count > 1 else 0)
    load = (fixed + largest_shard * (10 + sum(sizes) / rows)) / (fixed * bucket)
    checks = {
        "members": set(config) <= known,
        "databaseType": config["databaseType"] == "keyword",
        "SHARD_ID": count == 1 or all("SHARD_ID" in config[k] for k in ("outputDatabase", "outputPirParameters")),
        f"bucket {bucket} >= largest {largest} + 11": bucket >= largest + 11,
        "sharding function": config.get("shardingFunction", {"doubleMod": other}) == {"doubleMod": other}
                             or config.get("shardingFunction") is None,
        "counts divide": max(shards.values()) % min(shards.values()) == 0,
        f"load {load:.2f} <= 0.9": load <= 0.9,
        # A bucket's slot count is one byte (HashBucket.maxSlotCount): 255 entries at most.
        f"slots for {largest_shard:.0f} entries in {fixed} buckets": largest_shard <= 0.9 * 255 * fixed,
    }
    for name, passed in checks.items():
        if not passed: print(f"{stem}-config.json: {name} fails", file=sys.stderr); ok = False
    print(f"  {stem}: {rows} rows, largest value {largest} B, {count} shards x {fixed} buckets of {bucket} B, "
          f"function {config.get('shardingFunction', 'sha256')}, projected load {load:.2f}")
sys.exit(0 if ok else 1)
PY
done
echo "decoded sample:"
head -12 "$work/identity.txt"
exit $failed
