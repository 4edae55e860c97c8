import CallDirectoryCore
import DirectoryContainer
import Foundation
import SwiftUI

/// The screen's state, and the update run off the main thread. The work is
/// ``DirectoryUpdater``'s (type-checked on Linux); this wrapper only publishes it (SwiftUI and
/// Combine: built by .github/workflows/ios.yml, not type-checked on Linux).
@MainActor
final class DirectoryModel: ObservableObject {
  @Published var status = "Checking…"
  @Published var counts: DirectoryUpdater.Counts?
  @Published var progress: DirectoryUpdater.Progress?
  @Published var message: String?

  /// Where a `calldir publish` release folder is served (its `index.json`, `bases/` and
  /// `patches/`; set yours): updates download patches from there. nil updates from the bases in
  /// the app's bundle.
  let releaseURL: URL? = nil

  private var updater: DirectoryUpdater? {
    DirectoryUpdater.appGroupContainer().map { DirectoryUpdater(container: $0) }
  }

  /// Reads the extension's status and the container's counts.
  func refresh() {
    guard let updater else {
      status = "No App Group container (check the entitlements)"
      return
    }
    Task.detached {
      let status: String
      switch try? updater.extensionStatus() {
      case .enabled: status = "On"
      case .disabled: status = "Off: turn it on in Settings › Phone › Call Blocking & Identification"
      default: status = "Unknown"
      }
      let counts = try? updater.counts()
      await MainActor.run {
        self.status = status
        self.counts = counts
      }
    }
  }

  /// Stages the new bases (downloaded, or from the bundle) and syncs, publishing each step.
  func update() {
    guard let updater, progress == nil else { return }
    progress = DirectoryUpdater.Progress(done: 0, total: 1, step: "Starting")
    message = nil
    let releaseURL = releaseURL
    Task.detached {
      var message: String
      do {
        let report: (DirectoryUpdater.Progress) -> Void = { step in
          Task { @MainActor in self.progress = step }
        }
        // A release server when one is configured (patches, resume, hashes checked by
        // ContainerApp.update(from:)); else the bases bundled with the app.
        let outcomes =
          if let releaseURL {
            try updater.update(fromRelease: releaseURL, progress: report)
          } else {
            try updater.update(from: try Self.bundledDirectory(), progress: report)
          }
        let failed = outcomes.compactMap(\.error)
        if outcomes.isEmpty {
          message =
            (try? updater.extensionStatus()) == .enabled
            ? "Up to date"
            : "Turn on “calldir example” in Settings › Phone › Call Blocking & Identification"
        } else if failed.isEmpty {
          message = "Updated"
        } else {
          message = "iOS refused the update: \(failed.map { "\($0)" }.joined(separator: ", "))"
        }
      } catch {
        message = "Update failed: \(error)"
      }
      await MainActor.run {
        self.progress = nil
        self.message = message
        self.refresh()
      }
    }
  }

  /// The compiled container bundled with the app (its `Directory` folder).
  nonisolated private static func bundledDirectory() throws -> String {
    guard let bundled = Bundle.main.path(forResource: "Directory", ofType: nil) else {
      throw CocoaError(.fileNoSuchFile)
    }
    return bundled
  }
}
