import CallDirectoryApp
import DirectoryContainer
import SwiftUI

/// The user's own lists: a number typed or pasted in any written form, blocked or allowed; the
/// entries, each removable; and "Pause for an hour". Every edit goes out at once in one small
/// request, and stays pending (shown) until iOS kept it.
@MainActor
struct UserListsView: View {
  @State private var written = ""
  @State private var lists = UserLists()
  @State private var pending = UserListsChanges()
  @State private var message: String?
  @State private var busy = false

  private var updater: DirectoryUpdater? {
    DirectoryUpdater.appGroupContainer().map { DirectoryUpdater(container: $0) }
  }

  var body: some View {
    List {
      Section("A number") {
        TextField("+33 6 12 34 56 78", text: $written)
          .keyboardType(.phonePad)
        HStack {
          Button("Block") { run { _ = try await $0.block(written) } }
          Spacer()
          Button("Allow") { run { _ = try await $0.allow(written) } }
        }
        .disabled(written.isEmpty || busy)
        if let message { Text(message).font(.footnote) }
      }
      Section("Blocking") {
        if lists.pause != nil {
          Button("Resume blocking") { run { _ = try await $0.resume() } }
        } else {
          Button("Pause for an hour") { run { _ = try await $0.pauseForAnHour() } }
        }
        if !pending.isEmpty { Text("Pending: \(pending.summary)").font(.footnote) }
      }
      Section("Blocked") {
        ForEach(lists.blockedNumbers, id: \.self) { number in
          Text("+\(number)").swipeActions { remove(number) }
        }
        ForEach(lists.blockedRanges, id: \.lowerBound) { range in
          Text("+\(range.lowerBound) … +\(range.upperBound)")
        }
      }
      Section("Allowed") {
        ForEach(lists.allowedNumbers, id: \.self) { number in
          Text("+\(number)").swipeActions { remove(number) }
        }
      }
    }
    .navigationTitle("My lists")
    .task { await reload() }
  }

  private func remove(_ number: Int64) -> some View {
    Button("Remove", role: .destructive) { run { _ = try await $0.remove(number) } }
  }

  /// Runs one edit and its sync, then shows the lists again.
  private func run(
    _ edit: @escaping @Sendable (DirectoryUpdater) async throws -> Void
  ) {
    guard let updater, !busy else { return }
    busy = true
    Task {
      do {
        try await edit(updater)
        message = nil
        written = ""
      } catch let error as ContainerAppError {
        message = DirectoryUpdater.userMessage(for: error)
      } catch {
        message = "\(error)"
      }
      await reload()
      busy = false
    }
  }

  private func reload() async {
    guard let updater else { return }
    if let (lists, pending) = try? await updater.userEntries() {
      self.lists = lists
      self.pending = pending
    }
  }
}
