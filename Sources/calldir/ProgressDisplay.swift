import ArgumentParser
import Foundation
import ProcessMetrics
import SystemCalls

/// `--progress`: how a long command shows where it is.
enum ProgressMode: String, ExpressibleByArgument, CaseIterable {
  /// A line redrawn in place on a terminal; nothing on a pipe.
  case auto
  /// One JSON object per update on stderr, for CI logs.
  case json
  /// Nothing but the summary.
  case none
}

/// `--progress` and `--quiet`, as every long command takes them.
struct ProgressOptions: ParsableArguments {
  @Option(
    name: .long,
    help:
      "Progress on stderr: auto (a line redrawn in place on a terminal, nothing on a pipe), json (one object per update, for CI logs) or none."
  )
  var progress: ProgressMode = .auto
  @Flag(name: .long, help: "Print nothing but the summary (no progress).")
  var quiet = false

  /// The display of `command` these options ask for.
  func display(command: String) -> ProgressDisplay {
    ProgressDisplay(command: command, mode: progress, quiet: quiet)
  }
}

/// One long command's progress on stderr: the phase, the share done, the rate and the time
/// left, redrawn in place at most ``minimumInterval`` apart on a terminal, or written as one
/// JSON object per update (`--progress json`). On a pipe, or with `--quiet`, it writes nothing.
final class ProgressDisplay {
  /// The shortest time between two redraws or JSON lines (a phase's start and end always show).
  static let minimumInterval: Duration = .milliseconds(250)

  private enum Output { case terminal, json, silent }
  private let output: Output
  private let command: String
  private let clock = ContinuousClock()
  private var lastShown: ContinuousClock.Instant?
  private var phase = ""
  private var phaseStart: ContinuousClock.Instant
  private var drewLine = false
  /// The progress line last drawn on the terminal ("" before the first).
  private var lastLine = ""
  private var detail: String?
  /// `done` when the phase began: the rate is the phase's own (a bench's later phase starts
  /// with runs already done).
  private var doneAtPhaseStart = 0

  /// The display of `command` (say "compile") in `mode`; `quiet` silences it whatever the mode.
  init(command: String, mode: ProgressMode, quiet: Bool) {
    self.command = command
    phaseStart = clock.now
    output =
      quiet || mode == .none
      ? .silent
      : mode == .json ? .json : (isatty(STDERR_FILENO) != 0 ? .terminal : .silent)
  }

