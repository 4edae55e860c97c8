import DirectoryContainer
import SystemCalls

// Safe: its result is written by its own thread and read only after `join()`.
/// Checks bases' SHA-256 on a second thread while the loader streams them: the issue allows
/// verifying "before or while streaming", and on two cores this takes the hashing (a quarter of
/// the extension's time in phase two) off the request's path. The loader joins it before it
/// completes the request; a mismatch then cancels the request, so the system keeps nothing of it.
final class BackgroundVerification: @unchecked Sendable {
  /// A file to check: the base it belongs to (as errors name it), its path in the container and
  /// what it must hash to.
  struct Item {
    let name: String
    let file: String
    let sha256: String
  }

  private let container: String
  /// The new set, each base's current file checked: the loader's own array, its storage
  /// shared, since a list of 300 items with their paths was 45 KB of the extension's footprint.
  private let bases: [Manifest.Base]
  /// Other files to check (an incremental request's installed files), usually few.
  private let others: [Item]
  private var failure: LoaderError?
  private var thread: JoinableThread?

  init(container: String, bases: [Manifest.Base], others: [Item]) {
    (self.container, self.bases, self.others) = (container, bases, others)
  }

  /// Starts hashing; falls back to hashing on `join()` if no thread can be made.
  func start() {
    let thread = JoinableThread { [self] in run() }
    self.thread = thread
    thread.start()
  }

  private func run() {
    for base in bases {
      guard check(name: base.name, file: base.file, sha256: base.sha256) else { return }
    }
    for item in others {
      guard check(name: item.name, file: item.file, sha256: item.sha256) else { return }
    }
  }

  /// Hashes one file; records the failure and returns false when it does not match.
  private func check(name: String, file: String, sha256: String) -> Bool {
    let path = container + "/" + file
    guard let digest = SHA256.hexDigest(ofFile: path) else {
      failure = .unreadable(base: name, path: path)
      return false
    }
    guard digest == sha256 else {
      failure = .hashMismatch(base: name, expected: sha256, actual: digest)
      return false
    }
    return true
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
