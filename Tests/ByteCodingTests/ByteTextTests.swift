import ByteCoding
import Testing

@Suite("Text as bytes: UTF-8 checks, trimming, the byte-string table")
struct ByteTextTests {
  /// Byte sequences with `String(validating:)`'s answer as the reference.
  static let samples: [[UInt8]] = [
    [], Array("plain ascii".utf8), Array("Химчистка «Мир»".utf8), Array("日本語 🇯🇵".utf8),
    [0xC0, 0x80],  // overlong NUL
    [0xED, 0xA0, 0x80],  // a surrogate
    [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
    [0xE2, 0x82],  // cut short
    [0x80],  // a lone continuation
    Array("ok".utf8) + [0xFF],
  ]

  @Test(arguments: samples)
  func validityMatchesTheStandardLibrary(_ bytes: [UInt8]) {
    let expected = String(validating: bytes, as: UTF8.self) != nil
    #expect(bytes.withUnsafeBytes { UTF8Validation.isValid(ByteView($0)) } == expected)
  }

  /// Every pair of bytes, alone and after text in each path of the check (ASCII, two-byte
  /// characters, three-byte ones), and before a trailing byte: the two-byte shortcut and the
  /// general check agree with the standard library on all of them.
  @Test func everyBytePairMatchesTheStandardLibrary() {
    var mismatches: [[UInt8]] = []
    for prefix in [[], Array("ab".utf8), Array("Жё".utf8), Array("語".utf8)] as [[UInt8]] {
      for first in 0...255 {
        for second in 0...255 {
          for suffix in [[], [0x80], [0x41]] as [[UInt8]] {
            let bytes = prefix + [UInt8(first), UInt8(second)] + suffix
            let expected = String(validating: bytes, as: UTF8.self) != nil
            if bytes.withUnsafeBytes({ UTF8Validation.isValid(ByteView($0)) }) != expected {
              mismatches.append(bytes)
            }
          }
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }

  @Test(arguments: [
    "  Вкусвилл\t", "\u{A0}\u{2009}label\u{3000}", "   ", "", "no trim", "\u{202F}x\u{205F}",
    "tab\tinside", "\u{1680}ogham", "ends in é", "\u{200B}zero width is not Zs",
  ])
  func trimmingMatchesTheStringTrimming(_ text: String) {
    let expected = Self.trimmedByScalars(text)
    let trimmed = Array(text.utf8).withUnsafeBytes {
      String(decoding: UTF8Validation.trimmingWhitespace(ByteView($0)), as: UTF8.self)
    }
    #expect(trimmed == expected)
  }

  /// The definition, scalar by scalar: tab and the Zs characters.
  static func trimmedByScalars(_ text: String) -> String {
    let space: (Unicode.Scalar) -> Bool = {
      $0 == "\t" || $0.properties.generalCategory == .spaceSeparator
    }
    var scalars = Array(text.unicodeScalars)
    while let first = scalars.first, space(first) { scalars.removeFirst() }
    while let last = scalars.last, space(last) { scalars.removeLast() }
    var result = ""
    result.unicodeScalars.append(contentsOf: scalars)
    return result
  }

  @Test func theTableFindsWhatWasInsertedAndNothingElseThroughGrowthAndRemoval() {
    let table = ByteStringTable(capacity: 4)
    var reference: [String: Int] = [:]
    for index in 0..<5_000 {
      let key = "метка \(index % 3_000)"
      let entry = Array(key.utf8).withUnsafeBytes { table.find(ByteView($0)) }
      if let entry {
        table[entry] += 1
      } else {
        _ = Array(key.utf8).withUnsafeBytes { table.insert(ByteView($0), value: 1) }
      }
      reference[key, default: 0] += 1
    }
    #expect(table.count == reference.count)
    for (key, count) in reference {
      let entry = Array(key.utf8).withUnsafeBytes { table.find(ByteView($0)) }
      #expect(entry.map { table[$0] } == count, "\(key)")
    }
    #expect(Array("absent".utf8).withUnsafeBytes { table.find(ByteView($0)) } == nil)
    #expect([UInt8]().withUnsafeBytes { table.find(ByteView($0)) } == nil)

    table.removeAll { $0 < 2 }
    var kept: [String: Int] = [:]
    table.forEachKey { key, value in kept[String(decoding: key, as: UTF8.self)] = value }
    #expect(kept == reference.filter { $0.value >= 2 })
    for (key, count) in reference where count < 2 {
      #expect(Array(key.utf8).withUnsafeBytes { table.find(ByteView($0)) } == nil)
    }
  }

  @Test func keysThatShareAHashPrefixOrDifferOnlyInTheTailAreDistinct() {
    let table = ByteStringTable()
    let keys = ["", "a", "ab", "abcdefgh", "abcdefgh\u{0}", "abcdefghi", "abcdefgj", "abcdefgh1"]
    for (index, key) in keys.enumerated() {
      _ = Array(key.utf8).withUnsafeBytes { table.insert(ByteView($0), value: index) }
    }
    for (index, key) in keys.enumerated() {
      #expect(
        Array(key.utf8).withUnsafeBytes { table.find(ByteView($0)) }.map { table[$0] } == index)
    }
  }
}
