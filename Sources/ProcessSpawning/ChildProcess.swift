import Foundation
import ProcessMetrics
import SystemCalls
import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; C hands back no pointer into its own memory (posix_spawn's
// actions and attributes are destroyed by the defers that follow their init), and nothing here
// keeps a pointer past its call.

/// Runs one child process the way the system runs an extension: spawned with `posix_spawn`, its
/// footprint (`RssAnon + RssShmem`) sampled from `/proc/PID/status` at over 1 kHz, killed with
/// SIGKILL when it passes the memory limit or the time limit, and reaped with `wait4` for its CPU
/// times. By default a pipe on descriptor 3 carries the child's own report; the host passes its
/// request pipes instead and pumps them from ``IO/onTick`` between samples.
///
/// Written on `posix_spawn`/`wait4` rather than Foundation's `Process` or swift-subprocess because
/// the harness needs the child's rusage from `wait4`, a descriptor 3 of its choosing, and the pid
/// from the first microsecond to poll it, which neither exposes.
public enum ChildProcess {
  /// Limits the parent enforces while the child runs.
  public struct Limits: Sendable {
    /// Kill the child when its footprint passes this many bytes; nil for no limit.
    public var memoryLimitBytes: Int?
    /// Kill the child after this many seconds of wall time.
    public var timeoutSeconds: Double
    /// Pause between two samples, in microseconds (the read itself takes some tens more).
    public var sampleIntervalMicroseconds: UInt32
    /// The clock the time limit is measured on: the system's, or a test's that advances by
    /// sample rather than by second, so a timeout test does not depend on the machine's speed.
    public var clock: MonotonicClock = .system

    /// Creates limits.
    public init(
      memoryLimitBytes: Int?, timeoutSeconds: Double, sampleIntervalMicroseconds: UInt32 = 700
    ) {
      self.memoryLimitBytes = memoryLimitBytes
      self.timeoutSeconds = timeoutSeconds
      self.sampleIntervalMicroseconds = sampleIntervalMicroseconds
    }
  }

  /// Descriptors to hand the child and work to do between samples. Not `Sendable`: `onTick`
  /// holds the caller's own state and runs on the caller's thread, between samples.
  public struct IO {
    /// Child descriptor → parent descriptor, duplicated into the child at spawn.
    public var descriptors: [Int32: Int32]
    /// Wait on this descriptor between samples (woken as soon as it is readable) instead of
    /// sleeping.
    public var wakeDescriptor: Int32?
    /// Called after every sample; returning a reason kills the child (recorded as `.requested`).
    public var onTick: (() -> String?)?
    /// Read the child's report from descriptor 3 (bench); off when `descriptors` claims 3.
    public var capturesReport: Bool

    /// Bench's IO: the report pipe on descriptor 3 and nothing else.
    public static var report: IO {
      IO(
        descriptors: [:], wakeDescriptor: nil, onTick: nil, capturesReport: true)
    }

    public init(
      descriptors: [Int32: Int32], wakeDescriptor: Int32?, onTick: (() -> String?)?,
      capturesReport: Bool
    ) {
      self.descriptors = descriptors
      self.wakeDescriptor = wakeDescriptor
      self.onTick = onTick
      self.capturesReport = capturesReport
    }
  }

  /// Why the parent killed the child.
  public enum KillReason: String, Sendable {
    /// Its footprint passed the memory limit.
    case memory
    /// It ran past the time limit.
    case timeout
    /// The caller's ``IO/onTick`` asked for it.
    case requested
  }

  /// What happened to the child.
  public struct Outcome: Sendable {
    /// The exit status, when it exited.
    public var exitCode: Int32?
    /// The signal that ended it, when one did.
    public var signal: Int32?
    /// Set when the parent killed it.
    public var killedFor: KillReason?
    /// Spawn to reap, in seconds.
    public var wallSeconds: Double
    /// User CPU time from `wait4`, in seconds.
    public var userSeconds: Double
    /// System CPU time from `wait4`, in seconds.
    public var systemSeconds: Double
    /// `ru_maxrss` from `wait4`, in bytes.
    public var maxResidentBytes: Int
    /// The highest footprint sampled, in bytes.
    public var sampledFootprintPeakBytes: Int
    /// The highest `VmHWM` sampled, in bytes.
    public var sampledPeakResidentBytes: Int
    /// How many samples were taken.
    public var sampleCount: Int
    /// The first line the child wrote on descriptor 3, if any.
    public var report: String?
    /// What the child wrote on stderr (at most the first 4 KiB).
    public var standardError: String
    /// Why ``IO/onTick`` asked for the kill, if it did.
    public var requestedKillReason: String?
    /// When the child was spawned: the machine's monotonic clock
    /// (`SystemCalls.MonotonicTime`) just before `posix_spawn`, in nanoseconds.
    public var spawnedAtNanoseconds: UInt64 = 0

    /// Samples per second of wall time.
    public var sampleRate: Double { wallSeconds > 0 ? Double(sampleCount) / wallSeconds : 0 }
  }

  /// A child that could not be started.
  public struct SpawnError: Error, CustomStringConvertible {
    /// The message.
    public let description: String
  }

  /// Runs `executable` with `arguments` under `limits` and waits for it.
  /// - Parameter environment: the child's environment (`KEY=value`); nil inherits this process's.
  /// - Throws: ``SpawnError`` when it cannot be started (missing or not executable).
  public static func run(
    executable: String, arguments: [String], limits: Limits, io: IO = .report,
    environment: [String]? = nil
  ) throws -> Outcome {
    var (reportRead, reportWrite): (Int32, Int32) = (-1, -1)
    if io.capturesReport {
      do {
        (reportRead, reportWrite) = try Pipe.make()
      } catch {
        throw SpawnError(description: "pipe failed: \(error)")
      }
      _ = fcntl(reportRead, F_SETFD, FD_CLOEXEC)
    }
    defer { if reportRead >= 0 { close(reportRead) } }
    // The child's stderr goes to a file no name points to: created, then unlinked at once, and
    // read back through the descriptor kept here. A named one (`calldir-child-PID-N.err`) was
    // left in the temporary folder by every interrupted `app sync` and `host enable` (issue 65,
    // item 14).
    let stderrPath =
      NSTemporaryDirectory() + "calldir-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).err"
    let stderrDescriptor = unsafe open(
      stderrPath, O_RDWR | O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC, 0o600)
    unsafe unlink(stderrPath)
    guard stderrDescriptor >= 0 else {
      throw SpawnError(
        description:
          "cannot create the child's stderr in \(NSTemporaryDirectory()): \(SystemErrorText.last)")
    }
    defer { close(stderrDescriptor) }

    let (processID, started, spawnedAt) = try RunningChildren.spawning {
      try spawn(
        executable: executable, arguments: arguments, environment: environment, io: io,
        reportWrite: reportWrite, stderrDescriptor: stderrDescriptor, clock: limits.clock)
    }
    defer { RunningChildren.ended(processID) }
    var outcome = Outcome(
      exitCode: nil, signal: nil, killedFor: nil, wallSeconds: 0, userSeconds: 0, systemSeconds: 0,
      maxResidentBytes: 0, sampledFootprintPeakBytes: 0, sampledPeakResidentBytes: 0,
      sampleCount: 0, report: nil, standardError: "", requestedKillReason: nil)
    outcome.spawnedAtNanoseconds = spawnedAt
    let (waitStatus, usage) = supervise(processID, limits: limits, io: io, outcome: &outcome)
    // What the child left behind in its group goes with it: the system ends an extension's
    // whole process, and an orphan holding the pipes would keep the reads below waiting.
    killGroup(processID)
    // A final pump: frames the child wrote just before exiting.
    if outcome.killedFor == nil, let reason = io.onTick?() {
      outcome.requestedKillReason = reason
    }
    outcome.wallSeconds = limits.clock.seconds(since: started)
    record(waitStatus, usage, into: &outcome)
    if reportRead >= 0 { outcome.report = readFirstLine(reportRead) }
    outcome.standardError = readStart(of: stderrDescriptor, byteCount: 4096)
    return outcome
  }

  /// Starts the child with its descriptors: stdin and stdout on /dev/null unless `io` gives
  /// them, stderr onto `stderrDescriptor`, the report pipe's write end as descriptor 3.
  /// - Returns: its process ID, and when it was spawned: on `clock` (the limits' clock, for the
  ///   wall time and the timeout) and on the machine's monotonic clock the child reads its load
  ///   start on.
  /// - Throws: ``SpawnError`` when it cannot be started.
  private static func spawn(
    executable: String, arguments: [String], environment: [String]?, io: IO, reportWrite: Int32,
    stderrDescriptor: Int32, clock: MonotonicClock
  ) throws -> (processID: pid_t, started: UInt64, spawnedAt: UInt64) {
    var actions = unsafe posix_spawn_file_actions_t()
    unsafe posix_spawn_file_actions_init(&actions)
    defer { unsafe posix_spawn_file_actions_destroy(&actions) }
    unsafe posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    unsafe posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    unsafe posix_spawn_file_actions_adddup2(&actions, stderrDescriptor, 2)
    if io.capturesReport { unsafe posix_spawn_file_actions_adddup2(&actions, reportWrite, 3) }
    for (childDescriptor, parentDescriptor) in io.descriptors.sorted(by: { $0.key < $1.key }) {
      unsafe posix_spawn_file_actions_adddup2(&actions, parentDescriptor, childDescriptor)
    }

    // Safe: each string is strdup'd here and freed by the defer below, after posix_spawn has
    // copied them into the child; the arrays end with the nil that execve's lists need.
    let argv: [UnsafeMutablePointer<CChar>?] =
      unsafe ([executable] + arguments).map { unsafe strdup($0) } + [nil]
    defer { for index in unsafe argv.indices { unsafe free(argv[index]) } }
    let envp: [UnsafeMutablePointer<CChar>?]? =
      unsafe environment.map { unsafe $0.map { unsafe strdup($0) } + [nil] }
    defer { for index in unsafe (envp ?? []).indices { unsafe free(envp![index]) } }
    var processID: pid_t = 0
    let started = clock.nanoseconds()
    // Read on the clock the child reads when its load starts (`startup_s`), not Dispatch's.
    let spawnedAt = MonotonicTime.nanoseconds()
    // glibc's posix_spawn returns once the child has begun its exec, but Linux wakes a vfork
    // parent (exec_mmap's exec_mm_release) before it switches the child's address space: the
    // first samples may still read ours. `supervise` skips them (``sharesParentAddressSpace``).
    // In a process group of its own: a child that leaves a grandchild (a script's `sleep`)
    // is killed with it, or the orphan would hold the report pipe open and hang the read.
    var attributes = posix_spawnattr_t()
    unsafe posix_spawnattr_init(&attributes)
    defer { unsafe posix_spawnattr_destroy(&attributes) }
    unsafe posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    unsafe posix_spawnattr_setpgroup(&attributes, 0)
    let spawnStatus: Int32
    if let envp = unsafe envp {
      spawnStatus = unsafe posix_spawn(&processID, executable, &actions, &attributes, argv, envp)
    } else {
      spawnStatus = unsafe posix_spawn(&processID, executable, &actions, &attributes, argv, environ)
    }
    if reportWrite >= 0 { close(reportWrite) }
    guard spawnStatus == 0 else {
      throw SpawnError(
        description: "cannot start \(executable): \(SystemErrorText.describe(spawnStatus))")
    }
    return (processID, started, spawnedAt)

  }

  /// Whether a sample of the child reads the parent's own address space: Linux wakes a vfork
  /// parent before the child's exec switches its `mm`, and in that window `/proc/CHILD/status`
  /// gives the parent's figures. One such sample, the bench's 15 MiB, killed an extension of
  /// 1.4 MiB at the 5 MiB limit on a loaded machine (1 of 578 two-phase runs). A shared `mm`
  /// has one high-water mark (`VmHWM`, which moves far less often than the resident figures
  /// between the two reads); after the exec the child's is its own image's, far below ours.
  static func sharesParentAddressSpace(child: MemoryStatus, parent: MemoryStatus?) -> Bool {
    guard let parent else { return false }
    return child.peakResidentBytes == parent.peakResidentBytes
  }

  /// Samples the child until it exits, killing it at the memory limit, the timeout, or when
  /// ``IO/onTick`` asks; records the samples and the kill in `outcome`.
  /// - Returns: the status word and resource usage `wait4` reported.
  private static func supervise(
    _ processID: pid_t, limits: Limits, io: IO, outcome: inout Outcome
  ) -> (waitStatus: Int32, usage: rusage) {
    let statusReader = MemoryStatusReader(processID: processID)
    let ownReader = MemoryStatusReader()
    // Until the child's status stops being ours, it has not switched to its own address space.
    var execConfirmed = false
    // A limit from a flag may be huge or infinite: past about 300 years it is no limit, and the
    // conversion to nanoseconds must not trap.
    let timeoutNanoseconds =
      limits.timeoutSeconds > 0 && limits.timeoutSeconds < 1e10
      ? UInt64(limits.timeoutSeconds * 1e9) : (limits.timeoutSeconds > 0 ? UInt64.max / 2 : 0)
    let deadline = limits.clock.nanoseconds() &+ timeoutNanoseconds
    var waitStatus: Int32 = 0
    var usage = rusage()
    while true {
      if let status = statusReader?.read(), status.peakResidentBytes > 0,
        execConfirmed || !sharesParentAddressSpace(child: status, parent: ownReader?.read())
      {
        execConfirmed = true
        outcome.sampleCount += 1
        outcome.sampledFootprintPeakBytes = max(
          outcome.sampledFootprintPeakBytes, status.footprintBytes)
        outcome.sampledPeakResidentBytes = max(
          outcome.sampledPeakResidentBytes, status.peakResidentBytes)
        if let limit = limits.memoryLimitBytes, status.footprintBytes > limit,
          outcome.killedFor == nil
        {
          killGroup(processID)
          outcome.killedFor = .memory
        }
      }
      if outcome.killedFor == nil, limits.clock.nanoseconds() > deadline {
        killGroup(processID)
        outcome.killedFor = .timeout
      }
      if outcome.killedFor == nil, let reason = io.onTick?() {
        killGroup(processID)
        outcome.killedFor = .requested
        outcome.requestedKillReason = reason
      }
      let reaped = unsafe wait4(processID, &waitStatus, WNOHANG, &usage)
      if reaped == processID { break }
      // WNOHANG never blocks, so no signal can interrupt it: an error here is ECHILD.
      if reaped < 0 { break }
      if let wake = io.wakeDescriptor {
        var descriptor = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
        let milliseconds = max(1, Int32(limits.sampleIntervalMicroseconds / 1000))
        if unsafe poll(&descriptor, 1, milliseconds) > 0 && descriptor.revents & Int16(POLLHUP) != 0
          && descriptor.revents & Int16(POLLIN) == 0
        {
          usleep(limits.sampleIntervalMicroseconds)  // Closed: nothing more will wake us.
        }
      } else {
        usleep(limits.sampleIntervalMicroseconds)
      }
    }
    return (waitStatus, usage)
  }

  /// Records the exit: CPU times, peak RSS, and the exit code or terminating signal.
  private static func record(_ waitStatus: Int32, _ usage: rusage, into outcome: inout Outcome) {
    outcome.userSeconds = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    outcome.systemSeconds = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    #if os(Linux)
      outcome.maxResidentBytes = Int(usage.ru_maxrss) * 1024  // KiB on Linux
    #else
      outcome.maxResidentBytes = Int(usage.ru_maxrss)  // bytes on macOS
    #endif
    // WIFEXITED / WTERMSIG are macros Swift does not import: decode the status word by hand.
    let terminatingSignal = waitStatus & 0x7f
    if terminatingSignal == 0 {
      outcome.exitCode = (waitStatus >> 8) & 0xff
    } else {
      outcome.signal = terminatingSignal
    }
  }

  /// Sends SIGKILL to the child's process group (its ID), and to the child itself should it have
  /// left the group.
  /// The first `byteCount` bytes of the file `descriptor` is open on, as text.
  private static func readStart(of descriptor: Int32, byteCount: Int) -> String {
    var bytes = [UInt8](repeating: 0, count: byteCount)
    let read = unsafe bytes.withUnsafeMutableBytes {
      unsafe pread(descriptor, $0.baseAddress, byteCount, 0)
    }
    return String(decoding: bytes.prefix(max(0, read)), as: UTF8.self)
  }

  private static func killGroup(_ processID: pid_t) {
    kill(-processID, SIGKILL)
    kill(processID, SIGKILL)
  }

  /// How long the report pipe is read after the child's exit: a descendant that left the
  /// child's process group may hold it open, and reading stops then rather than waits for it.
  static let reportGraceMilliseconds: Int32 = 1_000

  /// The first line on `descriptor`, read to EOF (the child has exited, so EOF comes at once,
  /// unless a descendant outside its group holds the pipe: then at most
  /// ``reportGraceMilliseconds``); at most ``reportByteLimit`` bytes. swift-system's `read`
  /// retries interrupted calls.
  private static func readFirstLine(_ descriptor: Int32) -> String? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    let deadline = MonotonicTime.nanoseconds() &+ UInt64(reportGraceMilliseconds) * 1_000_000
    while bytes.count < reportByteLimit {
      let now = MonotonicTime.nanoseconds()
      guard now < deadline else { break }
      var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let left = Int32(clamping: (deadline - now) / 1_000_000 + 1)
      if unsafe poll(&ready, 1, left) <= 0 { break }
      let count = unsafe chunk.withUnsafeMutableBytes {
        unsafe (try? FileDescriptor(rawValue: descriptor).read(into: $0)) ?? 0
      }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[..<count])
    }
    guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
      return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
    return String(decoding: bytes[..<newline], as: UTF8.self)
  }

  /// A report is one line of a few hundred bytes; more is a misbehaving child, not read further.
  static let reportByteLimit = 65536
}
