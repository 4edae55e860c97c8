#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; what C hands back that points into its own memory (getenv's
// value) is copied into Swift values before the next call, and nothing here keeps a pointer past
// its call.

/// What a process knows of itself without Foundation: its environment and its ID.
@usableFromInline package enum ProcessEnvironment {
  /// The value of the environment variable `name`, or nil when it is not set.
  @usableFromInline package static func value(_ name: String) -> String? {
    guard let value = unsafe getenv(name) else { return nil }
    return unsafe String(cString: value)
  }

  /// This process's ID (`getpid`), which names temporary files apart from other writers'.
  @usableFromInline package static var processID: Int32 { getpid() }

  /// Whether a process of ID `processID` is running (`kill(pid, 0)`: it exists, whether or not
  /// this process may signal it). A writer's files named by its ID are leftovers once it is not.
  @usableFromInline package static func isRunning(_ processID: Int32) -> Bool {
    guard processID > 0 else { return false }
    return kill(processID, 0) == 0 || errno == EPERM
  }

  /// The files this process may hold open (`RLIMIT_NOFILE`'s soft limit), raised first toward
  /// the hard limit, up to `wanted`: a merge of many runs holds one descriptor a run, and the
  /// soft limit is often far below the hard one (1,024 on Linux, 256 on macOS). Nil when the
  /// limit cannot be read.
  @usableFromInline package static func openFileLimit(raisingTo wanted: Int) -> Int? {
    #if canImport(Glibc)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    var limit = rlimit()
    guard unsafe getrlimit(resource, &limit) == 0 else { return nil }
    let target = rlim_t(max(0, wanted))
    if limit.rlim_cur < target {
      var raised = limit
      raised.rlim_cur = min(target, limit.rlim_max)
      if unsafe setrlimit(resource, &raised) == 0 { limit = raised }
    }
    return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
  }

  /// The processor cores online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1: how many threads
  /// compute-bound work can use at once.
  @usableFromInline package static var onlineCoreCount: Int {
    max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
  }
}
