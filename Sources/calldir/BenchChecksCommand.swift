import ArgumentParser
import BenchGating

/// `calldir bench checks`: every check each gate applies, from the code.
struct BenchChecksCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "checks",
    abstract: "List every check each gate applies: what it reads, what fails it, and why.",
    discussion: """
      A Markdown table made from the constants the gates read (the harness catalog shows this output, \
      and a test keeps the two the same). Exit status 0.
      """)

  func run() {
    print(GateChecks.markdown(), terminator: "")
  }
}
