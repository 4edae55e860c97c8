#!/usr/bin/env python3
"""Writes calldir's numbering tables from libphonenumber's metadata (PyPI's `phonenumbers`, the
version pinned below): every region's calling code, international and national prefixes (as
digit automata, see phone_automata.py), possible lengths and the patterns of valid numbers,
compiled ahead of time into minimal DFAs over digits, so nothing parses a regex at run time.

Outputs (committed; CI regenerates them and fails on any difference):
  Sources/PhoneNormalization/Generated/GeneratedNumberingTables.swift   the tables, one base64 blob
  Tests/PhoneNormalizationTests/Vectors/examples.tsv           the metadata's example numbers in
      every written form, with what libphonenumber itself makes of them (expected results)

Usage: pip install phonenumbers==PINNED && Scripts/generate-phone-metadata.py [--check]
--check writes nothing and exits 1 when a committed output differs from what it would write.

It also runs this module's model of calldir's parser (the same steps as PhoneNormalizer.swift)
over the vectors and prints how often it agrees with libphonenumber, so a rule the tables cannot
express shows up here, at generation time."""

import base64
import hashlib
import struct
import sys
from pathlib import Path

import phone_automata as A

PINNED = "9.0.43"
ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "Sources/PhoneNormalization/Generated/GeneratedNumberingTables.swift"
VECTORS = ROOT / "Tests/PhoneNormalizationTests/Vectors/examples.tsv"
MAGIC, VERSION, NONE16 = b"CDNT", 1, 0xFFFF
TYPES = ["fixed_line", "mobile", "toll_free", "premium_rate", "shared_cost", "personal_number",
         "voip", "pager", "uan", "voicemail"]
MIN_NSN, MAX_NSN, MAX_CC = 2, 17, 3

try:
    import phonenumbers
    from phonenumbers import PhoneMetadata, PhoneNumberFormat
except ImportError:
    sys.exit(f"generate-phone-metadata: needs phonenumbers=={PINNED} (pip install phonenumbers=={PINNED})")
if phonenumbers.__version__ != PINNED:
    sys.exit(f"generate-phone-metadata: phonenumbers {phonenumbers.__version__} is installed, the "
             f"tables are pinned to {PINNED} (pip install phonenumbers=={PINNED})")


class Region:
    """One territory's rules (or one non-geographic calling code, id 001)."""

    def __init__(self, metadata, main):
        self.metadata, self.id, self.code, self.main = metadata, metadata.id, metadata.country_code, main
        general = metadata.general_desc
        self.lengths = sorted(l for l in general.possible_length if l > 0)
        self.local_lengths = sorted(general.possible_length_local_only or ())
        self.general = A.pattern_dfa(general.national_number_pattern)
        valid = None
        for name in TYPES:
            desc = getattr(metadata, name)
            if desc is None or desc.national_number_pattern is None:
                continue
            lengths = [l for l in desc.possible_length if l > 0] or self.lengths
            if not lengths:
                continue
            typed = A.intersection(A.pattern_dfa(desc.national_number_pattern), A.lengths_dfa(lengths))
            valid = typed if valid is None else A.union(valid, typed)
        if valid is not None:
            valid = A.intersection(valid, A.intersection(self.general, A.lengths_dfa(self.lengths)))
        self.valid = valid
        self.leading = A.pattern_dfa(metadata.leading_digits) if metadata.leading_digits else None
        self.idd = A.PrefixRule(metadata.international_prefix) if metadata.international_prefix else None
        npfp = metadata.national_prefix_for_parsing
        self.npfp = A.PrefixRule(npfp) if npfp else None
        self.transform = metadata.national_prefix_transform_rule or ""

    def test_length(self, national):
        """libphonenumber's _test_number_length for an unknown type."""
        n = len(national)
        if n in self.local_lengths:
            return "local"
        if not self.lengths or n < self.lengths[0]:
            return "short"
        if n > self.lengths[-1]:
            return "long"
        return "possible" if n in self.lengths else "invalid"


def load_regions():
    regions = []
    for code in sorted(phonenumbers.COUNTRY_CODE_TO_REGION_CODE):
        for index, region_id in enumerate(phonenumbers.COUNTRY_CODE_TO_REGION_CODE[code]):
            metadata = (PhoneMetadata.metadata_for_nongeo_region(code) if region_id == "001"
                        else PhoneMetadata.metadata_for_region(region_id))
            if metadata is not None:
                regions.append(Region(metadata, index == 0))
    return regions


# The model of calldir's parser: the same steps, in the same order, as PhoneNormalizer.swift ------

