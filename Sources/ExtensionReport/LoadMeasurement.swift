import HeapProbe
import ProcessMetrics
import SystemCalls

/// Measures one load from inside the extension process: a monotonic clock around it, the heap
/// high-water mark of the loading thread, and the process's memory status at the end.
public struct LoadMeasurement {
  /// jemalloc's allocation count when the load started.
  private let allocationsAtStart: Int?
  /// The machine's monotonic clock when the load started (``SystemCalls/MonotonicTime``).
  private let startMonotonicNanoseconds: UInt64

  /// Starts measuring: resets jemalloc's thread peak and reads the clock.
  public init() {
    HeapProbe.resetThreadPeak()
    allocationsAtStart = HeapProbe.allocationCount()
    startMonotonicNanoseconds = MonotonicTime.nanoseconds()
  }

  /// Stops measuring and fills in the timing and memory fields of a report.
  /// - Parameter entries: entries handed to the context.
  public func finish(entries: Int) -> LoadReport {
    var report = LoadReport()
    report.entries = entries
    report.startMonotonicNanoseconds = startMonotonicNanoseconds
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
