import Testing

@testable import BaseFormat

/// Each form of ``LabelString`` makes the same `String` a validating initializer makes: equal,
/// hashing alike, and counting alike in every view. The compatible form calls the standard
/// library's entry point for known UTF-8 by its symbol (issue 26, item 2), so this also pins
/// that the symbol is there and behaves as that initializer on this toolchain.
@Suite("Every label form makes the string a validating initializer makes")
struct LabelStringTests {
  /// ASCII and not, inline (≤ 15 bytes) and on the heap, 2-, 3- and 4-byte sequences, and a
  /// combining mark (one Character of two scalars).
  static let labels = [
    "a", "Taxi", "ASCII only, but longer than 15", "Аптека",
    "Пекарня Ситилинк, филиал на ул. Пушкина, 38",
    "出租车公司", "Ресторан 🍕 «Пицца»", "e\u{301}cole", String(repeating: "ж", count: 512),
  ]

  @Test(arguments: LabelString.Form.allCases)
  func everyFormMakesTheSameString(form: LabelString.Form) {
    for text in Self.labels {
      let bytes = Array(text.utf8)
      let made = bytes.withUnsafeBufferPointer { LabelString.make($0, form: form) }
      let reference = String(decoding: bytes, as: UTF8.self)
      #expect(made == reference, "\(form): \(text)")
      #expect(Array(made.utf8) == bytes)
      #expect(made.utf16.count == reference.utf16.count, "\(form): \(text)")
      #expect(made.unicodeScalars.count == reference.unicodeScalars.count)
      #expect(made.count == reference.count, "\(form): \(text)")
      #expect(made.hashValue == reference.hashValue)
      #expect(Set([made, reference]).count == 1)
    }
  }

  @Test func theFormCanBeForcedOnlyToTheNamedOnes() {
    #expect(LabelString.Form(rawValue: "compatible") == .compatible)
    #expect(LabelString.Form(rawValue: "validating") == .validating)
    #expect(LabelString.Form(rawValue: "Compatible") == nil)
    #expect(LabelString.Form.allCases.count == 3)
  }
}
