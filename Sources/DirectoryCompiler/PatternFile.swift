import BaseFormat
import ByteCoding
import DirectoryContainer
import Foundation
import PhoneNormalization

// Safe (the `unsafe` uses in this file): the views and buffers made here wrap bytes lent by
// `withUnsafeBytes`, `withUTF8` or `withUnsafeMutableBytes`, and are used only inside the closure
// that lends them.

/// One line of a pattern file: a pattern with what it gives its numbers.
public struct PatternRule: Equatable, Sendable {
  /// The file and line it was read from, for errors and lookups (`fr.tsv:3`).
  public var source: String
  public var pattern: NumberPattern
  /// The pattern as written.
  public var text: String
  /// The label shown (identification); empty for blocking.
  public var label: String
  /// Higher wins numbers that two rules share; then the earlier rule.
  public var priority: Int
  /// A free word (`telemarketing`), shown by lookups and inspection.
  public var category: String

  /// Creates a rule.
  public init(
    source: String, pattern: NumberPattern, text: String, label: String, priority: Int,
    category: String
  ) {
    self.source = source
    self.pattern = pattern
    self.text = text
    self.label = label
    self.priority = priority
    self.category = category
  }

  /// What the rule base records of it: its category and where it was written (the range
  /// itself says the pattern; France's plan is then 736 bytes, not 1,036).
  var description: String {
    category.isEmpty ? source : "\(category) · \(source)"
  }
}

/// Reads pattern files (`compile --block-patterns`, `--identify-patterns`): TSV, or CSV when the
/// header has no tab, with a header naming the columns. `pattern` is required, `label` too for
/// identification; `priority` (a whole number, default 0) and `category` are optional.
public enum PatternFile {
  /// The largest pattern file read: 16 MiB. A national plan is a few hundred lines; a file past
  /// this is a list, which a dump holds better, and memory must not grow with hostile input.
  public static let maximumByteCount = 16 << 20

  /// The rules of one file, checked against the numbering plan of each pattern's country.
  /// - Parameters:
  ///   - path: the pattern file.
  ///   - kind: identification needs a `label` column.
  ///   - validation: how numbers are checked (compile's `--numbers`).
  ///   - budget: the most numbers one pattern may hold (`--max-pattern-entries`).
  /// - Throws: ``CompileError`` naming the file, the line and the problem.
  public static func read(
    _ path: String, kind: BaseKind, validation: PhoneNormalizer.Validation, budget: Int
  ) throws(CompileError) -> [PatternRule] {
    let lines = try lines(ofSmallFile: path, what: "a pattern file")
    guard let headerLine = lines.first, !headerLine.isEmpty else {
      throw .unreadable(path, "no header line (pattern, label, priority, category)")
    }
    let delimiter: UInt8 = headerLine.contains("\t") ? UInt8(ascii: "\t") : UInt8(ascii: ",")
    func fields(_ line: String, _ number: Int) throws(CompileError) -> [String] {
      try split(line, delimiter: delimiter, at: "\(path):\(number)")
    }
    let header = try fields(headerLine, 1).map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    let known = ["pattern", "label", "priority", "category"]
    if let unknown = header.first(where: { !known.contains($0) }) {
      throw .usage(
        "\(path):1: unknown column \"\(unknown)\" (columns: \(known.joined(separator: ", ")))")
    }
    guard let patternColumn = header.firstIndex(of: "pattern") else {
      throw .usage("\(path):1: no \"pattern\" column")
    }
    let labelColumn = header.firstIndex(of: "label")
    if kind == .identification && labelColumn == nil {
      throw .usage("\(path):1: no \"label\" column (identification patterns need one)")
    }
    let priorityColumn = header.firstIndex(of: "priority")
    let categoryColumn = header.firstIndex(of: "category")
    let checker: PhoneNormalizer
    do {
      checker = try PhoneNormalizer(country: nil, validation: validation)
    } catch {
      throw .usage(error.description)
    }
    var rules: [PatternRule] = []
    for (offset, line) in lines.enumerated().dropFirst()
    where !line.trimmingCharacters(in: .whitespaces).isEmpty {
      let place = "\(path):\(offset + 1)"
      let row = try fields(line, offset + 1)
      func field(_ column: Int?) -> String {
        guard let column, column < row.count else { return "" }
        return row[column].trimmingCharacters(in: .whitespaces)
      }
      let text = field(patternColumn)
      let pattern: NumberPattern
      do {
        pattern = try NumberPattern(text)
      } catch {
        throw .usage("\(place): \(error.description)")
      }
      guard pattern.numberCount <= budget else {
        throw .usage(
          "\(place): \(text) holds \(pattern.numberCount) numbers, past --max-pattern-entries \(budget) (raise it to allow this pattern)"
        )
      }
      for end in [pattern.first, pattern.last] {
        do {
          let normalized = try checker.normalize("+\(end)")
          guard normalized == end else {
            throw CompileError.usage(
              "\(place): \(text) is not in E.164 form (+\(end) reads as +\(normalized))")
          }
        } catch let error as CompileError {
          throw error
        } catch {
          throw .usage(
            "\(place): \(text) holds numbers its country's plan refuses: +\(end): \(error)")
        }
      }
      let label = field(labelColumn)
      if kind == .identification {
        var bytes = label
        if let problem = bytes.withUTF8({ unsafe LabelRule.problem(ByteView($0)) }) {
          throw .usage("\(place): label: \(problem)")
        }
        if let offset = InvisibleCharacters.offset(in: label) {
          throw .usage(
            "\(place): label: a character that shows nothing (zero width, soft hyphen, filler) at byte \(offset + 1)"
          )
        }
      }
      let priorityText = field(priorityColumn)
      guard let priority = priorityText.isEmpty ? 0 : Int(priorityText),
        abs(priority) <= 1_000_000
      else {
        throw .usage(
          "\(place): priority \"\(priorityText)\" is not a whole number of -1000000 to 1000000")
      }
      rules.append(
        PatternRule(
          source: "\((path as NSString).lastPathComponent):\(offset + 1)", pattern: pattern,
          text: text, label: kind == .identification ? label : "", priority: priority,
          category: field(categoryColumn)))
    }
    return rules
  }

