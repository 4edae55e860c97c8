import CallDirectoryApp
import Synchronization

/// Collects a sync's or an update's events, from whichever thread delivers them (the callback
/// is `@Sendable`), for a test to read afterwards.
public final class EventLog: Sendable {
  private let storage = Mutex<[SyncEvent]>([])

  public init() {}

  /// Records one event: pass as `events: log.record`.
  public func record(_ event: SyncEvent) { storage.withLock { $0.append(event) } }

  /// Every event, in order.
  public var events: [SyncEvent] { storage.withLock { $0 } }

  /// The warning events' lines.
  public var warnings: [String] { events.filter(\.isWarning).map(\.description) }

  /// The lines of the events that are neither warnings nor requests.
  public var notes: [String] {
    events.filter { event in
      switch event {
      case .requestStarted, .requestFinished: false
      default: !event.isWarning
      }
    }.map(\.description)
  }
}
