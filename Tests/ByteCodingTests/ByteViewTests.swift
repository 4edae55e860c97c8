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
      #expect(UTF8Validation.firstIndex(of: 0x09, in: view) == 16)
      #expect(UTF8Validation.firstIndex(of: 0x09, in: view.rebased(from: 17)) == nil)
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
}
