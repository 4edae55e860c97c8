import Foundation
import ProcessSpawning
import SystemCalls

/// SIGINT and SIGTERM end a long command cleanly (issue 52, item 9): the scratch this process
/// made in the folders its command named (temporary files beside outputs, a compile's runs, a
/// bench's work folder) is removed, one line says so, and the exit status is 130 or 143, as a
/// shell reports a process those signals ended. What a SIGKILL leaves, the next run of the same
/// command removes (``watch(_:)``).
enum Interruption {
  // Safe: every access holds `lock`.
  /// The folders a command writes scratch into, shared with the signal handlers' queue.
  private final class Folders: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var folders: [(path: String, depth: Int)] = []
    func add(_ more: [String], depth: Int) {
      lock.withLock { folders += more.map { ($0, depth) } }
    }
    var all: [(path: String, depth: Int)] { lock.withLock { folders } }
    /// What a command that cancels its work asked to run on the first signal, and that signal.
    private var canceller: (@Sendable () -> Void)?
    private var cancelledBy: Int32?
    func setCanceller(_ cancel: @escaping @Sendable () -> Void) {
      lock.withLock { canceller = cancel }
    }
    /// The canceller the first signal runs (nil: none set, or a signal came already).
    func takeCanceller(for signalNumber: Int32) -> (@Sendable () -> Void)? {
      lock.withLock {
        guard cancelledBy == nil, let cancel = canceller else { return nil }
        cancelledBy = signalNumber
        return cancel
      }
    }
    var signalReceived: Int32? { lock.withLock { cancelledBy } }
    /// The signal sources, kept for the life of the process.
    private var sources: [any DispatchSourceSignal] = []
    func keep(_ source: any DispatchSourceSignal) { lock.withLock { sources.append(source) } }
  }
  private static let folders = Folders()

  /// Installs the handlers; call once, first thing in `main`.
  static func install() {
    for (signalNumber, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler {
        // A command that cancels its own work (app update: its task stops between files and
        // leaves the container as it was) is asked to on the first signal; a second one ends
        // the process as for any other command.
        if let cancel = folders.takeCanceller(for: signalNumber) {
          cancel()
          return
        }
        // The children first (an extension, a compile's sort): they are in process groups of
        // their own, which the signal did not reach.
        RunningChildren.killAll()
        var removed = 0
        for folder in folders.all {
          removed += Leftovers.removeOwn(in: folder.path, depth: folder.depth)
        }
        let name = signalNumber == SIGINT ? "SIGINT" : "SIGTERM"
        StandardError.write(
          "calldir: interrupted by \(name); removed \(removed) scratch file\(removed == 1 ? "" : "s") and folders this run made\n"
        )
        exit(status)
      }
      source.resume()
      folders.keep(source)
    }
  }

  /// Makes the first SIGINT or SIGTERM run `cancel` instead of ending the process: the command
  /// then stops its work itself and calls ``exitIfInterrupted(saying:)``.
  static func cancelOnSignal(_ cancel: @escaping @Sendable () -> Void) {
    folders.setCanceller(cancel)
  }

  /// When a signal cancelled the command's work: writes `message` after the signal's name on
  /// one line and exits 130 (SIGINT) or 143 (SIGTERM). Otherwise returns.
  static func exitIfInterrupted(saying message: String) {
    guard let signalNumber = folders.signalReceived else { return }
    let name = signalNumber == SIGINT ? "SIGINT" : "SIGTERM"
    StandardError.write("calldir: interrupted by \(name); \(message)\n")
    exit(signalNumber == SIGINT ? 130 : 143)
  }

  /// Names the folders this command writes scratch into: its own is removed on an
  /// interruption, and what killed runs of any command left there is removed now.
  static func watch(_ paths: [String]) {
    watch(paths, depth: 0)
  }

  /// ``watch(_:)`` for `paths` and the folders below them down to `depth` levels (a cache of
  /// datasets, each with its containers).
  static func watch(_ paths: [String], depth: Int) {
    folders.add(paths, depth: depth)
    for path in paths { Leftovers.removeAbandoned(in: path, depth: depth) }
  }
}
