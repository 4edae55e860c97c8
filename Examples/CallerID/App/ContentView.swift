import CallDirectoryCore
import SwiftUI

/// The extension's status, what it holds, and the Update button with its progress. Main-actor
/// isolated for the SDKs before iOS 18's, where `View` is not yet (its model's default value is
/// made on the main actor).
@MainActor
struct ContentView: View {
  @StateObject private var model = DirectoryModel()

  var body: some View {
    NavigationStack {
      List {
        Section("Caller ID extension") {
          LabeledContent("Status", value: statusText)
          if model.enabled != .enabled && model.enabled != nil {
            Button("Open Settings") { model.openSettings() }
          }
          if let install = model.status?.install {
            LabeledContent("Installed", value: install.installedEntries.map { "\($0)" } ?? "–")
            LabeledContent("Pending", value: "\(install.pendingEntries)")
          }
        }
        Section {
          if let step = model.step {
            if let fraction = model.fraction {
              ProgressView(value: fraction) { Text(step) }
            } else {
              ProgressView { Text(step) }
            }
            Button("Cancel", role: .cancel) { model.cancel() }
          } else {
            Button("Update") { model.update() }
          }
          if let message = model.message { Text(message).font(.footnote) }
        }
        Section("Your lists") {
          NavigationLink("Block, allow, pause") { UserListsView() }
        }
      }
      .navigationTitle("calldir example")
      .refreshable { await model.refresh() }
      .task { await model.refresh() }
    }
  }

  /// The switch as the user knows it.
  private var statusText: String {
    switch model.enabled {
    case .enabled?: "On"
    case .disabled?: "Off: turn it on in Settings"
    case .unknown?: "Not known to iOS yet"
    case nil: "Checking…"
    }
  }
}
