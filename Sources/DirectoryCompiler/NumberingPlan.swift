import ByteCoding
import DirectoryContainer
import Foundation
import PhoneNormalization

/// A national numbering plan as its regulator publishes it (issue 67), read into ranges of
/// E.164 numbers that `compile --block-patterns` and `--identify-patterns` take: each row a range
/// with its operator, region and allocation date, filtered, and checked against its country's
/// plan (libphonenumber's tables) before it is written. Rows that do not fit are rejected with
/// their line and reason; nothing is ever turned into a range it does not describe.
public enum NumberingPlan {
  /// The largest zip archive read, and the most its plan may inflate to: 64 MiB. A plain
  /// plan file is read line by line and may be of any size: memory holds one 1 MiB chunk and
  /// the kept ranges, whatever the file holds.
  public static let maximumByteCount = 64 << 20

  /// One row of a plan, as a range of E.164 numbers.
  public struct Range: Equatable, Sendable {
    /// The first and last numbers, in E.164 digits (`33162000000`).
    public var first: Int64
    public var last: Int64
    /// The operator as the plan names it: ARCEP's mnemonic (`LGC`), Russia's company name.
    public var `operator`: String
    /// The operator's tax number (Russia's INN); empty where the plan has none.
    public var operatorID: String
    /// The region or territory (`Métropole`, `Краснодарский край`).
    public var region: String
    /// The allocation date, `YYYY-MM-DD`; empty where the plan has none.
    public var allocated: String
    /// The plan's own code for the range (ARCEP's EZABPQM, Russia's ABC/DEF code).
    public var code: String
    /// The file's line the range came from.
    public var line: Int

    /// How many numbers the range holds.
    public var numberCount: Int64 { last - first + 1 }

    /// The range as a pattern file writes it: `+33162000000..+33162009999`.
    public var pattern: String { "+\(first)..+\(last)" }

    /// `template` with `{operator}`, `{operator_id}`, `{region}`, `{allocated}` and `{code}`
    /// replaced by this range's values.
    public func label(_ template: String) -> String {
      template.replacingOccurrences(of: "{operator}", with: self.operator)
        .replacingOccurrences(of: "{operator_id}", with: operatorID)
        .replacingOccurrences(of: "{region}", with: region)
        .replacingOccurrences(of: "{allocated}", with: allocated)
        .replacingOccurrences(of: "{code}", with: code)
    }
  }

  /// Which rows are kept; an empty set keeps every row.
  public struct Filter: Sendable {
    /// Operators, matched whole and without case against the operator or its tax number.
    public var operators: Set<String> = []
    /// Regions, each matched as a part of the region's name, without case.
    public var regions: [String] = [] {
      didSet { lowercasedRegions = regions.map { $0.lowercased() } }
    }
    /// ``regions`` lowercased once, not once a row.
    private var lowercasedRegions: [String] = []
    /// Rows allocated on or after this date (`YYYY-MM-DD`), when given.
    public var allocatedSince: String?

    /// Keeps every row.
    public init() {}

    /// Whether `range` passes.
    public func keeps(_ range: Range) -> Bool {
      keeps(
        operator: range.operator, operatorID: range.operatorID, region: range.region,
        allocated: range.allocated)
    }

    /// Whether a row of these values passes: what a plan's reader asks before it reads the
    /// row's numbers, so the rows left out cost no check against the plan.
    public func keeps(operator: String, operatorID: String, region: String, allocated: String)
      -> Bool
    {
      // Rows are read by the million and most are left out: ASCII values are compared without
      // a lowercased copy each; others are lowercased.
      if !operators.isEmpty,
        !operators.contains(where: {
          CaseFolding.equal(`operator`, $0) || CaseFolding.equal(operatorID, $0)
        })
      {
        return false
      }
      if !regions.isEmpty {
        guard lowercasedRegions.contains(where: { CaseFolding.contains(region, $0) }) else {
          return false
        }
      }
      if let allocatedSince, !allocated.isEmpty, allocated < allocatedSince {
        return false
      }
      return true
    }
  }

  /// A row that does not describe a range of dialable numbers, and why.
  public struct Rejection: Error, Equatable, Sendable {
    public var line: Int
    public var reason: String
  }

  /// What a plan file held.
  public struct Contents: Sendable {
    /// The kept ranges, in the file's order.
    public var ranges: [Range] = []
    /// The rows read (the header not counted) and those the filter left out.
    public var rowsRead = 0
    public var filteredOut = 0
    public var rejections: [Rejection] = []
  }

  /// Reads the plan at `path`, published in `format`, keeping the rows `filter` keeps, line by
  /// line (a plain file is never held whole: one 1 MiB chunk and the kept ranges). A zip
  /// archive is read as its publisher ships it: the plan is its `entry`, or its one file of
  /// the format's kind, inside a zip inside it too (``PlanArchive``; its member is inflated
  /// into memory, at most ``maximumByteCount``).
  /// - Throws: ``CompileError`` naming the file: missing, too large, not in the format's
  ///   encoding, or a header that is not the format's (so a wrong `--format` is caught at once).
  public static func read(
    _ path: String, format: PlanFormat, filter: Filter = Filter(), entry: String? = nil
  ) throws(CompileError) -> Contents {
    var rows = PlanRows(path: path, format: format, filter: filter)
    if try PlanArchive.isZip(path: path) {
      let archive = try PatternFile.bytes(
        ofFile: path, what: "a zip archive", maximumByteCount: maximumByteCount)
      let plan = try PlanArchive.plan(
        in: archive, path: path, entry: entry, extensions: format.fileExtensions,
        maximumByteCount: maximumByteCount)
      var start = plan.startIndex
      var number = 0
      while start < plan.endIndex {
        let end = plan[start...].firstIndex(of: 0x0a) ?? plan.endIndex
        number += 1
        var line = plan[start..<end]
        if line.last == 0x0d { line = line.dropLast() }
        try rows.take(line, number: number)
        start = end + 1
      }
    } else {
      if let entry { throw .unreadable(path, "not a zip archive, so it has no entry \(entry)") }
      try TextLines.forEachBytes(in: path, maximumLineByteCount: maximumLineByteCount) {
        (number: Int, line: ArraySlice<UInt8>) throws(CompileError) in
        try rows.take(line, number: number)
      }
    }
    return try rows.finish()
  }

  /// The longest line read: a plan's row is a few hundred bytes.
  static let maximumLineByteCount = 64 * 1024
}

/// The normalizers a plan's rows are read through, one per country, made once.
struct PlanNormalizers {
  /// Why a form is not a number of the country's plan.
  struct Problem: Error { let reason: String }

  private var byCountry: [String: PhoneNormalizer] = [:]

  /// The E.164 number the national form `national` reads as in `country` (ISO code), checked
  /// against that country's plan.
  mutating func international(_ national: String, country: String) -> Result<Int64, Problem> {
    do {
      let normalizer: PhoneNormalizer
      if let made = byCountry[country] {
        normalizer = made
      } else {
        normalizer = try PhoneNormalizer(country: country, validation: .possible)
        byCountry[country] = normalizer
      }
      return .success(try normalizer.normalize(national))
    } catch {
      return .failure(
        Problem(reason: "\(national) is not a number of \(country)'s plan (\(error))"))
    }
  }
}
