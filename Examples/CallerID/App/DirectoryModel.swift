import BackgroundTasks
import CallDirectoryApp
import CallDirectoryCore
import CallKitAdapter
import Foundation
import SwiftUI
import UIKit

/// The screen's state. The work is ``DirectoryUpdater``'s (type-checked on Linux); this model
/// runs it in a task it can cancel, publishes its events, and keeps it alive briefly when the app
/// goes to the background (`beginBackgroundTask`, whose expiration cancels the task: the
/// container is then consistent and the next update resumes).
@MainActor
final class DirectoryModel: ObservableObject {
  /// The extension's switch in Settings, as iOS reports it.
  @Published var enabled: ExtensionEnabledStatus?
  @Published var status: DirectoryStatus?
  /// The current step, while an update runs.
  @Published var step: String?
  /// The current phase's share done (0 to 1), while it reports one: bytes while downloading,
  /// bases while patching and staging.
  @Published var fraction: Double?
  @Published var message: String?

  /// Where a `calldir publish` release folder is served (its `index.json`, `bases/` and
  /// `patches/`; set yours): updates download patches from there. nil updates from the bases in
  /// the app's bundle.
  nonisolated static let releaseURL: URL? = nil

  private var running: Task<Void, Never>?

  private var updater: DirectoryUpdater? {
    DirectoryUpdater.appGroupContainer().map { DirectoryUpdater(container: $0) }
  }

  /// Reads the extension's switch and the container's counts.
  func refresh() async {
    guard let updater else {
      message = "No App Group container: check both targets' entitlements."
      return
    }
    do {
      let status = try await updater.status()
      self.status = status
      enabled = status.install.enabled
    } catch {
      message = DirectoryUpdater.userMessage(for: error)
    }
  }

  /// Opens Settings, where the user turns the extension on.
  func openSettings() {
    guard let updater else { return }
    Task { try? await updater.openSettings() }
  }

  /// Updates (from the release server, or the bundle) and syncs, publishing each step. Going to
  /// the background asks iOS for a little time; when it runs out, the update is cancelled.
  func update() {
    guard let updater, running == nil else { return }
    message = nil
    step = "Starting"
    let background = UIApplication.shared.beginBackgroundTask(withName: "Directory update") {
      [weak self] in self?.running?.cancel()
    }
    // The events arrive on the library's threads. One consumer on the main actor reads them in
    // order; the update's end finishes the stream and waits for that consumer before the step
    // is cleared, so no late event can bring back a finished update's spinner.
    let (stream, continuation) = AsyncStream.makeStream(of: SyncEvent.self)
    let consumer = Task { @MainActor [weak self] in
      for await event in stream {
        guard let self else { return }
        if case .updateProgress(let progress) = event {
          step = "\(progress.phase)"
          fraction = progress.total > 0 ? Double(progress.done) / Double(progress.total) : nil
        } else {
          step = "\(event)"
        }
      }
    }
    running = Task {
      let events: @Sendable (SyncEvent) -> Void = { event in continuation.yield(event) }
      do throws(ContainerAppError) {
        let outcomes: [CallKitDirectoryManager.ReloadOutcome]
        if let release = Self.releaseURL {
          outcomes = try await updater.update(fromRelease: release, events: events)
        } else {
          outcomes = try await updater.update(fromBundled: Self.bundledDirectory(), events: events)
        }
        message = DirectoryUpdater.userMessage(for: outcomes) ?? "Up to date"
      } catch {
        message = DirectoryUpdater.userMessage(for: error)
      }
      // Every event shown before the spinner goes (the catch above takes every error, so this
      // always runs): no event can arrive after it.
      continuation.finish()
      await consumer.value
      step = nil
      fraction = nil
      await refresh()
      UIApplication.shared.endBackgroundTask(background)
      running = nil
    }
  }

  /// Stops a running update between two steps.
  func cancel() { running?.cancel() }

  /// The compiled container bundled with the app (its `Directory` folder).
  private static func bundledDirectory() -> String {
    Bundle.main.path(forResource: "Directory", ofType: nil) ?? Bundle.main.bundlePath
  }

  /// Asks iOS to run ``backgroundRefresh()`` in a few hours (BGAppRefreshTask; the identifier is
  /// in Info.plist's BGTaskSchedulerPermittedIdentifiers, the "fetch" background mode is on).
  nonisolated static func scheduleBackgroundRefresh() {
    let request = BGAppRefreshTaskRequest(identifier: DirectoryUpdater.refreshTaskIdentifier)
    request.earliestBeginDate = Date(timeIntervalSinceNow: 6 * 3600)
    try? BGTaskScheduler.shared.submit(request)
  }

  /// The background refresh: the next refresh is scheduled first, then an update from the
  /// release server. SwiftUI cancels this task when iOS's time runs out; the update stops
  /// between files or requests, consistent.
  nonisolated static func backgroundRefresh() async {
    scheduleBackgroundRefresh()
    guard let release = releaseURL,
      let container = DirectoryUpdater.appGroupContainer()
    else { return }
    _ = try? await DirectoryUpdater(container: container).update(
      fromRelease: release, events: { _ in })
  }
}
