import Foundation
import Testing

@testable import LiveLookupExport

/// The hand-written protobuf encoding, byte for byte against the encoding rules (proto3:
/// fields in number order, zero values left out, varints least significant group first).
@Suite("The wire encoding of CallIdentity and keyword rows")
struct WireEncodingTests {
  static let varintCases: [(UInt64, [UInt8])] = [
    (0, [0x00]), (1, [0x01]), (127, [0x7F]), (128, [0x80, 0x01]), (300, [0xAC, 0x02]),
    (16_384, [0x80, 0x80, 0x01]),
  ]

  @Test(arguments: varintCases)
  func varints(value: UInt64, bytes: [UInt8]) {
    var encoded: [UInt8] = []
    ProtobufWire.appendVarint(value, to: &encoded)
    #expect(encoded == bytes)
    #expect(ProtobufWire.varintByteCount(value) == bytes.count)
  }

  @Test func anIdentityIsItsFieldsInOrder() {
    // name "A" (field 1, bytes), cache_expiry_minutes 8 (field 3), category PERSON (field 4).
    let identity = CallIdentity(name: "A", cacheExpiryMinutes: 8, category: .person)
    #expect(identity.encoded() == [0x0A, 0x01, 0x41, 0x18, 0x08, 0x20, 0x01])
    // Defaults are left out, as proto3 writes them.
    #expect(CallIdentity(name: "A").encoded() == [0x0A, 0x01, 0x41])
    // The icon: field 2, an embedded Icon { format HEIC = 1, image = bytes }.
    let withIcon = CallIdentity(name: "A", icon: [0xFF, 0xEE], category: .business)
    #expect(
      withIcon.encoded() == [
        0x0A, 0x01, 0x41, 0x12, 0x06, 0x08, 0x01, 0x12, 0x02, 0xFF, 0xEE, 0x20, 0x02,
      ])
  }

  @Test func aUTF8NameIsItsBytes() {
    let name = "Аптека"
    let encoded = CallIdentity(name: name).encoded()
    #expect(encoded[0] == 0x0A && Int(encoded[1]) == name.utf8.count)
    #expect(Array(encoded[2...]) == Array(name.utf8))
  }

  @Test(arguments: [
    (Int64(14_085_551_212), "+14085551212"), (74_951_234_567, "+74951234567"), (1, "+1"),
    (999_999_999_999_999, "+999999999999999"),
  ])
  func keywordsAreE164WithThePlus(number: Int64, keyword: String) {
    #expect(E164.keyword(of: number) == keyword)
    #expect(E164.hasForm(number))
  }

  @Test func numbersOverFifteenDigitsHaveNoE164Form() {
    #expect(!E164.hasForm(1_000_000_000_000_000))
    #expect(!E164.hasForm(0))
  }

  @Test func iconsAreHEICByTheirFtypBox() {
    let heic: [UInt8] =
      [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
    #expect(IconFolder.isHEIC(heic))
    let compatibleOnly: [UInt8] =
      [0, 0, 0, 20] + Array("ftypmsf1".utf8) + [0, 0, 0, 0] + Array("mif1".utf8)
    #expect(IconFolder.isHEIC(compatibleOnly))
    #expect(!IconFolder.isHEIC(Array("\u{89}PNG\r\n\u{1A}\n0000000000".utf8)))
    let jpegBrand: [UInt8] = [0, 0, 0, 16] + Array("ftypavif".utf8) + [0, 0, 0, 0]
    #expect(!IconFolder.isHEIC(jpegBrand))
    #expect(!IconFolder.isHEIC([0, 0, 0, 99] + Array("ftypheic".utf8) + [0, 0, 0, 0]))
  }
}
