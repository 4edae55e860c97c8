/// What an extension process measured about its own load, sent to the harness on a side channel
/// just before it exits: one line of `key=value` fields separated by spaces.
///
/// The child measures itself because a child may inherit its parent's high-water mark at `exec`
/// (proc(5)'s `VmHWM` is the process's, and exec keeps it on some kernels): its own `VmHWM` after the load is the trustworthy peak.
public struct LoadReport: Equatable, Sendable {
  /// Entries handed to the context.
  public var entries: Int = 0
  /// Monotonic time around the load, in nanoseconds.
  public var loadNanoseconds: UInt64 = 0
  /// When the load started, on `SystemCalls.MonotonicTime` (shared with the parent, which
  /// subtracts its spawn time: the bench's `startup_s`); nil from a child that did not say.
  public var startMonotonicNanoseconds: UInt64?
  /// The CPU time the process had used when the load started, in nanoseconds (exec → load
  /// start, every thread: the bench's `startup_cpu_s`); nil from a child that did not say.
  public var startCPUNanoseconds: UInt64?
  /// `VmHWM` at the end, in bytes.
  public var peakResidentBytes: Int = 0
  /// `RssAnon` at the end, in bytes.
  public var anonymousBytes: Int = 0
  /// `RssFile` at the end, in bytes.
  public var fileBytes: Int = 0
  /// `RssShmem` at the end, in bytes.
  public var sharedMemoryBytes: Int = 0
  /// jemalloc's `thread.peak` for the loading thread, in bytes; nil without jemalloc.
  public var heapPeakBytes: Int?
  /// Allocation requests during the load (jemalloc's counters); nil without jemalloc.
  public var allocations: Int?
  /// The allocator the child ran on: `jemalloc` (its heap peak is known) or `system`.
  public var allocator: String = "system"
  /// `completed`, `failed` (the context rejected an entry), `cancelled` or `error` (bad input).
  public var outcome: String = "completed"
  /// iOS's error code when the context failed the request.
  public var errorCode: Int?
  /// A one-line description of what went wrong, if anything.
  public var message: String?

  /// An empty report.
  public init() {}

  /// The report as one line (without a newline). The message, which may contain spaces, comes
  /// last.
  public func encoded() -> String {
    var fields = [
      "entries=\(entries)", "load_ns=\(loadNanoseconds)", "vm_hwm=\(peakResidentBytes)",
      "rss_anon=\(anonymousBytes)", "rss_file=\(fileBytes)", "rss_shmem=\(sharedMemoryBytes)",
      "outcome=\(outcome)", "allocator=\(allocator)",
    ]
    if let heapPeakBytes { fields.append("heap_peak=\(heapPeakBytes)") }
    if let startMonotonicNanoseconds { fields.append("start_ns=\(startMonotonicNanoseconds)") }
    if let startCPUNanoseconds { fields.append("start_cpu_ns=\(startCPUNanoseconds)") }
    if let allocations { fields.append("allocations=\(allocations)") }
    if let errorCode { fields.append("error_code=\(errorCode)") }
    if let message {
      let oneLine = message.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(
        separator: " ")
      fields.append("message=\(oneLine)")
    }
    return fields.joined(separator: " ")
  }

  /// Parses a line made by ``encoded()``; nil when it is not one.
  public init?(parsing line: String) {
    self.init()
    var sawEntries = false
    var rest = Substring(line.trimmingSuffixNewlines())
    while !rest.isEmpty {
      if rest.hasPrefix("message=") {
        message = String(rest.dropFirst("message=".count))
        break
      }
      let field: Substring
      if let space = rest.firstIndex(of: " ") {
        field = rest[..<space]
        rest = rest[rest.index(after: space)...]
      } else {
        field = rest
        rest = ""
      }
      guard let equals = field.firstIndex(of: "=") else { return nil }
      let key = field[..<equals]
      let value = String(field[field.index(after: equals)...])
      switch key {
      case "entries":
        guard let parsed = Int(value) else { return nil }
        entries = parsed
        sawEntries = true
      case "load_ns": loadNanoseconds = UInt64(value) ?? 0
      case "start_ns": startMonotonicNanoseconds = UInt64(value)
      case "start_cpu_ns": startCPUNanoseconds = UInt64(value)
      case "vm_hwm": peakResidentBytes = Int(value) ?? 0
      case "rss_anon": anonymousBytes = Int(value) ?? 0
      case "rss_file": fileBytes = Int(value) ?? 0
      case "rss_shmem": sharedMemoryBytes = Int(value) ?? 0
      case "heap_peak": heapPeakBytes = Int(value)
      case "allocations": allocations = Int(value)
      case "outcome": outcome = value
      case "allocator": allocator = value
      case "error_code": errorCode = Int(value)
      default: break  // Unknown keys from a newer child are ignored.
      }
    }
    guard sawEntries else { return nil }
  }
}

extension String {
  fileprivate func trimmingSuffixNewlines() -> Substring {
    var end = endIndex
    while end > startIndex, self[index(before: end)] == "\n" || self[index(before: end)] == "\r" {
      end = index(before: end)
    }
    return self[..<end]
  }
}
