import ByteCoding
import Testing

/// The owned bytes the compiler's per-row loops read without a reference count: what is
/// appended is what the view shows, growth keeps the bytes, and dropping a prefix moves the
/// rest to the front.
@Suite("ByteStorage: owned bytes read as a view")
struct ByteStorageTests {
  @Test func appendedBytesAreWhatTheViewShowsAcrossGrowth() {
    let storage = ByteStorage(capacity: 16)
    var expected: [UInt8] = []
    for round in 0..<200 {
      let chunk = (0..<(round % 37)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ round) }
      chunk.withUnsafeBytes { storage.append(ByteView($0)) }
      expected += chunk
    }
    #expect(storage.count == expected.count)
    #expect(storage.capacity >= storage.count)
    #expect(Array(storage.view) == expected)
  }

  @Test func removingAPrefixKeepsTheRestInOrder() {
    let storage = ByteStorage(capacity: 16)
    let bytes = Array("+74951234567\tМосква\n+78121234567\tПитер\n".utf8)
    bytes.withUnsafeBytes { storage.append(ByteView($0)) }
    let firstLine = bytes.firstIndex(of: UInt8(ascii: "\n"))! + 1
    storage.removeFirst(firstLine)
    #expect(Array(storage.view) == Array(bytes[firstLine...]))
    storage.removeFirst(0)
    #expect(storage.count == bytes.count - firstLine)
    storage.removeAll()
    #expect(storage.count == 0 && storage.view.isEmpty)
  }

  @Test func aFilledAppendKeepsWhatTheFillerWroteAndNoMore() {
    let storage = ByteStorage(capacity: 16)
    let written = storage.append(upTo: 64) { room in
      #expect(room.count == 64)
      for index in 0..<10 { room[index] = UInt8(index) }
      return 10
    }
    #expect(written == 10 && Array(storage.view) == Array(0..<10))
    // A failed read (a negative count) appends nothing.
    #expect(storage.append(upTo: 8) { _ in -1 } == -1)
    #expect(storage.count == 10)
  }
}
