import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; fgets fills a buffer of `lineBufferByteCount` bytes and
// ends it with a NUL inside it, so strlen stops there, and nothing here keeps a pointer past its
// call.

/// The Chinese article's loader (seed 004), faithfully: `fopen` the file, `fgets` each line into a
/// 1,024-byte buffer, make a string, strip every comma, turn it back into data, parse it with
/// `JSONSerialization` (fragments allowed), skip lines that fail (the `[` and `]` lines), take the
/// dictionary's first key as the number (`longLongValue`) and its value as the label.
struct ChineseJSONLinesReader {
  /// The article's `char buffer[1024]`.
  static let lineBufferByteCount = 1024

  /// Calls `body` with each entry, in file order.
  static func forEachEntry(path: String, _ body: (Int64, String) -> Void) throws {
    guard let file = unsafe fopen(path, "r") else { throw BaselineError.unreadable(path: path) }
    defer { unsafe fclose(file) }
    var buffer = [CChar](repeating: 0, count: lineBufferByteCount)
    while unsafe fgets(&buffer, Int32(lineBufferByteCount), file) != nil {
      // `@autoreleasepool { … }`: Swift on Linux has no autorelease pool; each iteration's
      // objects are released at its end anyway.
      // `[NSString stringWithUTF8String:buffer]`: the bytes up to the NUL `fgets` wrote, nil
      // for invalid UTF-8.
      let decoded = unsafe String(validating: buffer[..<strlen(buffer)], as: UTF8.self)
      guard var result = decoded else { continue }
      result = result.replacingOccurrences(of: ",", with: "")
      let jsonData = Data(result.utf8)
      guard
        let dictionary = try? JSONSerialization.jsonObject(
          with: jsonData, options: .fragmentsAllowed) as? [String: Any],
        let number = dictionary.keys.first,
        let name = dictionary[number] as? String
      else { continue }
      let phoneNumber = (number as NSString).longLongValue
      body(phoneNumber, name)
    }
  }
}
