import SystemPackage

/// The descriptor a measured extension writes its ``LoadReport`` to.
public enum SideChannel {
  /// The harness passes the write end of a pipe as descriptor 3, the first after stdin, stdout
  /// and stderr, so the child's standard streams stay free for its own messages.
  public static let descriptor: Int32 = 3

  /// Writes `report` and a newline to ``descriptor`` when it is open, else to stdout.
  /// swift-system's `writeAll` retries interrupted and short writes.
  public static func send(_ report: LoadReport) {
    let bytes = Array((report.encoded() + "\n").utf8)
    do {
      _ = try FileDescriptor(rawValue: descriptor).writeAll(bytes)
    } catch Errno.badFileDescriptor {
      _ = try? FileDescriptor.standardOutput.writeAll(bytes)
    } catch {
      // The harness went away: nobody is left to read the report.
    }
  }
}
