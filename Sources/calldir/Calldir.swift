import ArgumentParser
import CallDirectoryApp
import CallDirectoryHost
import FaultInjection
import Foundation
import ReleaseFormat

/// `calldir`: compile, load, simulate and benchmark Call Directory data.
@main
struct Calldir: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calldir",
    abstract: "Get millions of phone numbers into a Call Directory extension, fast and small.",
    discussion: ExitStatus.summary,
    subcommands: [
      BenchCommand.self, ChartCommand.self, GenerateCommand.self, HostCommand.self, AppCommand.self,
      NormalizeCommand.self, CompileCommand.self, InspectCommand.self, PublishCommand.self,
      ExportCommand.self, HistoryCommand.self,
    ])

  /// Runs the command with this tool's exit statuses: ArgumentParser uses 64 for usage errors and
  /// prints the usage after them; calldir promises one line and status 1 for any usage or input
  /// error, and keeps 2 for a failed gate.
  static func main() async {
    FaultInjection.install()
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      let code = exitCode(for: error)
      if code == .success {
        print(fullMessage(for: error))
        exit(withError: nil)
      }
      if let exitCode = error as? ExitCode {
        Foundation.exit(exitCode.rawValue)
      }
      // The system refused or failed a request (7 while a load runs): 3, as a failed one.
      if case HostError.callDirectory(let failure, let detail) = error {
        let line = "calldir: \(detail.isEmpty ? "\(failure)" : detail) (code \(failure.code))\n"
        FileHandle.standardError.write(Data(line.utf8))
        Foundation.exit(ExitStatus.requestFailed.rawValue)
      }
      // A release or an update that would keep under half the entries: 5, as compile's. The
      // libraries' messages name no flag (an app's user has none); the command line adds it.
      if (error as? ReleaseError)?.kind == .shrink || (error as? ContainerAppError)?.kind == .shrink
      {
        FileHandle.standardError.write(
          Data("calldir: \(error). Pass --allow-shrink if that is meant\n".utf8))
        Foundation.exit(ExitStatus.shrinkRefused.rawValue)
      }
      // The system itself failed under a sync (the simulated store, the spawner): its own
      // line and status, as when the command called it directly.
      if let appError = error as? ContainerAppError, appError.kind == .system,
        let underlying = appError.underlying
      {
        if case HostError.callDirectory(let failure, let detail) = underlying {
          let line = "calldir: \(detail.isEmpty ? "\(failure)" : detail) (code \(failure.code))\n"
          FileHandle.standardError.write(Data(line.utf8))
          Foundation.exit(ExitStatus.requestFailed.rawValue)
        }
        let line = "calldir: \(underlying)".split(whereSeparator: \.isNewline).first ?? ""
        FileHandle.standardError.write(Data((line + "\n").utf8))
        Foundation.exit(ExitStatus.usageOrInput.rawValue)
      }
      if let appError = error as? ContainerAppError, appError.kind == .extensionNotEnabled {
        FileHandle.standardError.write(
          Data("calldir: \(appError) (calldir host enable turns it on)\n".utf8))
        Foundation.exit(ExitStatus.usageOrInput.rawValue)
      }
      let message =
        self.message(for: error)
        .split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
      FileHandle.standardError.write(Data("calldir: \(message)\n".utf8))
      Foundation.exit(ExitStatus.usageOrInput.rawValue)
    }
  }
}
