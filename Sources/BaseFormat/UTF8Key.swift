#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    // Over contiguous bytes: the generic walk over two UTF-8 views was a tenth of a compile's
    // instructions. `withUTF8` needs a mutable copy (a retain; it never copies a native string).
    var leftText = left.text
    var rightText = right.text
    return leftText.withUTF8 { leftBytes in
      rightText.withUTF8 { rightBytes in
        leftBytes.count == rightBytes.count
          && (leftBytes.isEmpty
            || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0)
      }
    }
  }
}
