import Foundation

/// The input formats `calldir compile` reads.
public enum InputFormat: String, CaseIterable, Sendable {
  /// Tab-separated values with a header row (RFC 4180 quoting allowed).
  case tsv
  /// Comma-separated values with a header row (RFC 4180).
  case csv
  /// One JSON object per line: `{"number": "...", "label": "...", "region": ..., "rank": ...,
  /// "category": ...}`.
  case jsonl
  /// The Chinese article's file: a JSON array with one `{"number": "label"},` object per line.
  case chinese
  /// The Russian guide's `number` U+D7FF `name` lines.
  case russian
  /// A calldir base (identification or blocking).
  case base

  /// The format a file name suggests (`.gz` is looked through).
  public static func guess(path: String) -> InputFormat? {
    var name = path.lowercased()
    if name.hasSuffix(".gz") { name.removeLast(3) }
    if name.hasSuffix(".tsv") || name.hasSuffix(".tab") { return .tsv }
    if name.hasSuffix(".csv") { return .csv }
    if name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson") { return .jsonl }
    if name.hasSuffix(".json") { return .chinese }
    if name.hasSuffix(".txt") { return .russian }
    if name.hasSuffix(".cdb") { return .base }
    return nil
  }
}

/// One input row before normalization, as owned strings (the formats read through `String`:
/// JSON, the articles' files, bases); delimited files go straight to ``RowFields``.
struct InputRow {
  var numberText: String
  var label: String
  var region: String?
  var rank: Int64?
  var category: String?
  /// The row's own country (ISO code), when the input has a country column.
  var country: String? = nil
  var line: Int
  /// Read from a blocking base: blocked whatever the categories say.
  var fromBlockingBase = false
}

/// Which columns hold what, by header name or 1-based index.
public struct ColumnSelection: Sendable {
  public var number: String = "number"
  public var label: String = "label"
  public var region: String? = "region"
  public var rank: String? = "rank"
  public var category: String? = "category"
  /// The country the row's national number belongs to (ISO code), beside the file's default.
  public var country: String? = "country"
  /// The input is compiled whole as a blocking list (`--block`): its rows need no label.
  var blockingList = false

  public init() {}

  /// Header names accepted for each column when the default is used.
  static let aliases: [String: [String]] = [
    "number": ["number", "phone", "telephone", "tel", "телефон", "номер", "号码"],
    "label": ["label", "name", "title", "company", "название", "имя", "名称"],
    "region": ["region", "регион", "地区"],
    "rank": ["rank", "priority", "popularity", "score"],
    "category": ["category", "type", "категория", "类别"],
    "country": ["country", "страна", "国家"],
  ]

  /// Resolves the selection against a header row into 0-based indexes.
  func resolve(header: [String], path: String) throws -> ResolvedColumns {
    func find(_ name: String?, role: String, required: Bool) throws -> Int? {
      guard let name else { return nil }
      if let index = Int(name) {
        guard index >= 1, index <= header.count else {
          throw CompileError.usage(
            "\(path): column \(index) for \(role) is outside the \(header.count) columns")
        }
        return index - 1
      }
      let lowered = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      let candidates = name == role ? (Self.aliases[role] ?? [name]) : [name.lowercased()]
      for candidate in candidates {
        if let index = lowered.firstIndex(of: candidate) { return index }
      }
      if required {
        throw CompileError.usage(
          "\(path): no '\(name)' column for the \(role) (header: \(header.joined(separator: ", ")))"
        )
      }
      return nil
    }
    // A column named on the command line must exist; the default names are looked for. Without
    // a category column every row needs its label, unless the whole input is a blocking list:
    // a header without one is an error, not a container of rejected rows.
    let category = try find(category, role: "category", required: category != "category")
    return ResolvedColumns(
      number: try find(number, role: "number", required: true)!,
      label: try find(
        label, role: "label", required: label != "label" || (category == nil && !blockingList)),
      region: try find(region, role: "region", required: region != "region"),
      rank: try find(rank, role: "rank", required: rank != "rank"),
      category: category,
      country: try find(country, role: "country", required: country != "country"))
  }
}

struct ResolvedColumns {
  let number: Int
  let label: Int?
  let region: Int?
  let rank: Int?
  let category: Int?
  let country: Int?

  /// The highest column index used: a row needs more fields than this.
  let highest: Int

  init(number: Int, label: Int?, region: Int?, rank: Int?, category: Int?, country: Int?) {
    self.number = number
    self.label = label
    self.region = region
    self.rank = rank
    self.category = category
    self.country = country
    highest = [number, label ?? 0, region ?? 0, rank ?? 0, category ?? 0, country ?? 0].max()!
  }
}
