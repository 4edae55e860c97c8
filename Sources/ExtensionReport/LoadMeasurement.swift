import HeapProbe
import ProcessMetrics
import SystemCalls

/// Measures one load from inside the extension process: a monotonic clock around it, the heap
/// high-water mark of the loading thread, and the process's memory status at the end.
public struct LoadMeasurement {
  /// jemalloc's allocation count when the load started.
  private let allocationsAtStart: Int?
  /// The machine's monotonic clock when the load started (`SystemCalls.MonotonicTime`).
  private let startMonotonicNanoseconds: UInt64
  /// The CPU time the process had used when the load started: everything from `exec` (the
  /// dynamic loader, initializers, reading the arguments, opening the input).
  private let startCPUNanoseconds: UInt64

  /// Starts measuring: resets jemalloc's thread peak and reads the clock.
  public init() {
    HeapProbe.resetThreadPeak()
    allocationsAtStart = HeapProbe.allocationCount()
    startCPUNanoseconds = MonotonicTime.processCPUNanoseconds()
    startMonotonicNanoseconds = MonotonicTime.nanoseconds()
  }

  /// Stops measuring and fills in the timing and memory fields of a report.
  /// - Parameter entries: entries handed to the context.
  public func finish(entries: Int) -> LoadReport {
    var report = LoadReport()
    report.entries = entries
    report.startMonotonicNanoseconds = startMonotonicNanoseconds
    report.startCPUNanoseconds = startCPUNanoseconds
    // The machine's monotonic clock, the one the host reads the spawn time on.
    report.loadNanoseconds = MonotonicTime.nanoseconds() &- startMonotonicNanoseconds
    report.heapPeakBytes = HeapProbe.threadPeakBytes()
    if let allocationsAtStart, let now = HeapProbe.allocationCount() {
      report.allocations = now - allocationsAtStart
    }
    report.allocator = HeapProbe.allocatorName
    if let status = MemoryStatusReader.current() {
      report.peakResidentBytes = status.peakResidentBytes
      report.anonymousBytes = status.anonymousBytes
      report.fileBytes = status.fileBytes
      report.sharedMemoryBytes = status.sharedMemoryBytes
    }
    return report
  }
}
