#if os(macOS)
  import Darwin

  /// A process's memory as macOS's kernel counts it (`proc_pid_rusage`, `RUSAGE_INFO_V4`):
  /// macOS has no `/proc`. Type-checked on Linux (Scripts/typecheck-ios.sh, macOS 13, against a
  /// Darwin stand-in); never run here.
  @usableFromInline package enum ProcessFootprint {
    /// The footprint (`ri_phys_footprint`, the figure jetsam kills an iOS extension by), its
    /// lifetime peak and the resident size, in bytes; nil when the process cannot be read.
    @usableFromInline package static func read(processID: Int32) -> (
      footprintBytes: Int, peakFootprintBytes: Int, residentBytes: Int
    )? {
      var info = rusage_info_v4()
      // Safe: proc_pid_rusage writes one `rusage_info_v4` (the flavor named) into `info`, lent
      // for the call; its C signature takes the struct as a `rusage_info_t *`.
      let status = unsafe withUnsafeMutablePointer(to: &info) { pointer in
        unsafe pointer.withMemoryRebound(to: rusage_info_t?.self, capacity: 1) { raw in
          unsafe proc_pid_rusage(processID, RUSAGE_INFO_V4, raw)
        }
      }
      guard status == 0 else { return nil }
      return (
        Int(clamping: info.ri_phys_footprint), Int(clamping: info.ri_lifetime_max_phys_footprint),
        Int(clamping: info.ri_resident_size)
      )
    }
  }
#endif
