/// A string used as a dictionary key by its UTF-8 bytes. Swift's own `String` hashing and
/// equality go through Unicode normalization, which dominated label lookups in profiles (the
/// compiler looks up every label twice); labels here are compared byte for byte, as they are
/// stored.
public struct UTF8Key: Hashable, Sendable {
  /// The string.
  public let text: String

  /// Wraps a string.
  public init(_ text: String) { self.text = text }

  public func hash(into hasher: inout Hasher) {
    var copy = text
    copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }

  public static func == (left: UTF8Key, right: UTF8Key) -> Bool {
    left.text.utf8.count == right.text.utf8.count && left.text.utf8.elementsEqual(right.text.utf8)
  }
}
