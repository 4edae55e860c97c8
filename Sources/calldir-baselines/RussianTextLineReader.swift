import ByteCoding
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; getline's line is this loop's own (NUL-ended, freed by its
// defer), copied into a String before the next getline, and nothing here keeps a pointer past its
// call.

/// The Russian guide's loader (seed 003), faithfully: a `LineReader` (the Stack Overflow class it
/// links: `getline` on a `FILE*`, one new string per line), then per line
/// `trimmingCharacters(in: .whitespacesAndNewlines)`, `components(separatedBy: "\u{D7FF}")`,
/// `Int64(components[0]) ?? 0`, `components[1]`, and a skip when the number repeats the last one.
struct RussianTextLineReader {
  /// The guide's separator: a character a user is very unlikely to type.
  static let separator = ArticleFormats.russianSeparator

  /// Calls `body` with each entry the guide would add, in file order.
  static func forEachEntry(path: String, _ body: (Int64, String) -> Void) throws {
    guard let file = unsafe fopen(path, "r") else { throw BaselineError.unreadable(path: path) }
    defer { unsafe fclose(file) }
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { unsafe free(line) }
    var lastPhone: Int64 = 0
    while unsafe getline(&line, &capacity, file) > 0, let line = unsafe line {
      let text = unsafe String(cString: line)
      let components = text.trimmingCharacters(in: .whitespacesAndNewlines)
        .components(separatedBy: separator)
      guard components.count >= 2 else { continue }  // The guide would crash here.
      let phone = Int64(components[0]) ?? 0
      let name = components[1]
      if phone != lastPhone { body(phone, name) }
      lastPhone = phone
    }
  }
}
