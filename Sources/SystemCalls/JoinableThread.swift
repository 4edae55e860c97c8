#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Work run on a second thread, then joined: a plain `pthread`, because the extension links no
/// Foundation and needs no concurrency runtime's thread pool for one task.
///
/// `@unchecked Sendable` because the pthread handle and the two flags are mutable: they are
/// written by ``start()`` and ``join()`` on the one thread that owns the object, and the new
/// thread reads only the `@Sendable` work (handed over by `pthread_create`, which orders it).
@safe @usableFromInline package final class JoinableThread: @unchecked Sendable {
  private let work: @Sendable () -> Void
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
  @usableFromInline package static func forkJoin(
    _ count: Int, _ body: @escaping @Sendable (Int) -> Void
  ) {
    guard count > 0 else { return }
    let others = (1..<count).map { index in JoinableThread { body(index) } }
    for thread in others { thread.start() }
    body(0)
    for thread in others { thread.join() }
  }

  /// Work to run once, on a thread ``start()`` makes or on ``join()``'s caller.
  @usableFromInline package init(_ work: @escaping @Sendable () -> Void) { self.work = work }

  /// Starts the work on a new thread. When no thread can be made, it runs on ``join()`` instead.
  @usableFromInline package func start() {
    // Safe: the reference retained for the new thread is taken back exactly once: by the
    // thread (`takeRetainedValue`), or by `release()` below when no thread was made.
    let context = unsafe Unmanaged.passRetained(self).toOpaque()
    let status = unsafe pthread_create(
      &thread, nil,
      { context in
        // Optional on Linux, not on Darwin: one spelling for both.
        let pointer: UnsafeMutableRawPointer? = unsafe context
        unsafe Unmanaged<JoinableThread>.fromOpaque(pointer!).takeRetainedValue().work()
        return nil
      }, unsafe context)
    if status == 0 {
      started = true
    } else {
      unsafe Unmanaged<JoinableThread>.fromOpaque(context).release()
    }
  }

  /// Waits for the work to finish (or runs it here, if no thread was started). The work runs
  /// once, however often this is called.
  @usableFromInline package func join() {
    guard !finished else { return }
    if started {
      #if canImport(Glibc)
        pthread_join(thread, nil)
      #else
        if let thread = unsafe thread { unsafe pthread_join(thread, nil) }
      #endif
    } else {
      work()
    }
    finished = true
  }
}

/// A value handed to the threads of a fork-join (``JoinableThread``) that the compiler cannot
/// check as `Sendable`: classes each thread uses only its own part of (its index's ingest, its
/// slot), or a producer's whole state that its caller reads only after the join. The join orders
/// every write the threads made before the caller's reads. The one escape hatch of fork-join
/// work: each use says, where it wraps the value, why no two threads touch the same part.
@usableFromInline package struct JoinedHandoff<Value>: @unchecked Sendable {
  /// The value handed over.
  @usableFromInline package let value: Value
  /// Wraps `value` for the threads of one fork-join.
  @usableFromInline package init(_ value: Value) { self.value = value }
}
