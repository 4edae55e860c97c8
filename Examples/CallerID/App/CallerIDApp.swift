import SwiftUI

/// The example app: one screen with the extension's status and an Update button.
@main
struct CallerIDApp: App {
  var body: some Scene {
    WindowGroup { ContentView() }
  }
}
