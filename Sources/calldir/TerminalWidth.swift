import Foundation

/// The width of the terminal stderr is drawn on, in columns.
enum TerminalWidth {
  /// The width a terminal gives when it cannot be asked: the VT100's.
  static let fallback = 80

  /// The terminal's width (`TIOCGWINSZ` on stderr), else `COLUMNS`, else ``fallback``.
  static func columns() -> Int {
    var size = winsize()
    if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      return Int(size.ws_col)
    }
    if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text),
      columns > 0
    {
      return columns
    }
    return fallback
  }
}
