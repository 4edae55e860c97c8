import DirectoryContainer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks bases' SHA-256 on a second thread while the loader streams them: the issue allows
/// verifying "before or while streaming", and on two cores this takes the hashing (a quarter of
/// the extension's time in phase two) off the request's path. The loader joins it before it
/// completes the request; a mismatch then cancels the request, so the system keeps nothing of it.
///
/// A plain `pthread`: no Foundation in the extension, and no concurrency runtime's thread pool.
final class BackgroundVerification: @unchecked Sendable {
  private let items: [(name: String, path: String, sha256: String)]
  private var failure: LoaderError?
  #if canImport(Glibc)
    private var thread = pthread_t()
  #else
    private var thread: pthread_t?
  #endif
  private var started = false

  init(_ items: [(name: String, path: String, sha256: String)]) { self.items = items }

  /// Starts hashing; falls back to hashing on `join()` if no thread can be made.
  func start() {
    let context = Unmanaged.passRetained(self).toOpaque()
    let status = pthread_create(
      &thread, nil,
      { context in
        // Optional on Linux, not on Darwin: one spelling for both.
        let pointer: UnsafeMutableRawPointer? = context
        let verification = Unmanaged<BackgroundVerification>.fromOpaque(pointer!)
          .takeRetainedValue()
        verification.run()
        return nil
      }, context)
    if status == 0 {
      started = true
    } else {
      Unmanaged<BackgroundVerification>.fromOpaque(context).release()
    }
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
    if started {
      #if canImport(Glibc)
        pthread_join(thread, nil)
      #else
        if let thread { pthread_join(thread, nil) }
      #endif
      started = false
    } else {
      run()
    }
    return failure
  }
}