class Model:
    def __init__(self, regions):
        self.regions = regions
        self.by_id = {r.id: r for r in regions if r.id != "001"}
        self.by_code = {}
        for r in regions:
            self.by_code.setdefault(r.code, []).append(r)

    @staticmethod
    def extract(text):
        digits, plus, started = [], False, False
        for ch in text:
            if "0" <= ch <= "9":
                digits.append(ch)
                started = True
                continue
            if not started:
                if ch == "+":
                    plus = started = True
                elif ch == "(":
                    started = True
                continue
            if ch in " -./()~\u00a0\u2010\u2011\u2012\u2013\u2014\t":
                continue
            break
        return "".join(digits), plus

    def split_code(self, digits):
        if not digits or digits[0] == "0":
            return None
        for n in range(1, min(len(digits), MAX_CC) + 1):
            if int(digits[:n]) in self.by_code:
                return int(digits[:n]), digits[n:]
        return None

    def strip_national_prefix(self, number, region):
        rule = region.npfp
        if not number or rule is None:
            return number
        found = rule.looking_at(number)
        if found is None:
            return number
        end, groups = found
        viable = region.general.fullmatch(number)
        last = groups.get(rule.groups) if rule.groups else None
        if not region.transform or last is None:
            if viable and not region.general.fullmatch(number[end:]):
                return number
            return number[end:]
        transformed = self.expand(region.transform, groups, number) + number[end:]
        if viable and not region.general.fullmatch(transformed):
            return number
        return transformed

    @staticmethod
    def expand(template, groups, number):
        out, i = [], 0
        while i < len(template):
            if template[i] == "\\" and i + 1 < len(template) and template[i + 1].isdigit():
                span = groups.get(int(template[i + 1]))
                out.append(number[span[0]:span[1]] if span else "")
                i += 2
            else:
                out.append(template[i])
                i += 1
        return "".join(out)

    def country_code(self, digits, plus, region):
        """(code, national) when the number names its country, (0, digits) when it does not;
        raises ValueError with the reason."""
        if plus or region is None:
            if len(digits) <= MIN_NSN:
                raise ValueError("too short")
            split = self.split_code(digits)
            if split:
                return split
            if region is None or not plus:
                raise ValueError("unknown calling code")
            code, national = self.country_code(digits, False, region)  # "+0011 …": a spurious plus
            if code == 0:
                raise ValueError("unknown calling code")
            return code, national
        if region.idd is not None:
            found = region.idd.looking_at(digits)
            if found is not None and digits[found[0]:found[0] + 1] != "0":
                rest = digits[found[0]:]
                if len(rest) <= MIN_NSN:
                    raise ValueError("too short")
                split = self.split_code(rest)
                if split:
                    return split
                raise ValueError("unknown calling code")
        code = str(region.code)
        if digits.startswith(code):
            national = self.strip_national_prefix(digits[len(code):], region)
            if ((not region.general.fullmatch(digits) and region.general.fullmatch(national))
                    or region.test_length(digits) == "long"):
                return region.code, national
        return 0, digits

    def normalize(self, text, country, validate):
        """The E.164 digits calldir makes of `text`, or raises ValueError."""
        digits, plus = self.extract(text)
        if not digits:
            raise ValueError("no digits")
        region = self.by_id[country] if country else None
        code, national = self.country_code(digits, plus, region)
        if code == 0:
            code = region.code
        else:
            region = self.by_code[code][0]  # as libphonenumber: the code's main region's rules
        if len(national) < MIN_NSN:
            raise ValueError("too short")
        stripped = self.strip_national_prefix(national, region)
        if region.test_length(stripped) not in ("short", "local", "invalid"):
            national = stripped
        if len(national) > MAX_NSN:
            raise ValueError("too long")
        if validate == "valid":
            if not self.is_valid(code, national):
                raise ValueError("not valid")
        else:
            verdict = self.by_code[code][0].test_length(national)
            if verdict != "possible":
                raise ValueError(verdict)
        return str(code) + national

    def is_valid(self, code, national):
        for r in self.by_code[code]:
            if r.leading is not None:
                if r.leading.match_ends(national, 0):
                    return r.valid is not None and r.valid.fullmatch(national)
            elif r.valid is not None and r.valid.fullmatch(national):
                return True
        return False


# Vectors: the metadata's example numbers in every written form ------------------------------------

def library_result(text, country, validate):
    try:
        number = phonenumbers.parse(text, country)
    except phonenumbers.NumberParseException:
        return "-"
    ok = phonenumbers.is_valid_number(number) if validate == "valid" else (
        phonenumbers.is_possible_number_with_reason(number)
        == phonenumbers.ValidationResult.IS_POSSIBLE)
    return phonenumbers.format_number(number, PhoneNumberFormat.E164)[1:] if ok else "-"


