import ArgumentParser
import ByteCoding
import CallDirectoryLoader
import Datasets
import Foundation
import HeapProbe
import PhoneNormalization
import ProcessMetrics
import ProcessSpawning
import SystemCalls

/// `calldir lookup`: what the phone shows for a number once the container's pending requests
/// commit, read from the container itself (`DirectoryLookup`), as an SMS filter extension or
/// the app's own screens read it; `host lookup` reads the simulated system's store instead.
struct LookupCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lookup",
    abstract: "What the phone shows for a number, read from an App Group container.",
    discussion: """
      Reads the container's selected bases through an index of their blocks (one block of at \
      most 8 KiB read per base, never a scan) and its pattern rules, as DirectoryLookup does in \
      an extension: the label and the base that gives it (the highest priority's), and whether \
      the number is blocked and by what. The number is read as `calldir normalize` reads it. \
      With --repeat N, looks it up N times more and prints the median and 99th percentile of \
      one lookup, in microseconds, on stderr, and the same for isBlocked alone (the SMS \
      filter's question: blocking lists and patterns only, no label made).
      Exit statuses: 0 done (the number found or not); 1 usage or input error.
      """)

  @Argument(
    help: "The number as written: 74951234567, +7 495 123-45-67, or with --country 8 495 ….")
  var number: String
  @Option(
    name: .long, help: "The App Group container.", completion: .directory, transform: nonEmptyPath)
  var container: String
  @Option(help: "The country national forms belong to (ISO code); none: international forms only.")
  var country: String?
  @Flag(name: .long, help: "Print the answer as one JSON object.")
  var json = false
  @Option(
    name: .customLong("repeat"), parsing: .unconditional,
    help: "Look the number up this many times more and print the time of one lookup.",
    transform: wholeNumber(in: 0...10_000_000))
  var repeats = 0

  func run() throws {
    let parsed: Int64
    do {
      parsed = try PhoneNormalizer(country: country, validation: .possible).normalize(number)
    } catch {
      throw ValidationError("'\(number)' is not a phone number: \(error)")
    }
    let lookup: DirectoryLookup
    let answer: DirectoryLookup.Answer
    let opened = MemoryStatusReader.current()
    do {
      lookup = try DirectoryLookup(container: container)
      answer = try lookup.lookup(parsed)
    } catch {
      throw ValidationError("\(container): \(error)")
    }
    print(json ? Self.json(answer) : Self.line(answer))
    guard repeats > 0 else { return }
    try measure(parsed, opened: opened, lookup: lookup)
  }

  /// `--repeat`: the number itself `repeats` times, then as many numbers drawn around it (a
  /// span of 10^8, most of them misses, some in other blocks), each lookup timed; the
  /// process's private memory the lookup took to make and what the lookups added after, and,
  /// with jemalloc preloaded, the allocations per lookup.
  private func measure(_ number: Int64, opened: MemoryStatus?, lookup: DirectoryLookup) throws {
    let clock = MonotonicClock.system
    var random = SplitMix64(seed: 42)
    var numbers = [Int64](repeating: number, count: repeats)
    for _ in 0..<repeats {
      numbers.append(max(1, number - 50_000_000 + Int64(random.next() % 100_000_000)))
    }
    var nanoseconds = [UInt64](repeating: 0, count: numbers.count)
    // Its own storage now (a copy of `nanoseconds` would be made at the first write, counted
    // as the lookups' growth).
    var blockedNanoseconds = [UInt64](repeating: 0, count: numbers.count)
    var blocked = [Bool](repeating: false, count: numbers.count)
    // After the lookup was made and this measurement's own arrays allocated: what the lookups
    // themselves add.
    let built = MemoryStatusReader.current()
    let allocationsBefore = HeapProbe.allocationCount()
    let allocationsBetween: Int?
    do {
      for (index, candidate) in numbers.enumerated() {
        let start = clock.nanoseconds()
        blocked[index] = try lookup.lookup(candidate).isBlocked
        nanoseconds[index] = clock.nanoseconds() - start
      }
      allocationsBetween = HeapProbe.allocationCount()
      // The SMS filter's question alone, over the same numbers: it must answer as lookup does.
      for (index, candidate) in numbers.enumerated() {
        let start = clock.nanoseconds()
        let answer = try lookup.isBlocked(candidate)
        blockedNanoseconds[index] = clock.nanoseconds() - start
        guard answer == blocked[index] else {
          throw ValidationError(
            "\(container): isBlocked(\(candidate)) says \(answer), lookup says \(blocked[index])")
        }
      }
    } catch let error as ValidationError {
      throw error
    } catch {
      throw ValidationError("\(container): \(error)")
    }
    func perCall(_ from: Int?, _ to: Int?) -> String {
      guard let from, let to else { return "unknown (preload jemalloc)" }
      return String(format: "%.3f", Double(to - from) / Double(numbers.count))
    }
    let allocations = perCall(allocationsBefore, allocationsBetween)
    let blockedAllocations = perCall(allocationsBetween, HeapProbe.allocationCount())
    let after = MemoryStatusReader.current()
    let openCost = built.map { $0.anonymousBytes - (opened?.anonymousBytes ?? 0) }
    let grown = after.map { $0.anonymousBytes - (built?.anonymousBytes ?? 0) }
    func figures(_ times: ArraySlice<UInt64>) -> String {
      let sorted = times.sorted()
      let median = Double(sorted[sorted.count / 2]) / 1000
      let p99 = Double(sorted[min(sorted.count - 1, sorted.count * 99 / 100)]) / 1000
      return "median \(Self.micro(median)) µs, p99 \(Self.micro(p99)) µs"
    }
    StandardError.write(
      "lookup of \(number), \(repeats) times: \(figures(nanoseconds[..<repeats])); \(repeats) numbers around it: \(figures(nanoseconds[repeats...])); private memory \(openCost.map { ByteCount.format($0) } ?? "unknown") to make the lookup (and this measurement's arrays), grown \(grown.map { ByteCount.format($0) } ?? "unknown") by the lookups; allocations per lookup \(allocations)\n"
        + "isBlocked alone, the same numbers: \(figures(blockedNanoseconds[..<repeats])); around it: \(figures(blockedNanoseconds[repeats...])); allocations per call \(blockedAllocations); every answer agreed with lookup's\n"
    )
  }

  static func micro(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }

  /// "74951234567: Аптека Ригла (region-RU-MOW); not blocked".
  static func line(_ answer: DirectoryLookup.Answer) -> String {
    var parts: [String] = []
    if let label = answer.label {
      parts.append("\(label) (\(answer.labelledBy ?? "-"))")
    } else {
      parts.append("no label")
    }
    if let base = answer.blockedBy {
      parts.append(
        "blocked by \(base)" + (answer.blockingRule.map { ", rule \($0)" } ?? ""))
    } else if answer.allowedByUser {
      parts.append("not blocked (allowed by the user)")
    } else if answer.paused {
      parts.append("not blocked (blocking paused)")
    } else {
      parts.append("not blocked")
    }
    return "\(answer.number): " + parts.joined(separator: "; ")
  }

  /// The answer as one JSON object; absent fields are null.
  static func json(_ answer: DirectoryLookup.Answer) -> String {
    func string(_ value: String?) -> String {
      value.map { "\"" + JSONStringEscaping.escaped($0) + "\"" } ?? "null"
    }
    return
      "{\"number\":\(answer.number),\"label\":\(string(answer.label)),\"labelled_by\":\(string(answer.labelledBy)),\"blocked\":\(answer.isBlocked),\"blocked_by\":\(string(answer.blockedBy)),\"blocking_rule\":\(string(answer.blockingRule)),\"allowed_by_user\":\(answer.allowedByUser),\"paused\":\(answer.paused)}"
  }
}
