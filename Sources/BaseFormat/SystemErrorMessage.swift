#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C library's message for an `errno` value (`strerror`).
func systemErrorMessage(_ errno: Int32) -> String {
  guard let message = strerror(errno) else { return "error \(errno)" }
  return String(cString: message)
}
