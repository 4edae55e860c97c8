import CallDirectoryCore
import ExtensionReport
import Testing

@Suite("The report a measured process prints")
struct LoadReportTests {
  @Test func loadReportsRoundTrip() {
    var report = LoadReport()
    report.entries = 12
    report.loadNanoseconds = 3_000
    report.heapPeakBytes = 100
    report.allocator = "jemalloc"
    report.outcome = "failed"
    report.errorCode = 5
    report.message = "maximum entries exceeded: the system allows fewer than 2000000 (code 5)"
    #expect(LoadReport(parsing: report.encoded()) == report)
    #expect(LoadReport(parsing: "garbage") == nil)
  }

  @Test func everyEndingConcludesWithItsExitStatus() {
    var completed = LoadReport()
    #expect(
      completed.conclude(inputError: nil, outcome: .completed) == ExtensionExitStatus.completed)
    #expect(completed.outcome == "completed")

    var failed = LoadReport()
    let status = failed.conclude(
      inputError: nil, outcome: .failed(.maximumEntriesExceeded(limit: 2_000_000)))
    #expect(status == ExtensionExitStatus.requestFailed)
    #expect(failed.outcome == "failed")
    #expect(failed.errorCode == 5)

    var unreadable = LoadReport()
    let badInput = unreadable.conclude(
      inputError: "base.cdb: at byte 0: not a calldir base", outcome: .completed)
    #expect(badInput == ExtensionExitStatus.badInput)
    #expect(unreadable.outcome == "error")
    #expect(
      LoadReport(parsing: unreadable.encoded()) == unreadable, "the message survives encoding")
  }
}
