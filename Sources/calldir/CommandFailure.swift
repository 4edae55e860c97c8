import CallDirectoryApp
import CallDirectoryHost
import ReleaseFormat

/// An error whose exit status, and the one line calldir prints for it, the command line decides.
///
/// The libraries' errors name no command or flag (an app's user has neither); their conformances
/// here add the flag that allows what was refused, and pick the documented ``ExitStatus``.
/// `Calldir.main` asks this first, then falls back to status 1 and the error's first line.
protocol CommandFailure: Error {
  /// The status and the line (without `calldir: `) for this error, or nil when it is an
  /// ordinary usage or input error: status 1 and its own first line.
  var commandFailure: (status: ExitStatus, line: String)? { get }
}

extension HostError: CommandFailure {
  /// A request the system refused or failed (7 while a load runs): 3, with iOS's code.
  var commandFailure: (status: ExitStatus, line: String)? {
    guard case .callDirectory(let failure, let detail) = self else { return nil }
    return (.requestFailed, "\(detail.isEmpty ? "\(failure)" : detail) (code \(failure.code))")
  }
}

extension ReleaseError: CommandFailure {
  /// A release that would keep under half the entries: 5, as compile's.
  var commandFailure: (status: ExitStatus, line: String)? {
    kind == .shrink ? (.shrinkRefused, "\(self). Pass --allow-shrink if that is meant") : nil
  }
}

extension ContainerAppError: CommandFailure {
  var commandFailure: (status: ExitStatus, line: String)? {
    switch kind {
    case .shrink: (.shrinkRefused, "\(self). Pass --allow-shrink if that is meant")
    case .downgrade: (.downgradeRefused, "\(self). Pass --allow-downgrade if that is meant")
    case .extensionNotEnabled: (.usageOrInput, "\(self) (calldir host enable turns it on)")
    case .system:
      // The system itself failed under a sync (the simulated store, the spawner): its own line
      // and status, as when the command called it directly.
      underlying.map { underlying in
        (underlying as? CommandFailure)?.commandFailure
          ?? (.usageOrInput, Self.firstLine(of: "\(underlying)"))
      }
    default: nil
    }
  }

  private static func firstLine(of text: String) -> String {
    text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
  }
}
