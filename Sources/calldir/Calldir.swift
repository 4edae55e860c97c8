import ArgumentParser
import CallDirectoryApp
import CallDirectoryCore
import CallDirectoryHost
import FaultInjection
import Foundation
import ReleaseFormat
import SystemCalls
import SystemPackage

/// `calldir`: compile, load, simulate and benchmark Call Directory data.
@main
struct Calldir: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calldir",
    abstract: "Get millions of phone numbers into a Call Directory extension, fast and small.",
    discussion: ExitStatus.summary,
    version: CalldirVersion.current,
    subcommands: [
      BenchCommand.self, GateCommand.self, ChartCommand.self, GenerateCommand.self,
      HostCommand.self, AppCommand.self,
      NormalizeCommand.self, CompileCommand.self, PlanCommand.self, FeedCommand.self,
      InspectCommand.self,
      LookupCommand.self,
      PublishCommand.self,
      ExportCommand.self, HistoryCommand.self,
    ])

  /// The environment variable that makes calldir stop once its arguments are parsed and
  /// validated (exit 0), or refused (exit 1).
  static let parseOnlyVariable = "CALLDIR_PARSE_ONLY"

  /// Runs the command with this tool's exit statuses: ArgumentParser uses 64 for usage errors and
  /// prints the usage after them; calldir promises one line and status 1 for any usage or input
  /// error, and keeps 2 for a failed gate.
  static func main() async {
    // Before anything opens a file: a closed 0, 1 or 2 would be handed to it (issue 52, item 8).
    StandardStreams.prepare()
    Interruption.install()
    FaultInjection.install()
    do {
      var command = try parseAsRoot()
      // A test hook, as CALLDIR_FAULT_AT is: parse and validate the arguments, run nothing.
      // The tests walk every option the parser knows with absurd values this way, without
      // starting hour-long benches (issue 52, item 12).
      if ProcessEnvironment.value(parseOnlyVariable) == "1" { return }
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
      // A result printed into a closed pipe or a full disk is not a success.
      guard StandardStreams.finishStandardOutput() else {
        // A reader that went away (`| head`) asked for no more: quiet, 141, as SIGPIPE.
        if StandardStreams.lastFailureWasClosedPipe {
          Foundation.exit(ExitStatus.outputClosed.rawValue)
        }
        StandardError.write(
          "calldir: cannot write to stdout: \(SystemErrorText.last) (the command's work is done; what it printed is lost)\n"
        )
        Foundation.exit(ExitStatus.usageOrInput.rawValue)
      }
    } catch let error as Errno where error == .brokenPipe {
      Foundation.exit(ExitStatus.outputClosed.rawValue)
    } catch {
      let code = exitCode(for: error)
      if code == .success {
        print(fullMessage(for: error))
        exit(withError: nil)
      }
      if let exitCode = error as? ExitCode {
        Foundation.exit(exitCode.rawValue)
      }
      // The statuses other than 1 and the lines that name a flag (see `CommandFailure`).
      if let failure = (error as? CommandFailure)?.commandFailure {
        StandardError.write("calldir: \(failure.line)\n")
        Foundation.exit(failure.status.rawValue)
      }
      let message =
        self.message(for: error)
        .split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
      StandardError.write("calldir: \(message)\n")
      Foundation.exit(ExitStatus.usageOrInput.rawValue)
    }
  }
}