def idd_string(metadata):
    prefix = metadata.preferred_international_prefix or metadata.international_prefix or ""
    prefix = prefix.replace("~", "")
    return prefix if prefix.isdigit() else None


def written_forms(regions):
    """(country or '', written) pairs: each example number as people write it."""
    forms = []
    for r in regions:
        for name in TYPES:
            desc = getattr(r.metadata, name)
            if desc is None or not desc.example_number:
                continue
            if r.id == "001":
                number = phonenumbers.parse(f"+{r.code}{desc.example_number}", None)
                home = None
            else:
                number = phonenumbers.parse(desc.example_number, r.id)
                home = r.id
            international = phonenumbers.format_number(number, PhoneNumberFormat.INTERNATIONAL)
            e164 = phonenumbers.format_number(number, PhoneNumberFormat.E164)
            forms.append(("", e164[1:]))  # CallKit's digits, no country given
            if home:
                forms.append((home, phonenumbers.format_number(number, PhoneNumberFormat.NATIONAL)))
                forms.append((home, international))
                forms.append((home, e164))
                own = idd_string(r.metadata)
                if own:
                    forms.append((home, f"{own} {international[1:]}"))
            for caller in ("US", "RU", "DE"):
                forms.append((caller, phonenumbers.format_out_of_country_calling_number(number, caller)))
    return forms


# Written forms the README and the tests name, read with each country they mention: the
# international forms "whatever the country" (a region's own prefixes and `+`), the trunk `(0)`,
# and impossible numbers, each with libphonenumber's answer.
CASES = [
    ("011 7 495 765 43 21", ["RU", "KZ", "CN", "GB", "US", "CA"]),
    ("0086 10 8765 4321", ["US", "DE", "GB", "CN", "RU"]),
    ("810 86 10 8765 4321", ["CN", "US", "GB", "DE", "RU", "KZ"]),
    ("8 (495) 123-45-67", ["RU", "KZ", "US"]),
    ("+44 (0)20 7946 0958", ["GB", "DE", "US", None]),
    ("+49 (0)30 1234567", ["DE", "GB", None]),
    ("0011 44 20 7946 0958", ["AU", "GB"]),
    ("010 1 415 555 1212", ["JP", "US"]),
    ("00 7 383 123 45 67", ["RU", "DE"]),
    ("86196852102", ["CN", None]),
    ("(115) 555-1212", ["US"]),
    ("0123456789", ["US"]),
    ("12345", ["CN"]),
    ("+999 1234", ["RU", None]),
    ("+999 1234 5678 9012 345", ["RU"]),
    ("011 54 9 11 1234 5678", ["US"]),
    ("011 15 1234 5678", ["AR"]),
    ("0 11 15 1234 5678", ["AR"]),
]


def case_forms():
    return [(country or "", text) for text, countries in CASES for country in countries]


def vectors(regions, model):
    rows, agree, total, differences = [], 0, 0, []
    for country, text in written_forms(regions) + case_forms():
        expected = {}
        for validate in ("possible", "valid"):
            if country:
                expected[validate] = library_result(text, country, validate)
            else:  # no country: digits are read as international, as if written with "+"
                expected[validate] = library_result("+" + text.lstrip("+"), None, validate)
            try:
                ours = model.normalize(text, country or None, validate)
            except ValueError:
                ours = "-"
            total += 1
            if ours == expected[validate]:
                agree += 1
            else:
                differences.append(f"{country or '-'}\t{text}\t{validate}: libphonenumber "
                                   f"{expected[validate]}, calldir {ours}")
        rows.append(f"{country or '-'}\t{text}\t{expected['possible']}\t{expected['valid']}")
    return rows, agree, total, differences


# The tables as bytes ---------------------------------------------------------------------------

