import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; what C hands back that points into its own memory
// (strerror's text) is copied into Swift values before the next call, and nothing here keeps a
// pointer past its call.

/// The system's text for an error number (`strerror`), the one place calldir asks for it.
@usableFromInline package enum SystemErrorText {
  /// The text of `code`, such as "No such file or directory".
  @usableFromInline package static func describe(_ code: Int32) -> String {
    unsafe String(cString: strerror(code))
  }

  /// The text of `error`, a wrapper's `Errno`.
  @usableFromInline package static func text(_ error: Errno) -> String { describe(error.rawValue) }

  /// The text of the calling thread's last error (`errno`).
  @usableFromInline package static var last: String { describe(errno) }
}
