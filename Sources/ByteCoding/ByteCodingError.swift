/// Bytes that do not hold the field a reader asked for.
@usableFromInline package enum ByteCodingError: Error, Equatable, Sendable, CustomStringConvertible
{
  /// `needed` bytes were asked for at `offset`, only `available` were left.
  case truncated(offset: Int, needed: Int, available: Int)
  /// The LEB128 value at `offset` runs past 10 bytes or 64 bits.
  case overlongInteger(offset: Int)

  /// Where the bad field starts, in bytes from the start of what was read.
  @usableFromInline package var offset: Int {
    switch self {
    case .truncated(let offset, _, _), .overlongInteger(let offset): offset
    }
  }

  @usableFromInline package var description: String {
    switch self {
    case .truncated(let offset, let needed, let available):
      "truncated at byte \(offset): \(needed) bytes needed, \(available) left"
    case .overlongInteger(let offset): "integer at byte \(offset) does not fit 64 bits"
    }
  }
}