class Blob:
    def __init__(self):
        self.dfas, self.dfa_index, self.rules, self.rule_index = [], {}, [], {}

    def dfa(self, dfa):
        if dfa is None:
            return NONE16
        key = (tuple(map(tuple, dfa.rows)), tuple(sorted(dfa.accepting)))
        if key not in self.dfa_index:
            self.dfa_index[key] = len(self.dfas)
            self.dfas.append(dfa)
        return self.dfa_index[key]

    def rule(self, rule):
        if rule is None:
            return NONE16
        encoded = [bytes([len(rule.alternatives), rule.groups])]
        for items in rule.alternatives:
            encoded.append(bytes([len(items)]))
            for kind, group, dfa in items:
                index = NONE16 if kind == "end" else self.dfa(dfa)
                encoded.append(struct.pack("<HB", index, group))
        key = b"".join(encoded)
        if key not in self.rule_index:
            self.rule_index[key] = len(self.rules)
            self.rules.append(key)
        return self.rule_index[key]

    @staticmethod
    def text(value):
        data = value.encode()
        return bytes([len(data)]) + data

    @staticmethod
    def mask(lengths):
        return sum(1 << l for l in lengths)

    @staticmethod
    def transform(rule):
        """`9\\1` → b'9\\x01': a byte under 10 names a capture group."""
        out, i = bytearray(), 0
        while i < len(rule):
            if rule[i] == "\\" and i + 1 < len(rule) and rule[i + 1].isdigit():
                out.append(int(rule[i + 1]))
                i += 2
            else:
                out += rule[i].encode()
                i += 1
        return bytes([len(out)]) + bytes(out)

    def encode_dfa(self, dfa):
        """State count (u16, every DFA here has fewer than 255 states: checked), the accepting
        bitmap, then each state's row as runs of digits with one target: a run count, then per
        run its last digit and its target (255 = none). Runs because most rows send every digit,
        or a range of them, to one state: half the bytes of ten targets per state."""
        count = len(dfa.rows)
        if count >= 255:
            raise SystemExit(f"generate-phone-metadata: a DFA of {count} states needs a wider encoding")
        out = bytearray(struct.pack("<H", count))
        bitmap = bytearray((count + 7) // 8)
        for s in dfa.accepting:
            bitmap[s // 8] |= 1 << (s % 8)
        out += bitmap
        for row in dfa.rows:
            runs = []
            for digit, target in enumerate(row):
                value = 255 if target == A.DEAD else target
                if runs and runs[-1][1] == value:
                    runs[-1][0] = digit
                else:
                    runs.append([digit, value])
            out.append(len(runs))
            for last, value in runs:
                out += bytes([last, value])
        return bytes(out)

    def build(self, regions):
        records = []
        for r in regions:
            records.append(
                self.text(r.id) + struct.pack(
                    "<HBIIHHHHH", r.code, 1 if r.main else 0, self.mask(r.lengths),
                    self.mask(r.local_lengths), self.dfa(r.general), self.dfa(r.valid),
                    self.dfa(r.leading), self.rule(r.idd), self.rule(r.npfp))
                + self.transform(r.transform) + self.text(r.metadata.national_prefix or "")
                + self.text(idd_string(r.metadata) or ""))
        out = bytearray(MAGIC + struct.pack("<HHHH", VERSION, len(records), len(self.dfas), len(self.rules)))
        for record in records:
            out += record
        for dfa in self.dfas:
            out += self.encode_dfa(dfa)
        for rule in self.rules:
            out += rule
        return bytes(out)


def swift_source(blob, region_count, code_count):
    encoded = base64.b64encode(blob).decode()
    lines = [encoded[i:i + 96] for i in range(0, len(encoded), 96)]
    digest = hashlib.sha256(blob).hexdigest()
    body = "\n".join("    " + line for line in lines)  # as swift format indents it
    return f'''// Generated by Scripts/generate-phone-metadata.py from libphonenumber's metadata
// (PyPI phonenumbers {PINNED}). Do not edit: CI regenerates this file and fails on a difference.
// {region_count} regions and non-geographic entities, {code_count} calling codes; {len(blob)} bytes of tables,
// sha256 {digest}.

/// libphonenumber's metadata as calldir's numbering tables (layout: ``NumberingTables``'s
/// reader), base64 so that the source stays text.
enum GeneratedNumberingTables {{
  /// The version of PyPI's `phonenumbers` the tables were generated from.
  static let libphonenumberVersion = "{PINNED}"
  /// The tables' SHA-256, as the generator computed it.
  static let sha256 = "{digest}"
  /// The tables, base64.
  static let base64: StaticString = """
{body}
    """
}}
'''


def main():
    check = "--check" in sys.argv[1:]
    regions = load_regions()
    model = Model(regions)
    rows, agree, total, differences = vectors(regions, model)
    blob = Blob().build(regions)
    codes = len({r.code for r in regions})
    outputs = {
        TABLES: swift_source(blob, len(regions), codes),
        VECTORS: "country\twritten\tpossible\tvalid\n" + "\n".join(rows) + "\n",
    }
    print(f"{len(regions)} regions, {codes} calling codes, {len(blob):,} bytes of tables")
    print(f"model agrees with libphonenumber on {agree:,} of {total:,} results "
          f"({100 * agree / total:.3f}%)")
    for line in differences[:40]:
        print("  differs:", line)
    stale = []
    for path, text in outputs.items():
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(str(path.relative_to(ROOT)))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    if stale:
        sys.exit("generate-phone-metadata: out of date (run Scripts/generate-phone-metadata.py): "
                 + ", ".join(stale))


if __name__ == "__main__":
    main()
