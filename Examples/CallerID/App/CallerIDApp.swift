import SwiftUI

/// The example app: one screen with the extension's status and an Update button, and a
/// background refresh that updates from the release server every few hours.
@main
struct CallerIDApp: App {
  @Environment(\.scenePhase) private var phase

  var body: some Scene {
    WindowGroup { ContentView() }
      .onChange(of: phase) { phase in
        if phase == .background { DirectoryModel.scheduleBackgroundRefresh() }
      }
      // iOS 16's SwiftUI runs the BGAppRefreshTask here and cancels it on expiration.
      .backgroundTask(.appRefresh(DirectoryUpdater.refreshTaskIdentifier)) {
        await DirectoryModel.backgroundRefresh()
      }
  }
}
