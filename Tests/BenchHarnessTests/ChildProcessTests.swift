import BaseFormat
import CallDirectoryHost
import Datasets
import ExtensionReport
import Foundation
import ProcessMetrics
import TestSupport
import Testing

@testable import BenchMeasuring
@testable import ProcessSpawning

@Suite("Children are measured, limited and classified like the system does")
struct ChildProcessTests {
  func record(for outcome: ChildProcess.Outcome, limit: Int = 5 << 20) -> RunRecord {
    var record = RunRecord()
    record.memoryLimitBytes = limit
    BenchRunner.fill(&record, from: outcome)
    return record
  }

  @Test func theExtensionReportsItsOwnLoad() throws {
    let folder = try TemporaryFolder()
    let dataset = try smallDataset(folder, formats: [.base])
    for strategy in ["mmap", "buffered"] {
      let outcome = try ChildProcess.run(
        executable: try builtExecutable("calldir-extension"),
        arguments: ["--base", dataset.path(.base), "--strategy", strategy],
        limits: .init(memoryLimitBytes: nil, timeoutSeconds: 60))
      #expect(outcome.exitCode == 0, "\(outcome.standardError)")
      let report = try #require(outcome.report.flatMap(LoadReport.init(parsing:)))
      #expect(report.entries == 5_000)
      #expect(report.outcome == "completed")
      #expect(report.peakResidentBytes > 0)
      #expect(report.anonymousBytes > 0)
      #expect(outcome.sampleCount >= 1)
      let row = record(for: outcome)
      #expect(row.status == .ok)
      #expect(row.entries == 5_000)
      #expect(row.footprintPeakBytes >= report.anonymousBytes)
    }
  }

  @Test func aChildOverTheMemoryLimitIsKilledAndRecordedSo() throws {
    let folder = try TemporaryFolder()
    let dataset = try smallDataset(folder, formats: [.base])
    let limit = 64 * 1024
    let outcome = try ChildProcess.run(
      executable: try builtExecutable("calldir-extension"),
      arguments: ["--base", dataset.path(.base)],
      limits: .init(memoryLimitBytes: limit, timeoutSeconds: 60))
    #expect(outcome.killedFor == .memory)
    #expect(outcome.signal == SIGKILL)
    let row = record(for: outcome, limit: limit)
    #expect(row.status == .killedMemory)
    #expect(row.detail.contains("passed the limit"))
  }

  /// A child killed at the timeout (``ChildProcessLimitsTests`` kills a real one) is recorded
  /// as timed out.
  @Test func aChildKilledAtTheTimeoutIsRecordedSo() {
    let outcome = ChildProcess.Outcome(
      exitCode: nil, signal: SIGKILL, killedFor: .timeout, wallSeconds: 0.3, userSeconds: 0,
      systemSeconds: 0, maxResidentBytes: 0, sampledFootprintPeakBytes: 0,
      sampledPeakResidentBytes: 0, sampleCount: 3, report: nil, standardError: "",
      requestedKillReason: nil)
    #expect(record(for: outcome).status == .timedOut)
  }

  @Test func aCrashingChildIsRecordedWithItsSignal() throws {
    let outcome = try ChildProcess.run(
      executable: "/bin/sh", arguments: ["-c", "kill -SEGV $$"],
      limits: .init(memoryLimitBytes: nil, timeoutSeconds: 10))
    #expect(outcome.signal == SIGSEGV)
    let row = record(for: outcome)
    #expect(row.status == .crashed)
    #expect(row.signal == Int(SIGSEGV))
    #expect(row.detail.contains("SIGSEGV"))
  }

  @Test func aCorruptBaseFailsTheRunWithTheOffsetInItsDetail() throws {
    let folder = try TemporaryFolder()
    let dataset = try smallDataset(folder, formats: [.base])
    var data = try Data(contentsOf: URL(fileURLWithPath: dataset.path(.base)))
    data[data.count / 2] ^= 0x01
    let corrupt = folder.path("corrupt.cdb")
    try data.write(to: URL(fileURLWithPath: corrupt))
    let outcome = try ChildProcess.run(
      executable: try builtExecutable("calldir-extension"), arguments: ["--base", corrupt],
      limits: .init(memoryLimitBytes: nil, timeoutSeconds: 60))
    #expect(outcome.exitCode == ExtensionExitStatus.badInput)
    let row = record(for: outcome)
    #expect(row.status == .failed)
    #expect(row.detail.contains("corrupt.cdb: at byte"))
  }

  @Test func aBaseOverTheCapFailsWithCode5() throws {
    let folder = try TemporaryFolder()
    let dataset = try smallDataset(folder, formats: [.base])
    let outcome = try ChildProcess.run(
      executable: try builtExecutable("calldir-extension"),
      arguments: ["--base", dataset.path(.base), "--max-entries", "1000"],
      limits: .init(memoryLimitBytes: nil, timeoutSeconds: 60))
    #expect(outcome.exitCode == ExtensionExitStatus.requestFailed)
    let row = record(for: outcome)
    #expect(row.status == .failed)
    #expect(row.errorCode == 5)
    // Every entry was handed on; the context ignored those after the 999th, and the system drops
    // the whole failed request.
    #expect(row.entries == 5_000)
  }

  @Test(arguments: ["baseline-2gis", "baseline-jsonl", "baseline-text"])
  func everyBaselineLoadsTheSameEntries(strategy: String) throws {
    let folder = try TemporaryFolder()
    let dataset = try smallDataset(folder)
    let format = BenchStrategy(rawValue: strategy)!.inputFormat
    let outcome = try ChildProcess.run(
      executable: try builtExecutable("calldir-baselines"),
      arguments: ["--strategy", strategy, "--input", dataset.path(format)],
      limits: .init(memoryLimitBytes: nil, timeoutSeconds: 60))
    #expect(outcome.exitCode == 0, "\(outcome.standardError)")
    let report = try #require(outcome.report.flatMap(LoadReport.init(parsing:)))
    #expect(report.entries == 5_000)
    #expect(report.outcome == "completed")
  }

  @Test func theMeasuredExecutablesAnswerBadArgumentsWithOneLine() throws {
    for (binary, arguments) in [
      ("calldir-extension", ["--strategy", "fast"]),
      ("calldir-extension", ["--base"]),
      ("calldir-baselines", ["--strategy", "baseline-2gis"]),
    ] {
      let result = try runProcess(try builtExecutable(binary), arguments)
      #expect(result.status == ExtensionExitStatus.usage, "\(binary) \(arguments)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
  }
}
