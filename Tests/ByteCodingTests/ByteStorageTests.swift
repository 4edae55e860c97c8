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
    #expect(storage.withView { Array($0) } == expected)
  }

  @Test func removingAPrefixKeepsTheRestInOrder() {
    let storage = ByteStorage(capacity: 16)
    let bytes = Array("+74951234567\tМосква\n+78121234567\tПитер\n".utf8)
    bytes.withUnsafeBytes { storage.append(ByteView($0)) }
    let firstLine = bytes.firstIndex(of: UInt8(ascii: "\n"))! + 1
    storage.removeFirst(firstLine)
    #expect(storage.withView { Array($0) } == Array(bytes[firstLine...]))
    storage.removeFirst(0)
    #expect(storage.count == bytes.count - firstLine)
    storage.removeAll()
    #expect(storage.count == 0 && storage.withView(\.isEmpty))
  }

  @Test func aFilledAppendKeepsWhatTheFillerWroteAndNoMore() {
    let storage = ByteStorage(capacity: 16)
    let written = storage.append(upTo: 64) { room in
      #expect(room.count == 64)
      for index in 0..<10 { room[index] = UInt8(index) }
      return 10
    }
    #expect(written == 10 && storage.withView { Array($0) } == Array(0..<10))
    // A failed read (a negative count) appends nothing.
    #expect(storage.append(upTo: 8) { _ in -1 } == -1)
    #expect(storage.count == 10)
  }

  /// Its own bytes appended, or a table inserting while its keys are walked, would free the
  /// bytes being read (growing moves them): both trap, in a child process, in release builds too.
  @Test func aChangeWhileItsBytesAreLentTraps() async {
    await #expect(processExitsWith: .failure) {
      let storage = ByteStorage(capacity: 16)
      [UInt8](repeating: 7, count: 16).withUnsafeBytes { storage.append(ByteView($0)) }
      storage.withView { storage.append($0) }
    }
    await #expect(processExitsWith: .failure) {
      let storage = ByteStorage(capacity: 16)
      [UInt8](repeating: 7, count: 4).withUnsafeBytes { storage.append(ByteView($0)) }
      storage.withView { _ in storage.removeAll() }
    }
    await #expect(processExitsWith: .failure) {
      let table = ByteStringTable(capacity: 4)
      _ = table.insert(utf8: "Москва", value: 1)
      table.forEachKey { key, value in _ = table.insert(key, value: value + 1) }
    }
  }

  @Test func aViewIsLentAgainOnceTheLastOneIsReturned() {
    let storage = ByteStorage(capacity: 16)
    [UInt8](repeating: 1, count: 8).withUnsafeBytes { storage.append(ByteView($0)) }
    let copy = storage.withView { outer in storage.withView { Array($0) } + Array(outer) }
    // Both views returned: the storage changes again, and appending a copy of itself is fine.
    copy.withUnsafeBytes { storage.append(ByteView($0)) }
    #expect(storage.count == 24)
    #expect(storage.withView { Array($0) } == [UInt8](repeating: 1, count: 24))
  }
}
