/// Whether the user has turned an extension on in Settings (`CXCallDirectoryManager.EnabledStatus`).
public enum ExtensionEnabledStatus: Sendable, Equatable {
  /// The system could not say.
  case unknown
  /// Off in Settings: its entries are kept but not used.
  case disabled
  /// On in Settings.
  case enabled
}

/// How a reload ended, as the app's completion handler sees it.
public protocol CallDirectoryReloadOutcome: Sendable {
  /// Nil when the system took the request's entries; else iOS's error.
  var error: CallDirectoryError? { get }
}

/// What the app asks of the system's call directory manager: the surface of
/// `CXCallDirectoryManager` the app uses (reload an extension, read its enabled status, open
/// Settings). The simulated system implements it, and so does `CallKitAdapter`'s
/// `CallKitDirectoryManager` over CallKit's async calls, so the same app code drives either.
///
/// A manager is `Sendable` (an app calls it from any task) and its calls throw one error type,
/// `Failure`, which an app's test double chooses.
///
/// The calls are `async`: a reload takes as long as the extension's request (seconds for a
/// million entries), and no thread waits for it. A type whose calls do not suspend (the
/// simulated system's) implements them as plain functions.
///
/// On iOS the system decides whether a request is incremental (`context.isIncremental`, true once
/// the extension has loaded); `incremental` is the app's wish, honoured by the simulated system
/// and left to the extension (which can start over with `removeAll…`) on a device.
public protocol CallDirectoryManaging: Sendable {
  /// What a reload returns: iOS's error, and whatever the system measured.
  associatedtype ReloadOutcome: CallDirectoryReloadOutcome & Sendable
  /// What the calls throw when the system itself cannot be asked (not iOS's answer to a
  /// request, which is in the outcome): CallKit's error as a ``CallDirectoryError`` on a device,
  /// the simulated system's own error on Linux.
  associatedtype Failure: Error

  /// `enabledStatusForExtension(withIdentifier:)`.
  /// - Throws: `Failure` when the system cannot be asked (CallKit's error; the simulated
  ///   system's store failing).
  func enabledStatus(ofExtension identifier: String) async throws(Failure)
    -> ExtensionEnabledStatus

  /// `reloadExtension(withIdentifier:)`: runs a request of the extension and returns how it ended;
  /// the errors iOS reports through the completion handler are in the outcome, not thrown.
  /// - Throws: `Failure` when the system itself fails (the simulated system's store or spawner).
  func reloadExtension(_ identifier: String, incremental: Bool) async throws(Failure)
    -> ReloadOutcome

  /// `openSettings()`: shows the user where to turn the app's extensions on (Settings › Apps ›
  /// Phone › Call Blocking & Identification), for an extension whose status is not enabled.
  /// - Throws: `Failure` when the system cannot open them.
  func openSettings() async throws(Failure)
}
