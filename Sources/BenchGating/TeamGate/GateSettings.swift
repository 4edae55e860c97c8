import BenchMeasuring
import BenchReporting
import DirectoryContainer
import Foundation
import ProcessMetrics
import Yams

/// A team's gate settings: the data budgets and calldir's A/B thresholds, from the defaults,
/// then `.calldir-gate.yml` in the team's repository, then the command line. Each setting is a
/// ``Key``: one list that reads the file, names the command-line flag and action input, and
/// makes `calldir bench checks`' budget table, so none of these can drift from the others.
///
/// ```yaml
/// budgets:
///   footprint-margin-percent: 25
///   seed-seconds-to-enabled: 0.8
/// calldir:
///   max-regression-percent: 3
/// ```
public struct GateSettings: Sendable {
  /// The file's usual name at the repository's top.
  public static let defaultFileName = ".calldir-gate.yml"
  /// The largest settings file read: a few dozen lines are all it can hold.
  static let maximumByteCount = 64 * 1024

  public var budgets = DataBudgets()
  public var thresholds = CodeThresholds()
  /// Budgets shown but never failing the gate (`budgets.lcidl-server-ms`), as a team keeps a
  /// noisy figure's history without letting it block a merge: the file's `report-only:` list,
  /// or `calldir gate --report-only KEY`.
  public var reportOnly: Set<String> = []

  /// The defaults.
  public init() {}

  /// One setting.
  public struct Key: Sendable {
    /// `budgets` or `calldir`.
    public var section: String
    /// The key inside its section, and the `calldir gate` flag's name (`--KEY`).
    public var name: String
    /// What it bounds, the default's source and unit.
    public var meaning: String
    /// The smallest and largest value taken.
    var range: ClosedRange<Double>
    /// Whether only whole numbers are taken.
    var whole: Bool
    /// The setting's value in `settings`, as the file writes it.
    public var read: @Sendable (GateSettings) -> Double
    /// Sets the value (in the file's unit).
    var write: @Sendable (inout GateSettings, Double) -> Void

    /// The file's dotted path: `budgets.requests`.
    public var path: String { section + "." + name }
  }

