/// What may watch the durable steps (`DurableStep`): nothing, in what an app links. The
/// command-line tools install the `FaultInjection` module's observer at start, so a test can
/// end them just before any step or fail it as a failing disk would; that module is linked by
/// the tools only, never by the libraries an app or its extension links.
@usableFromInline package protocol DurableStepObserving: Sendable {
  /// Called just before each durable step (`what`: "fsync PATH", "rename A → B").
  /// - Returns: an `errno` to fail the step with, when `canFail`; nil to take it.
  func beforeStep(_ what: () -> String, canFail: Bool) -> Int32?
}

extension DurableStep {
  // Safe: set once at the start of `main`, before any thread that reads it exists.
  /// The observer, nil unless a tool installed one. Package access: the seam is this package's
  /// own tools', out of every product an app links. Set once, at the start of `main`, before any
  /// other thread runs (hence `nonisolated(unsafe)`: no lock is needed for a value written once
  /// before the threads that read it exist); unset, a durable step pays one load and compare.
  nonisolated(unsafe) package static var observer: (any DurableStepObserving)?

  /// Tells the observer of a step that cannot fail (a folder's fsync, a database's commit).
  @usableFromInline package static func willTake(_ what: @autoclosure () -> String) {
    _ = unsafe observer?.beforeStep(what, canFail: false)
  }

  /// Tells the observer of a step that can fail.
  /// - Returns: the `errno` the observer fails it with, if any.
  static func failureBefore(_ what: @autoclosure () -> String) -> Int32? {
    unsafe observer?.beforeStep(what, canFail: true)
  }
}
