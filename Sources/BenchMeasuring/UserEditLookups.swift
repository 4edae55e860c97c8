import CallDirectoryHost
import CallDirectoryLoader
import Datasets
import Foundation
import ProcessSpawning

/// The point lookup's figures on `bench user-edits`'s container (issue 66, item 3): the
/// directory, France's plan and the user's own entries, installed whole. `calldir lookup
/// NUMBER --repeat N` is run as a child (jemalloc preloaded when installed, for its allocation
/// counts) and its timing line read; then every number tried is looked up in this process by
/// `DirectoryLookup` and in the simulated system's store, and the two must agree.
public struct UserEditLookups: Sendable, Equatable {
  /// One `calldir lookup --repeat` run.
  public struct Run: Sendable, Equatable {
    /// The number looked up `repeats` times, then as many numbers around it.
    public var number: Int64
    /// Median and 99th percentile of one lookup of the number itself, microseconds.
    public var medianMicroseconds: Double
    public var p99Microseconds: Double
    /// The same for the numbers around it (mostly misses, some in other blocks).
    public var aroundMedianMicroseconds: Double
    public var aroundP99Microseconds: Double
    /// `isBlocked` alone over the same numbers: median, microseconds.
    public var isBlockedMedianMicroseconds: Double
    /// What the lookups added to the process's private memory, as the child printed it.
    public var grown: String
    /// Allocations per lookup, as the child printed it ("unknown" without jemalloc).
    public var allocationsPerLookup: String
  }

  /// Every `calldir lookup --repeat` run, in order.
  public var runs: [Run] = []
  /// Numbers looked up by `DirectoryLookup` and in the store, and how many answers agreed.
  public var tried = 0
  public var agreed = 0

  /// Reads the two lines `calldir lookup --repeat` writes on stderr.
  /// - Throws: ``BenchError`` naming the line that does not read.
  static func parse(_ text: String, number: Int64) throws -> Run {
    func figures(after marker: String, in line: Substring) -> (Double, Double)? {
      guard let start = line.range(of: marker) else { return nil }
      let rest = line[start.upperBound...]
      let words = rest.split(separator: " ")
      // "median 11.6 µs, p99 14.1 µs"
      guard words.count >= 5, words[0] == "median", let median = Double(words[1]),
        let p99 = Double(words[4])
      else { return nil }
      return (median, p99)
    }
    let lines = text.split(separator: "\n")
    guard let timing = lines.first(where: { $0.hasPrefix("lookup of ") }),
      let blocked = lines.first(where: { $0.hasPrefix("isBlocked alone") }),
      let own = figures(after: " times: ", in: timing),
      let around = figures(after: "numbers around it: ", in: timing),
      let alone = figures(after: "the same numbers: ", in: blocked)
    else {
      throw BenchError("calldir lookup --repeat printed no timing line: \(text.prefix(300))")
    }
    func field(after marker: String, until end: String) -> String {
      guard let start = timing.range(of: marker) else { return "unknown" }
      let rest = timing[start.upperBound...]
      return String(rest[..<(rest.range(of: end)?.lowerBound ?? rest.endIndex)])
    }
    return Run(
      number: number, medianMicroseconds: own.0, p99Microseconds: own.1,
      aroundMedianMicroseconds: around.0, aroundP99Microseconds: around.1,
      isBlockedMedianMicroseconds: alone.0,
      grown: field(after: "grown ", until: " by the lookups"),
      allocationsPerLookup: field(after: "allocations per lookup ", until: "\n"))
  }

  /// Whether `answer` is what the store shows for its number: blocked wins, as in the store.
  static func agrees(_ answer: DirectoryLookup.Answer, _ stored: LookupResult) -> Bool {
    switch stored {
    case .blocked: answer.isBlocked
    case .identified(let label, _): !answer.isBlocked && answer.label == label
    case .unknown: !answer.isBlocked && answer.label == nil
    }
  }
}

extension UserEditBench {
  /// Times `calldir lookup` on `numbers` (`lookupRepeats` each), then checks `DirectoryLookup`
  /// against the store on `tried`, which should hold the user's entries, directory numbers,
  /// pattern numbers and misses.
  /// - Throws: ``BenchError`` when the child fails, prints no timing, or an answer disagrees.
  func measureLookups(
    box: String, system: SimulatedSystem, timed numbers: [Int64], tried: [Int64]
  ) throws -> UserEditLookups {
    var figures = UserEditLookups()
    let allocator = MeasuredAllocator.automatic()
    for _ in 0..<lookupRuns {
      for number in numbers {
        let outcome = try ChildProcess.run(
          executable: binaryDirectory + "/calldir",
          arguments: [
            "lookup", "+\(number)", "--container", box, "--repeat", String(lookupRepeats),
          ],
          limits: .init(memoryLimitBytes: nil, timeoutSeconds: 3_600),
          io: .init(descriptors: [:], wakeDescriptor: nil, onTick: nil, capturesReport: false),
          environment: allocator.childEnvironment())
        guard outcome.exitCode == 0 else {
          throw BenchError(
            "calldir lookup +\(number) failed (exit \(outcome.exitCode.map(String.init) ?? "signal")): \(outcome.standardError.prefix(300))"
          )
        }
        figures.runs.append(try UserEditLookups.parse(outcome.standardError, number: number))
      }
    }
    let lookup: DirectoryLookup
    do {
      lookup = try DirectoryLookup(container: box)
    } catch {
      throw BenchError("\(box): \(error)")
    }
    for number in tried {
      let answer: DirectoryLookup.Answer
      do {
        answer = try lookup.lookup(number)
      } catch {
        throw BenchError("lookup of \(number): \(error)")
      }
      let stored = try system.lookup(number)
      figures.tried += 1
      guard UserEditLookups.agrees(answer, stored) else {
        throw BenchError(
          "DirectoryLookup says \(number) is \(answer.isBlocked ? "blocked" : "not blocked"), label \(answer.label ?? "none"); the store shows \(stored)"
        )
      }
      figures.agreed += 1
    }
    return figures
  }
}