  /// Every setting, budgets first.
  public static let keys: [Key] = [
    Key(
      section: "budgets", name: "memory-limit-mib",
      meaning:
        "the extension's memory limit, MiB: what iOS kills it past (the 5 MB 2GIS, habr.com/ru/post/323050, advises)",
      range: 1...1024, whole: false,
      read: { Double($0.budgets.memoryLimitBytes) / 1_048_576 },
      write: { $0.budgets.memoryLimitBytes = Int($1 * 1_048_576) }),
    Key(
      section: "budgets", name: "footprint-margin-percent",
      meaning: "the share of the memory limit the footprint must leave free, percent",
      range: 0...90, whole: false,
      read: { $0.budgets.footprintMargin * 100 }, write: { $0.budgets.footprintMargin = $1 / 100 }),
    Key(
      section: "budgets", name: "seed-seconds-to-enabled",
      meaning:
        "the seed set's time from the switch to enabled, projected on the device, seconds: compile's default 100,000-entry seed set is 2.5 s on an iPhone 13 (by the device rates of ovidius72/caller-filter's tools/entry-limit-harness)",
      range: 0.01...3600, whole: false,
      read: { $0.budgets.seedSecondsToEnabled }, write: { $0.budgets.seedSecondsToEnabled = $1 }),
    Key(
      section: "budgets", name: "entries-per-request",
      meaning:
        "entries in one request: iOS's loader fails at 2,000,000 (iOS 26.1's CDXLoadExtensionDataOperation, in EthanArbuckle/iPhone18-3_26.1_23B85_Restore)",
      range: 1...1_999_999, whole: true,
      read: { Double($0.budgets.entriesPerRequest) },
      write: { $0.budgets.entriesPerRequest = Int($1) }),
    Key(
      section: "budgets", name: "requests",
      meaning:
        "requests the whole set takes past the cap: 10 carry 20 M entries, minutes on a phone",
      range: 1...1000, whole: true,
      read: { Double($0.budgets.requests) }, write: { $0.budgets.requests = Int($1) }),
    Key(
      section: "budgets", name: "update-percent",
      meaning:
        "what a client downloads for this update (patches, else whole bases), as a share of what clients hold now (the base revision's full install), percent: a 20% churn is 8%, a directory replaced outright 37% (patches are compressed)",
      range: 0...100, whole: false,
      read: { $0.budgets.updateShare * 100 }, write: { $0.budgets.updateShare = $1 / 100 }),
    Key(
      section: "budgets", name: "changed-entries-percent",
      meaning:
        "numbers this update adds, removes or relabels, as a share of the numbers clients hold, percent: the gate's 20% churn trials change 20%, a directory replaced outright 200%",
      range: 0...1000, whole: false,
      read: { $0.budgets.changedEntriesShare * 100 },
      write: { $0.budgets.changedEntriesShare = $1 / 100 }),
    Key(
      section: "budgets", name: "full-install-mib",
      meaning:
        "what a new user downloads, every current base, MiB: 2GIS shipped 4,000,000 numbers with names as 40 MB compressed (habr.com/ru/post/323050)",
      range: 0.01...100_000, whole: false,
      read: { Double($0.budgets.fullInstallBytes) / 1_048_576 },
      write: { $0.budgets.fullInstallBytes = Int($1 * 1_048_576) }),
    Key(
      section: "budgets", name: "label-bytes-per-entry",
      meaning:
        "mean label bytes over the labelled entries: 2GIS's directory had 35 bytes a line, number included (2GIS, habr.com/ru/post/323050)",
      range: 1...4096, whole: false,
      read: { $0.budgets.labelBytesPerEntry }, write: { $0.budgets.labelBytesPerEntry = $1 }),
    Key(
      section: "budgets", name: "lcidl-server-ms",
      meaning:
        "Live Caller ID Lookup (--lcidl-log): the slowest shard's median server time per query on one thread, ms; the phone waits for the block answer before it rings (calldir's export of 10,001 identities answered in 40-49 ms here; one 60 KB icon in every bucket, 399-640)",
      range: 1...60_000, whole: false,
      read: { $0.budgets.lcidlServerMilliseconds },
      write: { $0.budgets.lcidlServerMilliseconds = $1 }),
    Key(
      section: "budgets", name: "lcidl-response-kb",
      meaning:
        "Live Caller ID Lookup (--lcidl-log): the largest reply to one query, KB, downloaded on every call (small values reply in 24.6 KB; one 60 KB icon made every identity reply 763 KB)",
      range: 1...1_000_000, whole: false,
      read: { $0.budgets.lcidlResponseKB }, write: { $0.budgets.lcidlResponseKB = $1 }),
    Key(
      section: "calldir", name: "max-regression-percent",
      meaning: "A/B: the load time's rise, percent; fails when its whole 95% interval lies past it",
      range: 0.1...99, whole: false,
      read: { $0.thresholds.maximumRegression * 100 },
      write: { $0.thresholds.maximumRegression = $1 / 100 }),
    Key(
      section: "calldir", name: "max-count-regression-percent",
      meaning: "A/B: instructions per entry's rise on the same data, percent (a count: it repeats)",
      range: 0.01...99, whole: false,
      read: { $0.thresholds.maximumCountRegression * 100 },
      write: { $0.thresholds.maximumCountRegression = $1 / 100 }),
    Key(
      section: "calldir", name: "repeat",
      meaning: "A/B: runs per build and strategy; the intervals are over these",
      range: 3...100, whole: true,
      read: { Double($0.thresholds.repeats) }, write: { $0.thresholds.repeats = Int($1) }),
  ]

  /// The device profile's key, a name rather than a number.
  public static let deviceKey = "budgets.device"

  /// Marks the budget at `path` (`budgets.lcidl-server-ms`, or its name alone) report-only.
  /// - Throws: ``/BenchMeasuring/BenchError`` naming `place` when no budget has that name.
  public mutating func markReportOnly(_ path: String, place: String) throws(BenchError) {
    let full = path.hasPrefix("budgets.") ? path : "budgets." + path
    guard Self.keys.contains(where: { $0.path == full && $0.section == "budgets" }) else {
      let known = Self.keys.filter { $0.section == "budgets" }.map(\.name).joined(separator: ", ")
      throw BenchError("\(place): '\(path)' is not a budget (known: \(known))")
    }
    reportOnly.insert(full)
  }

