import CallDirectoryCore
import Foundation

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; each copyBytes range is checked against the data's count
// first, and the temporary buffer holds at least the `textLength` bytes copied into it, and
// nothing here keeps a pointer past its call.

/// 2GIS's `DGSPhonesDataReader` (seed 000), re-implemented faithfully in Swift: the whole file as
/// one data object mapped from disk, each field copied out with `getBytes` (here `copyBytes`), the
/// name copied into a stack buffer and turned into a new string per record.
///
/// Two adaptations, both in the article's favour and neither a slowdown: the article asks for
/// `NSDataReadingMappedIfSafe`, which maps app-container files on iOS but reads the whole file
/// into memory with swift-corelibs-foundation, so this uses `.alwaysMapped` to keep the article's
/// mapped behaviour; and its `next` returns `location < length` after reading, which drops the
/// last record in a `while ([reader next])` loop, so the loop here runs while bytes remain.
struct TwoGISReader {
  private let data: Data
  private var location = 0

  init(path: String) throws {
    data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
  }

  /// The next record, or nil at the end of the data.
  mutating func next() throws -> (phone: UInt64, name: String)? {
    guard location < data.count else { return nil }
    guard location + 10 <= data.count else { throw BaselineError.corrupt(offset: location) }
    var blockLength: UInt16 = 0
    unsafe withUnsafeMutableBytes(of: &blockLength) {
      _ = unsafe data.copyBytes(to: $0, from: location..<(location + 2))
    }
    location += 2
    var phone: UInt64 = 0
    unsafe withUnsafeMutableBytes(of: &phone) {
      _ = unsafe data.copyBytes(to: $0, from: location..<(location + 8))
    }
    location += 8
    let textLength = Int(blockLength) - 8
    guard textLength >= 0, location + textLength <= data.count else {
      throw BaselineError.corrupt(offset: location - 10)
    }
    // `uint8_t buffer[textLength]`: a stack buffer the name is copied into.
    let name = unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(textLength, 1)) {
      buffer -> String? in
      unsafe data.copyBytes(to: buffer, from: location..<(location + textLength))
      return unsafe String(
        bytes: UnsafeBufferPointer(rebasing: buffer[..<textLength]), encoding: .utf8)
    }
    location += textLength
    guard let name else { throw BaselineError.corrupt(offset: location - textLength) }
    return (UInt64(littleEndian: phone), name)
  }
}

/// A baseline's input could not be read.
enum BaselineError: Error, CustomStringConvertible {
  case corrupt(offset: Int)
  case unreadable(path: String)
  case requestFailed(String)

  var description: String {
    switch self {
    case .corrupt(let offset): "corrupt record at byte \(offset)"
    case .unreadable(let path): "cannot open \(path)"
    case .requestFailed(let detail): "the system failed a request: \(detail)"
    }
  }
}
