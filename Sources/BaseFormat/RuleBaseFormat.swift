import ByteCoding

/// A rule base (``BaseHeader/rulesVersion``): the numbers of a national plan or a spoof rule
/// written as sorted, disjoint, inclusive ranges, expanded by its reader one number at a time.
/// France's twelve telemarketing prefixes (12 M numbers) are twelve records, under 1 KiB in all
/// (issue 54).
///
/// The 64-byte ``BaseHeader`` is a base's, with these fields read differently:
///
/// | field | in a rule base |
/// | --- | --- |
/// | version | 4 |
/// | block count | the number of ranges (≤ ``maximumRangeCount``) |
/// | entry count | the numbers the ranges hold in all |
/// | payload byte count | ranges × ``recordByteCount`` |
/// | blocks' checksum | ``StreamChecksum`` of the payload's bytes |
///
/// Each range is a record of ``recordByteCount`` bytes, little-endian:
///
/// | offset | size | field |
/// | --- | --- | --- |
/// | 0 | 8 | first number |
/// | 8 | 8 | last number (≥ first) |
/// | 16 | 4 | label: 0 none (blocking), n the dictionary's label n − 1 |
/// | 20 | 4 | the rule it came from: 0 none, n the dictionary's string n − 1 |
///
/// A range's first number lies above the previous range's last. The label dictionary of a
/// compact base follows the payload (``LabelDictionary``), holding both the labels and the
/// rules' own text (`+33 1 62 ## ## ##, telemarketing`), so a lookup can say which rule gave a
/// number. A reader holds one range and one buffer of records: its memory does not depend on
/// how many numbers the ranges hold.
package enum RuleBaseFormat {
  /// Bytes of one range's record.
  package static let recordByteCount = 24
  /// The most ranges a rule base may hold (24 MiB of records): patterns with `#` in the middle
  /// make a range per value of the digits before the last `#` run, and a file past this many is
  /// a list, which a base holds better.
  package static let maximumRangeCount = 1 << 20
  /// The highest number a range may reach: 15 digits, E.164's longest number.
  package static let highestNumber: Int64 = 999_999_999_999_999
}

extension BaseHeader {
  /// The rest of ``decode(_:path:)`` for a rule base, once the magic, version and checksum
  /// passed: its counts are checked against each other, with arithmetic that cannot overflow.
  static func decodeRules(_ raw: ByteView, path: String) throws(BaseFormatError) -> BaseHeader {
    func fail(_ offset: Int, _ why: String) -> BaseFormatError {
      BaseFormatError(path: path, offset: offset, problem: .inconsistentHeader(why))
    }
    guard let kind = BaseKind(rawValue: raw[10]) else {
      throw BaseFormatError(path: path, offset: 10, problem: .unknownKind(raw[10]))
    }
    let ranges = UInt64(raw.loadLittleEndian(UInt32.self, at: 12))
    let count = raw.loadLittleEndian(UInt64.self, at: 16)
    let lowest = raw.loadLittleEndian(Int64.self, at: 24)
    let highest = raw.loadLittleEndian(Int64.self, at: 32)
    let payload = raw.loadLittleEndian(UInt64.self, at: 40)
    guard ranges <= UInt64(RuleBaseFormat.maximumRangeCount) else {
      throw fail(12, "\(ranges) ranges is past the format's \(RuleBaseFormat.maximumRangeCount)")
    }
    guard payload == ranges * UInt64(RuleBaseFormat.recordByteCount) else {
      throw fail(40, "\(ranges) ranges cannot fill \(payload) payload bytes")
    }
    guard (count == 0) == (ranges == 0), count >= ranges else {
      throw fail(16, "\(ranges) ranges cannot hold \(count) numbers")
    }
    if count == 0 {
      guard lowest == 0, highest == 0 else {
        throw fail(24, "an empty base has a number range")
      }
    } else {
      guard lowest > 0, lowest <= highest, highest <= RuleBaseFormat.highestNumber,
        UInt64(highest - lowest) >= count - 1
      else {
        throw fail(24, "range \(lowest)...\(highest) cannot hold \(count) numbers")
      }
    }
    var header = BaseHeader(
      kind: kind, entryCount: Int(count), lowestNumber: lowest, highestNumber: highest,
      blockCount: Int(ranges), payloadByteCount: Int(payload),
      blockChecksumsChecksum: raw.loadLittleEndian(UInt64.self, at: 48))
    header.version = rulesVersion
    return header
  }
}

/// One range of a rule base, as its reader hands it to inspection and lookups.
package struct NumberRange: Equatable, Sendable {
  /// The range's first number.
  package var first: Int64
  /// The range's last number (inclusive).
  package var last: Int64
  /// The label its numbers are shown with; empty for blocking.
  package var label: String
  /// The rule it came from, as written (`+33 1 62 ## ## ##`), with its category; may be empty.
  package var rule: String

  /// Creates a range.
  package init(first: Int64, last: Int64, label: String = "", rule: String = "") {
    self.first = first
    self.last = last
    self.label = label
    self.rule = rule
  }

  /// How many numbers it holds.
  package var count: Int { Int(last - first) + 1 }
}
