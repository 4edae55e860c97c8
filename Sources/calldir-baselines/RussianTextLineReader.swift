import ByteCoding
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The Russian guide's loader (seed 003), faithfully: a `LineReader` (the Stack Overflow class it
/// links: `getline` on a `FILE*`, one new string per line), then per line
/// `trimmingCharacters(in: .whitespacesAndNewlines)`, `components(separatedBy: "\u{D7FF}")`,
/// `Int64(components[0]) ?? 0`, `components[1]`, and a skip when the number repeats the last one.
struct RussianTextLineReader {
  /// The guide's separator: a character a user is very unlikely to type.
  static let separator = ArticleFormats.russianSeparator

  /// Calls `body` with each entry the guide would add, in file order.
  static func forEachEntry(path: String, _ body: (Int64, String) -> Void) throws {
    guard let file = fopen(path, "r") else { throw BaselineError.unreadable(path: path) }
    defer { fclose(file) }
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    var lastPhone: Int64 = 0
    while getline(&line, &capacity, file) > 0, let line {
      let text = String(cString: line)
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
