import CallDirectoryCore
import ReleaseFormat

/// One element of an update's or a sync's stream: an event as it happens, then, last, what the
/// call returns.
public enum SyncStreamItem<Result: Sendable>: Sendable {
  /// A ``SyncEvent``, as the `events` closure of the call would hear it.
  case event(SyncEvent)
  /// The call's result: the stream ends after it.
  case finished(Result)
}

extension ContainerApp {
  /// ``update(from:allowShrink:allowDowngrade:events:)`` as a stream: its events as they happen,
  /// then ``SyncStreamItem/finished(_:)`` with its summary. The update runs in a task of its
  /// own, started when the stream is made; a consumer that stops iterating (its task cancelled,
  /// or the loop left) cancels it, with the same outcome as a cancelled update.
  ///
  /// ```swift
  /// for try await item in app.updateStream(from: HTTPReleaseSource(base: releaseURL)) {
  ///   switch item {
  ///   case .event(.updateProgress(let progress)): bar = Double(progress.done) / Double(progress.total)
  ///   case .event: break
  ///   case .finished(let summary): print(summary)
  ///   }
  /// }
  /// ```
  /// - Returns: a stream that throws the update's ``ContainerAppError`` and nothing else (its
  ///   failure type says `any Error` only because iOS 16's `AsyncThrowingStream` has no other).
  public func updateStream(
    from source: some ReleaseSource & Sendable, allowShrink: Bool = false,
    allowDowngrade: Bool = false
  ) -> AsyncThrowingStream<SyncStreamItem<UpdateSummary>, any Error> {
    Self.stream { report throws(ContainerAppError) in
      try await update(
        from: source, allowShrink: allowShrink, allowDowngrade: allowDowngrade, events: report)
    }
  }

  /// ``sync(manager:bundleID:maximumRequests:events:)`` as a stream: its events as they happen,
  /// then ``SyncStreamItem/finished(_:)`` with how each request ended. Cancelled as
  /// ``updateStream(from:allowShrink:allowDowngrade:)`` is.
  /// - Returns: a stream that throws the sync's ``ContainerAppError`` and nothing else.
  public func syncStream<Manager: CallDirectoryManaging & Sendable>(
    manager: Manager, bundleID: String, maximumRequests: Int = maximumRequestsPerSync
  ) -> AsyncThrowingStream<SyncStreamItem<[Manager.ReloadOutcome]>, any Error>
  where Manager.ReloadOutcome: Sendable {
    Self.stream { report throws(ContainerAppError) in
      try await sync(
        manager: manager, bundleID: bundleID, maximumRequests: maximumRequests, events: report)
    }
  }

  /// Runs `work` in a task, yielding its events and then its result; the stream's end cancels
  /// the task.
  ///
  /// The stream's failure type is `any Error` because `AsyncThrowingStream` takes no other
  /// before iOS 18 (typed `AsyncSequence` failures came with Swift 6's runtime), but `work`
  /// throws only ``ContainerAppError``, checked here by the compiler: every error the stream
  /// ends with is one (`catch let error as ContainerAppError` always matches; issue 65,
  /// item 6).
  private static func stream<Result: Sendable>(
    _ work:
      @escaping @Sendable (@escaping @Sendable (SyncEvent) -> Void) async throws(ContainerAppError)
      -> Result
  ) -> AsyncThrowingStream<SyncStreamItem<Result>, any Error> {
    AsyncThrowingStream { continuation in
      let task = Task {
        do {
          let result = try await work { continuation.yield(.event($0)) }
          continuation.yield(.finished(result))
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}
