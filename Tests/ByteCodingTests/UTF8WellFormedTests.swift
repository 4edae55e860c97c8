import Testing

@testable import ByteCoding

/// The hand scan used before iOS 26 and macOS 26 decides as the standard library does.
@Suite("UTF-8 well-formedness by hand, as the standard library decides it")
struct UTF8WellFormedTests {
  func agrees(_ bytes: [UInt8]) -> Bool {
    let library = String(validating: bytes, as: UTF8.self) != nil
    return bytes.withUnsafeBufferPointer { UTF8Validation.isWellFormed(ByteView($0), from: 0) }
      == library
  }

  @Test func everySequenceOfUpToThreeBytesAndSampledFourByteOnes() {
    var disagreements: [[UInt8]] = []
    for first in 0...255 {
      if !agrees([UInt8(first)]) { disagreements.append([UInt8(first)]) }
      for second in 0...255 {
        let pair = [UInt8(first), UInt8(second)]
        if !agrees(pair) { disagreements.append(pair) }
        // Three-byte sequences: every lead past 0xE0, seconds around the continuation range.
        guard first >= 0xE0, (0x70...0xC0).contains(second) else { continue }
        for third in stride(from: 0, through: 255, by: 1) {
          let triple = pair + [UInt8(third)]
          if !agrees(triple) { disagreements.append(triple) }
        }
      }
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<50_000 {
      let lead = UInt8.random(in: 0xF0...0xF7, using: &generator)
      let bytes = [lead] + (0..<3).map { _ in UInt8.random(in: 0x70...0xC0, using: &generator) }
      if !agrees(bytes) { disagreements.append(bytes) }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
  }
}