  /// Sets the key at `path` (`budgets.requests`) to `value`.
  /// - Throws: ``/BenchMeasuring/BenchError`` naming the key and its range when the key is unknown or the
  ///   value out of range (`place` prefixes the message: the file and line, or the flag).
  public mutating func set(_ path: String, to value: String, place: String) throws(BenchError) {
    if path == Self.deviceKey {
      guard !value.isEmpty else { throw BenchError("\(place): \(path) needs a device's name") }
      budgets.device = value
      return
    }
    guard let key = Self.keys.first(where: { $0.path == path }) else {
      let known = (Self.keys.map(\.path) + [Self.deviceKey]).joined(separator: ", ")
      throw BenchError("\(place): unknown setting '\(path)' (known: \(known))")
    }
    // A trailing % only on a percent: `budgets.requests=12%` was taken as 12 (issue 65,
    // item 15).
    let isPercent = key.name.hasSuffix("-percent")
    let trimmed = isPercent && value.hasSuffix("%") ? String(value.dropLast()) : value
    guard let number = Double(trimmed), number.isFinite, key.range.contains(number),
      !key.whole || number == number.rounded()
    else {
      let kind = key.whole ? "a whole number" : "a number"
      throw BenchError(
        "\(place): \(path) must be \(kind) from \(Self.format(key.range.lowerBound)) to \(Self.format(key.range.upperBound)), got '\(value)'"
      )
    }
    key.write(&self, number)
  }

  /// Reads `path`'s settings over these.
  /// - Throws: ``/BenchMeasuring/BenchError`` naming the file and, where it has one, the line: a file that
  ///   cannot be read, is not YAML, or sets an unknown key or a value out of range.
  public mutating func read(file path: String) throws(BenchError) {
    // Through the descriptor, opened without blocking: a FIFO, /dev/zero or a folder is named
    // as such, not waited on or read forever (issue 65, item 15).
    let text: String
    do {
      text = try readSmallTextFile(path, maximumByteCount: Self.maximumByteCount)
    } catch {
      throw BenchError("the gate settings: \(error.description)")
    }
    let root: Node?
    do {
      root = try Yams.compose(yaml: text)
    } catch {
      let line = "\(error)".split(separator: "\n").first.map(String.init) ?? "not YAML"
      throw BenchError("\(path): not YAML (\(line))")
    }
    guard let root else { return }  // an empty file sets nothing
    guard let sections = root.mapping else {
      throw BenchError("\(path):\(root.mark?.line ?? 1): expected sections 'budgets' and 'calldir'")
    }
    for (sectionKey, sectionValue) in sections {
      let section = sectionKey.string ?? ""
      if section == "report-only" {
        guard let list = sectionValue.sequence else {
          throw BenchError(
            "\(path):\(sectionKey.mark?.line ?? 1): report-only takes a list of budgets (- lcidl-server-ms)"
          )
        }
        for item in list {
          try markReportOnly(
            item.scalar?.string ?? "", place: "\(path):\(item.mark?.line ?? 1)")
        }
        continue
      }
      guard section == "budgets" || section == "calldir", let settings = sectionValue.mapping
      else {
        throw BenchError(
          "\(path):\(sectionKey.mark?.line ?? 1): unknown section '\(section)' (known: budgets and calldir, each a mapping; report-only, a list)"
        )
      }
      for (key, value) in settings {
        let line = key.mark?.line ?? 1
        guard let scalar = value.scalar?.string else {
          throw BenchError("\(path):\(line): \(section).\(key.string ?? "?") takes one value")
        }
        try set("\(section).\(key.string ?? "")", to: scalar, place: "\(path):\(line)")
      }
    }
  }

  /// A setting's value as the file writes it: no trailing zeros.
  public static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15
      ? String(Int(value)) : String(format: "%g", value)
  }
}
