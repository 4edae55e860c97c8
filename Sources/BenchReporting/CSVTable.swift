import BenchMeasuring
import Foundation

/// RFC 4180 CSV: a header row, then one row per record; fields with a comma, a quote, CR or LF
/// are quoted, quotes doubled; lines end with CRLF.
///
/// Written by hand because it is forty lines and the harness must read back exactly what it
/// wrote; the mirrored CSV packages would add a dependency for less control over quoting.
public struct CSVTable: Equatable, Sendable {
  /// Column names.
  public var header: [String]
  /// Rows, each as long as the header.
  public var rows: [[String]]

  /// Creates a table.
  public init(header: [String], rows: [[String]] = []) {
    self.header = header
    self.rows = rows
  }

  /// The table as CSV text.
  public func encoded() -> String {
    var text = ""
    for row in [header] + rows {
      text += row.map(Self.quoted).joined(separator: ",") + "\r\n"
    }
    return text
  }

  static func quoted(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
      return field
    }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// Parses CSV text (CRLF or LF line ends); the first row is the header.
  /// - Throws: ``CSVError`` with the line number of an unterminated quote or a row whose field
  ///   count differs from the header's.
  public init(parsing text: String) throws(CSVError) {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var inQuotes = false
    var line = 1
    var recordLine = 1
    var iterator = text.makeIterator()
    var pending: Character? = nil
    var fieldStarted = false
    func next() -> Character? {
      if let character = pending {
        pending = nil
        return character
      }
      return iterator.next()
    }
    while let character = next() {
      if inQuotes {
        if character == "\"" {
          if let following = next() {
            if following == "\"" {
              field.append("\"")
            } else {
              inQuotes = false
              pending = following
            }
          } else {
            inQuotes = false
          }
        } else {
          if character == "\n" || character == "\r\n" { line += 1 }
          field.append(character)
        }
        continue
      }
      switch character {
      case "\"" where field.isEmpty:
        inQuotes = true
        fieldStarted = true
      case ",":
        record.append(field)
        field = ""
        fieldStarted = true
      case "\n", "\r\n", "\r":
        if fieldStarted || !field.isEmpty || !record.isEmpty {
          record.append(field)
          records.append(record)
        }
        record = []
        field = ""
        fieldStarted = false
        line += 1
        recordLine = line
      default:
        field.append(character)
        fieldStarted = true
      }
    }
    if inQuotes { throw CSVError(line: recordLine, problem: "unterminated quoted field") }
    if fieldStarted || !field.isEmpty || !record.isEmpty {
      record.append(field)
      records.append(record)
    }
    guard let header = records.first else { throw CSVError(line: 1, problem: "no header row") }
    for (index, row) in records.enumerated().dropFirst() where row.count != header.count {
      throw CSVError(
        line: index + 1, problem: "\(row.count) fields where the header has \(header.count)")
    }
    self.header = header
    self.rows = Array(records.dropFirst())
  }

  /// The values of one column, by name; nil when there is no such column.
  public func column(_ name: String) -> [String]? {
    guard let index = header.firstIndex(of: name) else { return nil }
    return rows.map { $0[index] }
  }
}

/// A CSV text that cannot be read.
public struct CSVError: Error, CustomStringConvertible, Equatable {
  /// The record's line number (1-based; the header is line 1 when no field spans lines).
  public let line: Int
  /// What was wrong.
  public let problem: String
  public var description: String { "line \(line): \(problem)" }
}
