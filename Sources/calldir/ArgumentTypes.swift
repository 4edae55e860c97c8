import ArgumentParser
import BenchMeasuring
import CallDirectoryCore
import Datasets
import DirectoryCompiler
import PhoneNormalization
import ProcessMetrics
import ProcessSpawning

// Values the parser reads itself: a bad one is a usage error naming the flag and the valid
// values, before any command runs.

extension MeasuredAllocator.Choice: ExpressibleByArgument {}
extension PhoneNormalizer.Validation: ExpressibleByArgument {}
extension CheckingContext.CapScope: ExpressibleByArgument {}
extension LabelProfile: ExpressibleByArgument {}
extension InputFormat: ExpressibleByArgument {}
extension DuplicatePolicy: ExpressibleByArgument {}

/// What `calldir generate` writes: one of the dataset formats, or a whole container.
enum GeneratedFormat: String, CaseIterable, ExpressibleByArgument {
  case base, tsv, jsonl, text
  case twoGIS = "2gis"
  case container

  /// The dataset format, or nil for a container.
  var datasetFormat: DatasetFormat? { DatasetFormat(rawValue: rawValue) }
}

/// A size written the way people write them (`5MiB`, `512KiB`, `5MB`, `1048576`), in bytes.
struct ByteSize: ExpressibleByArgument, CustomStringConvertible {
  /// The size in bytes.
  let bytes: Int

  init(bytes: Int) { self.bytes = bytes }

  /// The largest size an option takes: 1 TiB, past any memory limit or budget a phone or a
  /// runner has (2^63−1 bytes overflowed the sums it is added to).
  static let maximumBytes = 1 << 40

  init?(argument: String) {
    guard let bytes = try? ByteCount.parse(argument), (0...Self.maximumBytes).contains(bytes)
    else { return nil }
    self.bytes = bytes
  }

  var description: String { ByteCount.format(bytes) }

  /// As a user would type it: `5MiB`, `512KiB`, or bytes.
  var defaultValueDescription: String {
    if bytes > 0 && bytes % (1 << 20) == 0 { return "\(bytes >> 20)MiB" }
    if bytes > 0 && bytes % 1024 == 0 { return "\(bytes >> 10)KiB" }
    return "\(bytes)"
  }
}

extension Quoting: ExpressibleByArgument {}

extension SeedChoice: ExpressibleByArgument {}
extension InstructionCounting: ExpressibleByArgument {}

/// Entry counts as people write them (`2000000`, `100k`, `1.5M`), one or a comma-separated list
/// (a sweep, for `bench strategies`).
struct EntryCounts: ExpressibleByArgument {
  /// The counts, in the order given.
  let values: [Int]

  init?(argument: String) {
    var values: [Int] = []
    for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
      let text = part.trimmingCharacters(in: .whitespaces)
      let (digits, scale): (Substring, Double) =
        switch text.last {
        case "k", "K": (text.dropLast(), 1e3)
        case "m", "M": (text.dropLast(), 1e6)
        default: (Substring(text), 1)
        }
      guard let number = Double(digits), number.isFinite, number >= 0 else { return nil }
      let value = (number * scale).rounded()
      guard value == number * scale, value <= 1e12 else { return nil }
      values.append(Int(value))
    }
    guard !values.isEmpty else { return nil }
    self.values = values
  }
}

/// Every path option's transform: an empty path is a usage error. The system calls would read
/// it as the current folder or, joined with a name, as `/` (`--container ''` read
/// `/manifest.cdm`; `generate --out ''` wrote under `/`).
/// - Throws: `ValidationError` for an empty path.
func nonEmptyPath(_ text: String) throws -> String {
  guard !text.isEmpty else {
    throw ValidationError("an empty path: give a file or folder (. for this folder)")
  }
  return text
}

/// Every bundle identifier's transform: one the system could hold (not empty, no whitespace or
/// control character), as a bundle identifier is on iOS.
/// - Throws: `ValidationError` naming what is wrong.
func bundleIdentifier(_ text: String) throws -> String {
  guard !text.isEmpty else { throw ValidationError("an empty bundle identifier") }
  guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 })
  else {
    throw ValidationError("bundle identifier '\(text)' holds whitespace or a control character")
  }
  return text
}

/// `--strategies`: bench strategies, named once each, in the order given.
struct StrategyList: Equatable, CustomStringConvertible {
  let strategies: [BenchStrategy]

  /// Every strategy, calldir's first (the default).
  static let all = StrategyList(strategies: BenchStrategy.allCases)

  private init(strategies: [BenchStrategy]) { self.strategies = strategies }

  /// A comma-separated list (`mmap,buffered`); a name given twice counts once.
  /// - Throws: `BenchMeasuring.BenchError` naming an unknown strategy, or an empty list.
  init(parsing text: String) throws {
    strategies = try BenchStrategy.parseList(text)
  }

  /// The list as it is written on the command line (what help shows as the default).
  var description: String { strategies.map(\.rawValue).joined(separator: ",") }
}
