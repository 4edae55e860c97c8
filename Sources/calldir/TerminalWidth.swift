import Foundation
import SystemCalls

/// The width of the terminal stderr is drawn on, in columns.
enum TerminalWidth {
  /// The width a terminal gives when it cannot be asked: the VT100's.
  static let fallback = 80

  /// The terminal's width (`TIOCGWINSZ` on stderr), else `COLUMNS`, else ``fallback``.
  static func columns() -> Int {
    if let columns = StandardStreams.standardErrorColumns() { return columns }
    if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text),
      columns > 0
    {
      return columns
    }
    return fallback
  }
}
