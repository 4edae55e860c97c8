import ByteCoding
import Testing

@Suite("Little-endian and LEB128 fields")
struct LittleEndianTests {
  @Test func fixedWidthFieldsRoundTripLeastSignificantByteFirst() throws {
    var bytes: [UInt8] = []
    bytes.appendLittleEndian(UInt16(0x0102))
    bytes.appendLittleEndian(Int64(-2))
    bytes.appendLittleEndian(UInt32.max)
    #expect(Array(bytes[0..<2]) == [0x02, 0x01])
    #expect(Array(bytes[2..<10]) == [0xFE] + Array(repeating: 0xFF, count: 7))
    try bytes.withUnsafeBytes { (raw) throws in
      var reader = LittleEndianReader(ByteView(raw))
      #expect(try reader.read(UInt16.self) == 0x0102)
      #expect(try reader.read(Int64.self) == -2)
      #expect(try reader.read(UInt32.self) == UInt32.max)
      #expect(reader.isAtEnd)
    }
  }

  @Test(arguments: [
    UInt64(0), 1, 127, 128, 16_383, 16_384, UInt64(UInt32.max), UInt64.max >> 1, UInt64.max,
  ])
  func leb128RoundTripsAndCountsItsBytes(value: UInt64) throws {
    var bytes: [UInt8] = []
    bytes.appendLEB128(value)
    #expect(bytes.count == LEB128.byteCount(value))
    #expect(bytes.count <= LEB128.maximumByteCount)
    try bytes.withUnsafeBytes { (raw) throws in
      var reader = LittleEndianReader(ByteView(raw))
      #expect(try reader.readLEB128() == value)
      #expect(reader.isAtEnd)
    }
  }

  @Test func aTruncatedFieldNamesItsOffsetAndLeavesTheReaderWhereItWas() throws {
    let bytes: [UInt8] = [1, 2, 3, 0x80, 0x80]
    bytes.withUnsafeBytes { raw in
      var reader = LittleEndianReader(ByteView(raw), offset: 1)
      #expect(throws: ByteCodingError.truncated(offset: 1, needed: 8, available: 4)) {
        try reader.read(UInt64.self)
      }
      #expect(reader.offset == 1)
      #expect(throws: ByteCodingError.truncated(offset: 1, needed: 5, available: 4)) {
        try reader.readView(5)
      }
      var leb = LittleEndianReader(ByteView(raw), offset: 3)
      #expect(throws: ByteCodingError.self) { try leb.readLEB128() }
      #expect(leb.offset == 3)
    }
  }

  @Test func aLEB128PastSixtyFourBitsIsRefused() {
    let tooWide: [UInt8] = Array(repeating: 0xFF, count: 9) + [0x02]
    let tooLong: [UInt8] = Array(repeating: 0x80, count: 10) + [0x00]
    for bytes in [tooWide, tooLong] {
      bytes.withUnsafeBytes { raw in
        var reader = LittleEndianReader(ByteView(raw))
        #expect(throws: ByteCodingError.overlongInteger(offset: 0)) { try reader.readLEB128() }
      }
    }
  }

  @Test func appendsLandAtTheirOffset() throws {
    var header: [UInt8] = []
    header.appendLittleEndian(UInt32(0xA1B2_C3D4))
    header.appendLittleEndian(Int64(7))
    #expect(Array(header[0..<4]) == [0xD4, 0xC3, 0xB2, 0xA1])
    try header.withUnsafeBytes { (raw) throws in
      var reader = LittleEndianReader(ByteView(raw), offset: 4)
      #expect(try reader.read(Int64.self) == 7)
    }
  }
}
