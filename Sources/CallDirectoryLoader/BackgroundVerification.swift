import DirectoryContainer
import SystemCalls

/// Checks bases' SHA-256 on a second thread while the loader streams them: the issue allows
/// verifying "before or while streaming", and on two cores this takes the hashing (a quarter of
/// the extension's time in phase two) off the request's path. The loader joins it before it
/// completes the request; a mismatch then cancels the request, so the system keeps nothing of it.
final class BackgroundVerification: @unchecked Sendable {
  private let items: [(name: String, path: String, sha256: String)]
  private var failure: LoaderError?
  private var thread: JoinableThread?

  init(_ items: [(name: String, path: String, sha256: String)]) { self.items = items }

  /// Starts hashing; falls back to hashing on `join()` if no thread can be made.
  func start() {
    let thread = JoinableThread { [self] in run() }
    self.thread = thread
    thread.start()
  }

  private func run() {
    for item in items {
      guard let digest = SHA256.hexDigest(ofFile: item.path) else {
        failure = .unreadable(base: item.name, path: item.path)
        return
      }
      guard digest == item.sha256 else {
        failure = .hashMismatch(base: item.name, expected: item.sha256, actual: digest)
        return
      }
    }
  }

  /// Waits for the hashing to finish and returns the first mismatch, if any.
  func join() -> LoaderError? {
    if let thread {
      thread.join()
    } else {
      run()
    }
    return failure
  }
}