  /// Shows `done` of `total` (in `unit`s) in `phase`, and `detail` (the step inside it, such as
  /// "compile, run 2 of 3") after it; rate-limited, except a phase's first and last update and
  /// a new step.
  func update(phase: String, done: Int, total: Int?, unit: String, detail: String? = nil) {
    guard output != .silent else { return }
    let now = clock.now
    let newPhase = phase != self.phase
    if newPhase {
      self.phase = phase
      phaseStart = now
      doneAtPhaseStart = done
    }
    let finished = total.map { done >= $0 } ?? false
    let newDetail = detail != self.detail
    self.detail = detail
    if !newPhase, !finished, !newDetail, let lastShown, now - lastShown < Self.minimumInterval {
      return
    }
    lastShown = now
    let elapsed =
      Double((now - phaseStart).components.attoseconds) / 1e18
      + Double((now - phaseStart).components.seconds)
    let rate = elapsed > 0 ? Double(done - doneAtPhaseStart) / elapsed : 0
    let share = total.flatMap { $0 > 0 ? min(1, Double(done) / Double($0)) : nil }
    let left = share.flatMap { share in
      rate > 0 && share < 1 ? Double(total! - done) / rate : nil
    }
    switch output {
    case .terminal:
      var line = "\(command): \(phase)"
      if let detail { line += " (\(detail))" }
      if let share { line += String(format: " %3.0f%%", share * 100) }
      line += " · \(Self.count(done)) \(unit)"
      if rate > 0 {
        line += " · \(rate >= 10 ? Self.count(Int(rate)) : String(format: "%.2f", rate))/s"
      }
      if let left { line += " · \(Self.duration(left)) left" }
      // One row, never wrapped: "\r" returns to the start of the last row only, so a line
      // wider than the terminal left its first rows behind at every redraw (issue 52, item 13).
      lastLine = Self.fitted(line, columns: TerminalWidth.columns())
      StandardError.write("\r\u{1B}[K" + lastLine)
      drewLine = true
    case .json:
      var object: [String: Any] = [
        "command": command, "phase": phase, "done": done, "unit": unit,
        "elapsed_s": (elapsed * 1000).rounded() / 1000,
        "rate_per_s": rate >= 100 ? rate.rounded() : (rate * 100).rounded() / 100,
      ]
      if let total { object["total"] = total }
      if let detail { object["step"] = detail }
      if let share { object["share"] = (share * 10_000).rounded() / 10_000 }
      if let left { object["left_s"] = left.rounded() }
      if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
        StandardError.write(String(decoding: data, as: UTF8.self) + "\n")
      }
    case .silent: break
    }
  }

  /// Draws the last progress line again (on a terminal, after a log line cleared it), so a
  /// command that logs as it goes keeps its progress in view between two updates.
  func redraw() {
    guard output == .terminal, !lastLine.isEmpty, !drewLine else { return }
    StandardError.write("\r\u{1B}[K" + lastLine)
    drewLine = true
  }

  /// Clears the terminal's progress line before the summary is printed.
  func finish() {
    if output == .terminal, drewLine { StandardError.write("\r\u{1B}[K") }
    drewLine = false
  }

  /// Runs `body` (the command's long work) and clears the progress line after it, whether it
  /// returned or threw, so a summary or an error line starts on a clean line.
  func finishing<Result>(_ body: () throws -> Result) rethrows -> Result {
    defer { finish() }
    return try body()
  }

  /// 1234567 → "1.23 M".
  static func count(_ value: Int) -> String {
    switch value {
    case 1_000_000_000...: String(format: "%.2f G", Double(value) / 1e9)
    case 1_000_000...: String(format: "%.2f M", Double(value) / 1e6)
    case 10_000...: String(format: "%.1f k", Double(value) / 1e3)
    default: String(value)
    }
  }

  /// 75 → "1:15"; 3725 → "1:02:05".
  static func duration(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded(.up))
    let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
    return hours > 0
      ? String(format: "%d:%02d:%02d", hours, minutes, rest)
      : String(format: "%d:%02d", minutes, rest)
  }
}

// Safe: every call holds `lock`.
/// A ``ProgressDisplay`` shared with `@Sendable` callbacks (an update's events arrive from its
/// task): each call holds a lock for the few microseconds it writes, never across the work.
final class SendableProgress: @unchecked Sendable {
  private let display: ProgressDisplay
  private let lock = NSLock()

  init(_ display: ProgressDisplay) { self.display = display }

  /// ``ProgressDisplay/update(phase:done:total:unit:detail:)``, under the lock.
  func update(phase: String, done: Int, total: Int?, unit: String) {
    lock.withLock { display.update(phase: phase, done: done, total: total, unit: unit) }
  }

  /// Runs `body` (a line printed) with the progress line cleared first, so the two do not mix
  /// on a terminal, and draws the progress line again after it.
  func clearingLine(_ body: () -> Void) {
    lock.withLock {
      display.finish()
      body()
      StandardStreams.flushStandardOutput()
      display.redraw()
    }
  }

  /// Clears the progress line.
  func finish() { lock.withLock { display.finish() } }
}

extension ProgressDisplay {
  /// `line` cut to fit `columns` less one (the cursor's cell), an ellipsis where it was cut.
  static func fitted(_ line: String, columns: Int) -> String {
    let room = max(columns - 1, 1)
    guard line.count > room else { return line }
    return room <= 1 ? String(line.prefix(room)) : String(line.prefix(room - 1)) + "…"
  }
}
