import ByteCoding
import SystemCalls

#if os(macOS)
  /// Reads a process's memory through `proc_pid_rusage` (macOS has no `/proc`): the footprint is
  /// `ri_phys_footprint`, the figure jetsam kills an iOS extension by, the peak
  /// `ri_lifetime_max_phys_footprint`. Type-checked on Linux (Scripts/typecheck-ios.sh, macOS
  /// 13, against a Darwin stand-in); never run here.
  public final class MemoryStatusReader {
    private let processID: Int32

    /// A reader of `processID`, or of this process when nil; nil when it cannot be read.
    public init?(processID: Int32? = nil) {
      self.processID = processID ?? ProcessEnvironment.processID
      guard read() != nil else { return nil }
    }

    /// A fresh reading, or nil when the process is gone.
    public func read() -> MemoryStatus? {
      guard let footprint = ProcessFootprint.read(processID: processID) else { return nil }
      // The footprint stands where Linux's RssAnon does, so `footprintBytes` is it.
      return MemoryStatus(
        peakResidentBytes: footprint.peakFootprintBytes, residentBytes: footprint.residentBytes,
        anonymousBytes: footprint.footprintBytes)
    }

    /// This process's status right now, or nil when it cannot be read.
    public static func current() -> MemoryStatus? {
      MemoryStatusReader()?.read()
    }
  }
#else
  /// Reads `/proc/PID/status` repeatedly through one open descriptor and one fixed buffer, so a
  /// sampler can poll another process at kilohertz rates without allocating.
  public final class MemoryStatusReader {
    /// `/proc/PID/status` is about 1.5 KiB; 4 KiB holds it with room to spare.
    private static let bufferByteCount = 4096
    private let descriptor: Int32
    /// Allocated once: each reading fills it in place.
    private var buffer = [UInt8](repeating: 0, count: bufferByteCount)

    /// Opens the status file of `processID`, or of this process when nil.
    /// Returns nil when the file cannot be opened (no such process, or not Linux).
    public init?(processID: Int32? = nil) {
      let path = processID.map { "/proc/\($0)/status" } ?? "/proc/self/status"
      guard let descriptor = try? PositionalRead.open(path) else { return nil }
      self.descriptor = descriptor
    }

    deinit { PositionalRead.close(descriptor) }

    /// A fresh reading, or nil when the process is gone.
    public func read() -> MemoryStatus? {
      // /proc regenerates the file's text on every read from offset 0.
      guard let count = try? PositionalRead.read(descriptor, into: &buffer, at: 0), count > 0
      else { return nil }
      return buffer.withByteView { MemoryStatus(parsing: $0.rebased(0..<count)) }
    }

    /// This process's status right now, or nil where `/proc` is unavailable.
    public static func current() -> MemoryStatus? {
      MemoryStatusReader()?.read()
    }
  }
#endif
