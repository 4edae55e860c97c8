/// Figures the system imposes on a Call Directory extension (Apple's CallKit documentation, iOS 26.1's loader and the field reports named below).
public enum SystemLimits {
  /// The value iOS's loader is created with (`maximumAllowedEntries: 2000000`). A batch is rejected
  /// when `count + added >= maximumAllowedEntries`, so at most ``maximumEntriesPerLoad`` fit.
  public static let maximumAllowedEntries = 2_000_000

  /// The most entries one load can hold: 1,999,999 (one less than ``maximumAllowedEntries``).
  public static let maximumEntriesPerLoad = maximumAllowedEntries - 1

  /// Entries collected inside the extension before one synchronous XPC flush to the system
  /// service (CallKit's internal buffer of 10,000 entries).
  public static let entriesPerBatch = 10_000

  /// The memory the extension should stay under: 2GIS advise "better not exceed 5 MB". Unverified
  /// on a device, so it is a parameter everywhere; this is its default, in bytes (5 MiB).
  public static let defaultMemoryLimitBytes = 5 * 1024 * 1024
}
