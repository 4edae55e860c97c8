import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system's text for an error number (`strerror`), the one place calldir asks for it.
public enum SystemErrorText {
  /// The text of `code`, such as "No such file or directory".
  public static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  /// The text of `error`, a wrapper's `Errno`.
  public static func text(_ error: Errno) -> String { describe(error.rawValue) }

  /// The text of the calling thread's last error (`errno`).
  public static var last: String { describe(errno) }
}
