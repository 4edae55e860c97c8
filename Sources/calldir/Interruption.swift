import Foundation
import SystemCalls

/// SIGINT and SIGTERM end a long command cleanly (issue 52, item 9): the scratch this process
/// made in the folders its command named (temporary files beside outputs, a compile's runs, a
/// bench's work folder) is removed, one line says so, and the exit status is 130 or 143, as a
/// shell reports a process those signals ended. What a SIGKILL leaves, the next run of the same
/// command removes (``watch(_:)``).
enum Interruption {
  /// The folders a command writes scratch into, shared with the signal handlers' queue.
  private final class Folders: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var folders: [String] = []
    func add(_ more: [String]) { lock.withLock { folders += more } }
    var all: [String] { lock.withLock { folders } }
  }
  private static let folders = Folders()
  /// The signal sources, kept for the life of the process.
  nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

  /// Installs the handlers; call once, first thing in `main`.
  static func install() {
    for (signalNumber, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler {
        var removed = 0
        for folder in folders.all { removed += Leftovers.removeOwn(in: folder) }
        let name = signalNumber == SIGINT ? "SIGINT" : "SIGTERM"
        StandardError.write(
          "calldir: interrupted by \(name); removed \(removed) scratch file\(removed == 1 ? "" : "s") and folders this run made\n"
        )
        exit(status)
      }
      source.resume()
      sources.append(source)
    }
  }

  /// Names the folders this command writes scratch into: its own is removed on an
  /// interruption, and what killed runs of any command left there is removed now.
  static func watch(_ paths: [String]) {
    folders.add(paths)
    for path in paths { Leftovers.removeAbandoned(in: path) }
  }
}
