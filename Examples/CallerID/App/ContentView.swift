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
          LabeledContent("Status", value: model.status)
          if let counts = model.counts {
            LabeledContent("Installed", value: counts.installed.map { "\($0)" } ?? "–")
            LabeledContent("Pending", value: "\(counts.pending)")
            LabeledContent("Bases", value: "\(counts.bases)")
          }
        }
        Section {
          if let progress = model.progress {
            ProgressView(
              value: Double(progress.done), total: Double(max(1, progress.total))
            ) { Text(progress.step) }
          } else {
            Button("Update") { model.update() }
          }
          if let message = model.message { Text(message).font(.footnote) }
        }
      }
      .navigationTitle("calldir example")
      .refreshable { model.refresh() }
      .onAppear { model.refresh() }
    }
  }
}
