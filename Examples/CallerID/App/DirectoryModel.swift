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

  /// Where a published release lives: its `manifest.cdm` and the files it names (set yours;
  /// nil updates from the bases in the app's bundle).
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
        let source = try await Self.release(from: releaseURL)
        let outcomes = try updater.update(from: source) { step in
          Task { @MainActor in self.progress = step }
        }
        let failed = outcomes.compactMap(\.error)
        message =
          failed.isEmpty
          ? "Updated in \(outcomes.count) request(s)"
          : "iOS refused: \(failed.map { "\($0)" }.joined(separator: ", "))"
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

  /// A compiled container's folder: the bundle's `Directory` folder, or a release downloaded
  /// file by file into a temporary folder (its manifest first, then each base it names).
  nonisolated private static func release(from url: URL?) async throws -> String {
    guard let url else {
      guard let bundled = Bundle.main.path(forResource: "Directory", ofType: nil) else {
        throw CocoaError(.fileNoSuchFile)
      }
      return bundled
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "release-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("bases"), withIntermediateDirectories: true)
    func fetch(_ name: String) async throws {
      let (downloaded, _) = try await URLSession.shared.download(
        from: url.appendingPathComponent(name))
      try FileManager.default.moveItem(at: downloaded, to: folder.appendingPathComponent(name))
    }
    try await fetch(Manifest.fileName)
    let manifest = try Manifest.read(container: folder.path)
    for base in manifest.bases where base.state != .retired { try await fetch(base.file) }
    return folder.path
  }
}