  /// The lines of a pattern file or an allow list (line ends LF or CRLF, a BOM dropped), read
  /// whole: they are small, and a file past ``maximumByteCount`` is refused before it is read.
  /// - Throws: ``CompileError`` naming the file: missing, too large or not UTF-8.
  static func lines(ofSmallFile path: String, what: String) throws(CompileError) -> [String] {
    let bytes = try bytes(ofFile: path, what: what, maximumByteCount: maximumByteCount)
    guard let text = String(validatingUTF8Bytes: bytes) else {
      throw .unreadable(path, "not UTF-8")
    }
    return lines(of: text)
  }

  /// The bytes of the file at `path`, at most `maximumByteCount` of them.
  /// - Throws: ``CompileError`` naming the file: missing, too large, or not a regular file.
  static func bytes(ofFile path: String, what: String, maximumByteCount: Int)
    throws(CompileError) -> [UInt8]
  {
    // Through the descriptor, opened without blocking: a FIFO, /dev/zero or a folder given as
    // the file is named as such, not waited on, read forever or "NSCocoaErrorDomain error 256"
    // (issue 65, item 15).
    do {
      return try readWholeFile(path, maximumByteCount: maximumByteCount)
    } catch .fileTooLarge {
      throw .unreadable(path, "\(what) is past the \(maximumByteCount >> 20) MiB limit")
    } catch .invalidArgument {
      throw .unreadable(path, "\(what) is not a regular file (a folder, a device or a FIFO)")
    } catch {
      throw .unreadable(path, "\(error)")
    }
  }

  /// A text's lines, LF or CRLF ends, a leading BOM dropped.
  static func lines(of text: String) -> [String] {
    // "\r\n" is one Character in Swift, so splitting on "\n" alone kept a CRLF file as one
    // line ("unknown column pattern\r…", issue 65, item 15): both line ends split.
    var lines = text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
    ).map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
    if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = String(first.dropFirst()) }
    return lines
  }

  /// One line's fields (RFC 4180 quotes for CSV, none for TSV).
  private static func split(_ line: String, delimiter: UInt8, at place: String)
    throws(CompileError) -> [String]
  {
    var line = line
    return try line.withUTF8 { bytes in
      Result { () throws(CompileError) in
        unsafe try fields(of: ByteView(bytes), delimiter: delimiter, at: place)
      }
    }.get()
  }

  /// One line's fields, split at `delimiter`; quoted as CSV when `quoting` is nil and the
  /// delimiter is a comma. Numbering plans (``NumberingPlan``) give their own quoting.
  static func fields(
    of view: ByteView, delimiter: UInt8, quoting: Quoting? = nil, at place: String
  ) throws(CompileError) -> [String] {
    var ranges: [Range<Int>] = []
    var unquoted: [UInt8] = []
    switch DelimitedFields.split(
      view, delimiter: delimiter,
      quoting: quoting ?? (delimiter == UInt8(ascii: ",") ? .rfc4180 : .none),
      fields: &ranges, unquoted: &unquoted)
    {
    case .fields(let inUnquoted):
      return ranges.map { range in
        inUnquoted
          ? String(decoding: unquoted[range], as: UTF8.self)
          : String(decoding: view.rebased(range), as: UTF8.self)
      }
    case .needsMore: throw .usage("\(place): a quoted field runs past the line's end")
    case .badQuoting: throw .usage("\(place): text after a closing quote")
    case .badUTF8: throw .usage("\(place): not UTF-8")
    }
  }
}
