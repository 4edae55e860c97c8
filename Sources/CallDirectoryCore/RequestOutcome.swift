/// How a request ended, as the system sees it.
package enum RequestOutcome: Equatable, Sendable {
  /// The extension has not completed or cancelled yet.
  case pending
  /// `completeRequest` was called and every entry obeyed the contract: the system keeps them.
  case completed
  /// The request failed with iOS's error; the system keeps nothing from it.
  case failed(CallDirectoryError)
  /// The extension called `cancelRequest(withError:)`; the system keeps nothing from it.
  case cancelled(reason: String)
}
