import Datasets
import FaultInjection
import Foundation

/// Which durable steps a kill-point or failing-disk loop stops a writer at. By default a random
/// sample: the first step, the last, and ``randomStepCount`` others drawn from a seed that is
/// printed, so a failure is repeated with `CALLDIR_STEP_SEED=SEED`. `CALLDIR_EVERY_STEP=1` runs
/// every step (CI does, as a step of its own: `.ci/run`'s "every durable step").
///
/// Why a sample: each stop is a writer run, a check of what it left and, for syncs, two or three
/// more runs to heal it; run at every step, these loops took most of `swift test`'s time.
public struct DurableStepSample: CustomStringConvertible, Sendable {
  /// The environment variable that runs every step.
  public static let everyStepVariable = "CALLDIR_EVERY_STEP"
  /// The environment variable that fixes the seed.
  public static let seedVariable = "CALLDIR_STEP_SEED"
  /// How many steps besides the first and the last a sample holds.
  public static let randomStepCount = 3

  /// The seed the steps are drawn from.
  public let seed: UInt64
  /// Whether every step runs.
  public let everyStep: Bool

  /// The sample the environment asks for; `label` names the loop in the printed line.
  public init(
    _ label: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    everyStep = environment[Self.everyStepVariable] == "1"
    seed = environment[Self.seedVariable].flatMap { UInt64($0) } ?? UInt64.random(in: 1...999_999)
    print("\(label): \(self)")
  }

  /// The steps of a writer that takes `count` durable steps, ascending, each in `1...count`.
  public func steps(of count: Int) -> [Int] {
    guard count > 0 else { return [] }
    if everyStep || count <= Self.randomStepCount + 2 { return Array(1...count) }
    var generator = SplitMix64(seed: seed)
    var chosen: Set<Int> = [1, count]
    while chosen.count < Self.randomStepCount + 2 {
      chosen.insert(Int.random(in: 2..<count, using: &generator))
    }
    return chosen.sorted()
  }

  public var description: String {
    everyStep
      ? "every durable step (\(Self.everyStepVariable)=1)"
      : "the first and last durable steps and \(Self.randomStepCount) drawn with seed \(seed)"
        + " (\(Self.seedVariable)=\(seed) repeats them; \(Self.everyStepVariable)=1 runs every step)"
  }
}

extension DurableStepSample {
  /// The environment that stops a writer before its durable step `step` (the fault-injection
  /// hook, `CALLDIR_FAULT_AT`).
  public static func stoppingAt(_ step: Int) -> [String: String] {
    [FaultInjection.environmentVariable: String(step)]
  }

  /// The environment that makes a writer report its durable steps at exit.
  public static let counting = [FaultInjection.countVariable: "1"]

  /// How many durable steps `run` took, from the line `counting` has a writer print on stderr.
  public static func steps(reportedBy run: ProcessRun) -> Int? {
    run.stderr.split(separator: "\n").last { $0.hasPrefix(FaultInjection.countLinePrefix) }
      .flatMap { Int($0.dropFirst(FaultInjection.countLinePrefix.count)) }
  }
}
