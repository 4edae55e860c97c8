#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The descriptor a measured extension writes its ``LoadReport`` to.
public enum SideChannel {
  /// The harness passes the write end of a pipe as descriptor 3, the first after stdin, stdout
  /// and stderr, so the child's standard streams stay free for its own messages.
  public static let descriptor: Int32 = 3

  /// Writes `report` and a newline to ``descriptor`` when it is open, else to stdout.
  public static func send(_ report: LoadReport) {
    let line = report.encoded() + "\n"
    let target = fcntl(descriptor, F_GETFD) >= 0 ? descriptor : STDOUT_FILENO
    var bytes = Array(line.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { raw in
        write(target, raw.baseAddress! + offset, raw.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}
