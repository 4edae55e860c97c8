import ByteCoding
import Testing

/// The bounds-checked view code outside the named rooms reads bytes through: it shows exactly
/// its bytes, its sub-views are indexed from 0 and stay inside it, and a read past either end
/// traps (in a child process, in release builds too) instead of reading the next line.
@Suite("ByteView: bounds-checked bytes")
struct ByteViewTests {
  static let bytes: [UInt8] = Array("+7 495 123-45-67\tМосква".utf8)

  @Test func aViewShowsItsBytesAndItsSubViewsFromZero() {
    Self.bytes.withUnsafeBytes { raw in
      let view = ByteView(raw)
      #expect(view.count == Self.bytes.count && Array(view) == Self.bytes)
      #expect((0..<view.count).map { view[$0] } == Self.bytes)
      let tail = view.rebased(from: 7)
      #expect(tail.startIndex == 0 && tail[0] == UInt8(ascii: "1"))
      #expect(Array(tail) == Array(Self.bytes[7...]))
      #expect(Array(view.rebased(3..<6)) == Array("495".utf8))
      #expect(view.rebased(from: view.count).isEmpty && view.rebased(4..<4).isEmpty)
      #expect(String(decoding: view.rebased(17..<view.count), as: UTF8.self) == "Москва")
      #expect(view.firstIndex(of: 0x09, from: 0) == 16)
      #expect(view.rebased(from: 17).firstIndex(of: 0x09, from: 0) == nil)
      #expect(UTF8Validation.isValid(view) && !UTF8Validation.isValid(view.rebased(18..<19)))
    }
    let empty = [UInt8]().withUnsafeBytes { ByteView($0) }
    #expect(empty.isEmpty && Array(empty) == [])
  }

  @Test func aReadPastTheEndTraps() async {
    await #expect(processExitsWith: .failure) {
      let bytes: [UInt8] = [1, 2, 3]
      _ = bytes.withUnsafeBytes { ByteView($0).rebased(from: 1)[2] }
    }
    await #expect(processExitsWith: .failure) {
      let bytes: [UInt8] = [1, 2, 3]
      _ = bytes.withUnsafeBytes { ByteView($0)[-1] }
    }
    await #expect(processExitsWith: .failure) {
      let bytes: [UInt8] = [1, 2, 3]
      _ = bytes.withUnsafeBytes { ByteView($0).rebased(2..<4) }
    }
  }

  /// The word walk the checksums use reads every whole word, in order, little-endian, and leaves
  /// exactly the tail, whatever the length and however words are taken (one or two at a time).
  @Test func theWordWalkReadsWholeWordsAndLeavesTheTail() {
    let bytes = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    for count in 0...bytes.count {
      let prefix = Array(bytes[..<count])
      let expected = stride(from: 0, to: count / 8 * 8, by: 8).map { start in
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(prefix[start + $1]) << (8 * UInt64($1)) }
      }
      prefix.withUnsafeBytes { raw in
        var single = ByteView(raw).littleEndianWords
        var one: [UInt64] = []
        while let word = single.next() { one.append(word) }
        #expect(one == expected, "count \(count)")
        #expect(single.offset == count / 8 * 8)
        var paired = ByteView(raw).littleEndianWords
        var two: [UInt64] = []
        while let (first, second) = paired.nextPair() { two += [first, second] }
        if let last = paired.next() { two.append(last) }
        #expect(two == expected && paired.offset == single.offset, "count \(count)")
        #expect(paired.next() == nil && paired.nextPair() == nil)
      }
    }
  }

  /// `firstIndex(of:from:)` finds what `Array.firstIndex` finds, from every start, and nothing
  /// from a start outside the view; `equals` compares the bytes, not the addresses.
  @Test func searchAndComparisonAgreeWithTheArrays() {
    let bytes = Array("a\tbb\tccc\t".utf8)
    bytes.withUnsafeBytes { raw in
      let view = ByteView(raw)
      for start in -2...(bytes.count + 2) {
        let expected =
          (0..<bytes.count).contains(start) ? bytes[start...].firstIndex(of: 0x09) : nil
        #expect(view.firstIndex(of: 0x09, from: start) == expected, "from \(start)")
      }
      #expect(view.firstIndex(of: UInt8(ascii: "z"), from: 0) == nil)
      let copy = Array(bytes)
      copy.withUnsafeBytes { other in
        #expect(view.equals(ByteView(other)) && view.equals(copy))
        #expect(!view.equals(ByteView(other).rebased(from: 1)))
        #expect(view.rebased(2..<4).equals(ByteView(other).rebased(6..<8)) == false)
        #expect(view.rebased(5..<7).equals(ByteView(other).rebased(6..<8)))
        #expect(ByteView.empty.equals(view.rebased(3..<3)))
      }
    }
  }
}
