#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Work run on a second thread, then joined: a plain `pthread`, because the extension links no
/// Foundation and needs no concurrency runtime's thread pool for one task.
public final class JoinableThread: @unchecked Sendable {
  private let work: () -> Void
  #if canImport(Glibc)
    private var thread = pthread_t()
  #else
    private var thread: pthread_t?
  #endif
  private var started = false
  private var finished = false

  /// Runs `body(0)` on the calling thread and `body(1)` … `body(count − 1)` each on a thread of
  /// its own (or on this one, after, when no thread can be made), and returns once every one
  /// has returned. The fork-join the compiler's parts and digests and an update's patch chains
  /// share; what each call writes is read after this returns (the joins order it).
  public static func forkJoin(_ count: Int, _ body: @escaping (Int) -> Void) {
    guard count > 0 else { return }
    let others = (1..<count).map { index in JoinableThread { body(index) } }
    for thread in others { thread.start() }
    body(0)
    for thread in others { thread.join() }
  }

  /// Work to run once, on a thread ``start()`` makes or on ``join()``'s caller.
  public init(_ work: @escaping () -> Void) { self.work = work }

  /// Starts the work on a new thread. When no thread can be made, it runs on ``join()`` instead.
  public func start() {
    let context = Unmanaged.passRetained(self).toOpaque()
    let status = pthread_create(
      &thread, nil,
      { context in
        // Optional on Linux, not on Darwin: one spelling for both.
        let pointer: UnsafeMutableRawPointer? = context
        Unmanaged<JoinableThread>.fromOpaque(pointer!).takeRetainedValue().work()
        return nil
      }, context)
    if status == 0 {
      started = true
    } else {
      Unmanaged<JoinableThread>.fromOpaque(context).release()
    }
  }

  /// Waits for the work to finish (or runs it here, if no thread was started). The work runs
  /// once, however often this is called.
  public func join() {
    guard !finished else { return }
    if started {
      #if canImport(Glibc)
        pthread_join(thread, nil)
      #else
        if let thread { pthread_join(thread, nil) }
      #endif
    } else {
      work()
    }
    finished = true
  }
}
