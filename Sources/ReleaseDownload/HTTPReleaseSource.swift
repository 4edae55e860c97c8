import Foundation
import ReleaseFormat

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A release folder served over HTTP(S), fetched with URLSession — the client an iOS app uses
/// (on Linux, through FoundationNetworking). Each file streams to its local part as it arrives,
/// so a connection that drops leaves the bytes it brought, and the next fetch asks for the rest
/// with `Range: bytes=N-`. A server that sends more than the index's size, a status other than
/// 200 or 206, nothing for `idleTimeout` seconds, or a fetch longer than `totalTimeout` ends
/// the fetch with a one-line error (`ReleaseFormat.ReleaseError.Kind.download`, the status in
/// its `code`). Both timeouts run on the source's clock.
///
/// A fetch suspends its task while the transfer runs (no thread waits for it), and a cancelled
/// task cancels the transfer at once: the bytes that arrived stay in the part for the next fetch.
public struct HTTPReleaseSource: ReleaseSource, Sendable {
  /// The release folder's URL (its `index.json` is `base/index.json`).
  public let base: URL
  /// Seconds without a byte before a fetch gives up.
  public let idleTimeout: TimeInterval
  /// Seconds a whole fetch may take.
  public let totalTimeout: TimeInterval
  /// The one session every fetch of this source uses (make one source per update).
  private let owner: SessionOwner
  /// Each fetch's deadlines, on the source's clock, counted from the call.
  private let deadlines: @Sendable () -> FetchDeadlines
  /// URLSession's own timer for each request, in seconds (``backstopSeconds(idle:total:clockIsReal:)``).
  let backstopTimeout: TimeInterval

  /// The longest timeout kept: 30 days. URLSession's and Dispatch's timers trap on values they
  /// cannot schedule (`inf` and `1e308` died with SIGILL inside FoundationNetworking).
  public static let maximumTimeout: TimeInterval = 30 * 86_400

  /// A source for the folder at `base`. A timeout over ``maximumTimeout`` (infinity included)
  /// is that maximum; one that is not a positive number (NaN, 0, negative) is the default's.
  /// - Parameters:
  ///   - base: the release folder's URL.
  ///   - idleTimeout: seconds without a byte before a fetch gives up.
  ///   - totalTimeout: seconds a whole fetch may take.
  ///   - configuration: the session's configuration, when the app wants its own (cellular
  ///     access, a proxy, extra headers); nil: an ephemeral one with no cache, cookies or
  ///     credentials kept. One session serves every fetch of this source, so make one source
  ///     per update. A background configuration (`background(withIdentifier:)`) runs these
  ///     fetches, which are data tasks streamed into their part files, only while the app is
  ///     not suspended: iOS carries on no data task of a suspended app. What arrived stays in
  ///     the part, and the next update resumes it (the Background refresh article).
  ///   - clock: the clock both timeouts are measured on; a test passes one it advances by hand.
  public init(
    base: URL, idleTimeout: TimeInterval = 30, totalTimeout: TimeInterval = 600,
    configuration: URLSessionConfiguration? = nil,
    clock: some Clock<Duration> = ContinuousClock()
  ) {
    func clamped(_ seconds: TimeInterval, _ fallback: TimeInterval) -> TimeInterval {
      seconds > 0 ? min(seconds, Self.maximumTimeout) : fallback
    }
    owner = SessionOwner(configuration: configuration)
    self.base = base
    self.idleTimeout = clamped(idleTimeout, 30)
    self.totalTimeout = clamped(totalTimeout, 600)
    let (idle, total) = (Duration.seconds(self.idleTimeout), Duration.seconds(self.totalTimeout))
    deadlines = { FetchDeadlines(clock: clock, idle: idle, total: total) }
    backstopTimeout = Self.backstopSeconds(
      idle: self.idleTimeout, total: self.totalTimeout,
      clockIsReal: clock is ContinuousClock || clock is SuspendingClock)
  }

  /// URLSession's own timer, in seconds. On a real clock, past both deadlines, so only the
  /// source's clock ends a fetch that the clock can still end, and the timer ends one whose
  /// watch never runs. On a clock advanced by hand (a test's), the longest timeout: real
  /// seconds say nothing about that clock, and a loaded `swift test` ran a test's fetch for
  /// more than the 105 s that idle + total gave, so URLSession's timer ended fetches the test
  /// meant its clock or a cancellation to end (issue 65, item 0). There the clock, or the
  /// cancellation, is the only thing that ends a fetch.
  static func backstopSeconds(idle: TimeInterval, total: TimeInterval, clockIsReal: Bool)
    -> TimeInterval
  {
    clockIsReal ? min(idle + total, maximumTimeout) : maximumTimeout
  }

  /// Fetches `path` into `destination`, resuming from the bytes already there.
  /// - Throws: `ReleaseFormat.ReleaseError`: `ReleaseFormat.ReleaseError.Kind.download` for
  ///   a status, a timeout or a dropped connection, `ReleaseFormat.ReleaseError.Kind.cancelled`
  ///   when the task is cancelled, `ReleaseFormat.ReleaseError.Kind.failed` when the part
  ///   cannot be written.
  public func fetch(_ path: String, to destination: String, expectedByteCount: Int?)
    async throws(ReleaseError)
  {
    _ = try await transfer(path, to: destination, expectedByteCount: expectedByteCount)
  }

  /// Fetches `path` as ``fetch(_:to:expectedByteCount:)`` does, telling `progress` the bytes
  /// in `destination` every 256 KiB of the body and at its end, from URLSession's delegate queue.
  /// - Throws: `ReleaseFormat.ReleaseError` as ``fetch(_:to:expectedByteCount:)`` does.
  public func fetch(
    _ path: String, to destination: String, expectedByteCount: Int?,
    progress: @escaping @Sendable (Int) -> Void
  ) async throws(ReleaseError) {
    _ = try await transfer(
      path, to: destination, expectedByteCount: expectedByteCount, progress: progress)
  }

  /// Fetches `path` unless the server says it is still the file `validator` names: a GET with
  /// `If-None-Match` (an `ETag` validator) or `If-Modified-Since` (a `Last-Modified` one), whose
  /// 304 answer has no body. An index checked for updates costs a header, not its whole size
  /// (428 KB after nine publishes of a 72-base container, issue 56, item 6).
  /// - Throws: `ReleaseFormat.ReleaseError` as ``fetch(_:to:expectedByteCount:)`` does.
  public func fetchIfChanged(
    _ path: String, to destination: String, maximumByteCount: Int, validator: String?
  ) async throws(ReleaseError) -> ConditionalFetch {
    let outcome = try await transfer(
      path, to: destination, expectedByteCount: maximumByteCount,
      condition: validator.flatMap(HTTPValidator.init(stored:)).flatMap {
        $0.url == base.appendingPathComponent(path).absoluteString ? $0 : nil
      })
    if outcome.notModified { return .unchanged }
    return .fetched(validator: outcome.validator?.stored)
  }

  /// Fetches a whole URL, query included (which `base`-relative paths cannot carry), into a
  /// new `destination`, with the same deadlines and checks: calldir's feed reader fetches
  /// `…/blocklist?since=VERSION` this way. At most `maximumByteCount` bytes are taken.
  /// - Throws: `ReleaseFormat.ReleaseError` as ``fetch(_:to:expectedByteCount:)`` does.
  package func fetch(
    url: URL, to destination: String, maximumByteCount: Int, bearerToken: String?
  ) async throws(ReleaseError) {
    _ = try await transfer(
      url: url, to: destination, expectedByteCount: maximumByteCount,
      headers: bearerToken.map { ["Authorization": "Bearer \($0)"] } ?? [:])
  }

  /// One GET of `path` into `destination`, resumed from its bytes, under `condition`.
  private func transfer(
    _ path: String, to destination: String, expectedByteCount: Int?,
    condition: HTTPValidator? = nil, progress: (@Sendable (Int) -> Void)? = nil
  ) async throws(ReleaseError) -> (notModified: Bool, validator: HTTPValidator?) {
    try await transfer(
      url: base.appendingPathComponent(path), to: destination,
      expectedByteCount: expectedByteCount, condition: condition, progress: progress, file: path)
  }

  /// One GET of `url` into `destination`, resumed from its bytes, under `condition`.
  private func transfer(
    url: URL, to destination: String, expectedByteCount: Int?,
    condition: HTTPValidator? = nil, progress: (@Sendable (Int) -> Void)? = nil,
    headers: [String: String] = [:], file: String? = nil
  ) async throws(ReleaseError) -> (notModified: Bool, validator: HTTPValidator?) {
    if !FileManager.default.fileExists(atPath: destination) {
      FileManager.default.createFile(atPath: destination, contents: nil)
    }
    guard let output = FileHandle(forUpdatingAtPath: destination) else {
      throw ReleaseError("cannot write \(destination)", file: file ?? url.absoluteString)
    }
    defer { try? output.close() }
    let have = Int((try? output.seekToEnd()) ?? 0)
    if let expectedByteCount, have >= expectedByteCount { return (false, nil) }
    if Task.isCancelled { throw Receiver.cancelled(url) }
    var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
    // URLSession's idle timer cannot take the source's clock: the deadlines do the timing on
    // it, and URLSession's is only a backstop on the real clock, later than both of them. At
    // the idle timeout it raced the source's clock whenever the watch ran late on a busy
    // cooperative pool: a loaded `swift test` saw "URLSession's own timer" end a fetch that
    // the test had cancelled, and one the injected clock was about to end (issue 65, item 0).
    request.timeoutInterval = backstopTimeout
    if have > 0 { request.setValue("bytes=\(have)-", forHTTPHeaderField: "Range") }
    // The bytes as the index sized them: a compressed body decodes to what the server says,
    // and 1 MB of gzip took 1.18 GB before its size was refused (issue 52, item 11).
    request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    condition?.apply(to: &request)
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let receiver = Receiver(
      output: output, offset: have, total: expectedByteCount, url: url,
      acceptsNotModified: condition != nil, progress: progress, deadlines: deadlines())
    let task = owner.dataTask(with: request, receiver: receiver)
    let failure = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<ReleaseError?, Never>) in
        receiver.start(task, continuation: continuation)
      }
    } onCancel: {
      receiver.cancel(task, because: Receiver.cancelled(url))
    }
    if let failure { throw failure }
    receiver.reportProgress(final: true)
    return (receiver.notModified, receiver.validator)
  }
}

// Safe: URLSession's serial delegate queue writes the counters; `failure` and the continuation are
// touched only under `lock`.
/// Streams a response's body into the part file, checking its status and size.
final class Receiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  let output: FileHandle
  /// Bytes of the file already in the part when the body starts.
  var offset: Int
  /// The whole file's size, from the index.
  let total: Int?
  let url: URL
  var received = 0
  var failure: ReleaseError?
  /// Guards `failure` and `continuation`: URLSession's delegate queue, the timeout's timer and
  /// a cancelling task touch them from different threads.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<ReleaseError?, Never>?
  /// Set once the transfer has ended (its continuation resumed).
  private var completed = false
  /// The fetch's idle and total deadlines, and the task that watches them (cancelled when the
  /// transfer ends).
  private let deadlines: FetchDeadlines
  private var watchdog: Task<Void, Never>?
  /// When the last sign of life came (the response, or a piece of body), on the deadlines'
  /// clock, and the body's bytes by then.
  private var lastActivity = Duration.zero
  private var receivedByLastActivity = 0

  /// Whether a 304 answers the request (it was conditional), and whether one did.
  let acceptsNotModified: Bool
  private(set) var notModified = false
  /// What names the body received, for the next conditional request.
  private(set) var validator: HTTPValidator?

  /// Told the bytes in the part as they arrive (``reportProgress(final:)``).
  private let progress: (@Sendable (Int) -> Void)?
  /// The part's bytes when `progress` was last told.
  private var reportedBytes = -1
  /// How many more bytes make another report: a progress bar moves by the quarter megabyte, not
  /// by each of URLSession's 16 KiB deliveries.
  static let progressStepBytes = 256 * 1024

  init(
    output: FileHandle, offset: Int, total: Int?, url: URL, acceptsNotModified: Bool = false,
    progress: (@Sendable (Int) -> Void)? = nil, deadlines: FetchDeadlines
  ) {
    self.deadlines = deadlines
    self.progress = progress
    self.acceptsNotModified = acceptsNotModified
    self.output = output
    self.offset = offset
    self.total = total
    self.url = url
  }

  /// Tells `progress` the part's bytes when a step more arrived since the last report, or at
  /// the end (`final`) when any did. Called on the delegate queue, and once after the transfer.
  func reportProgress(final: Bool) {
    guard let progress, !notModified else { return }
    let bytes = offset + received
    guard bytes > reportedBytes, final || bytes - max(0, reportedBytes) >= Self.progressStepBytes
    else { return }
    reportedBytes = bytes
    progress(bytes)
  }

  /// The error a cancelled task's fetch ends with.
  static func cancelled(_ url: URL) -> ReleaseError {
    ReleaseError(
      "\(url.absoluteString): cancelled (what arrived is kept; the next update resumes)",
      kind: .cancelled, file: url.absoluteString)
  }

  /// Starts `task`; `continuation` is resumed once, when it completes, with its failure.
  func start(
    _ task: URLSessionDataTask, continuation: CheckedContinuation<ReleaseError?, Never>
  ) {
    // A task cancelled before this point has its reason recorded already: end at once.
    let cancelledEarly: ReleaseError? = lock.withLock {
      guard let failure else {
        self.continuation = continuation
        return nil
      }
      completed = true
      return failure
    }
    if let cancelledEarly {
      continuation.resume(returning: cancelledEarly)
      return
    }
    // The idle and the whole fetch's deadlines: the idle one alone lets a trickle go on for
    // ever. Watched by a task the transfer's end cancels: a timer left for its 600 s held each
    // finished task, 3.3 KB a file, and a 12,070-patch update peaked at 88 MiB (issue 52,
    // item 11).
    let watchdog = Task { [deadlines] in
      guard let expiry = await deadlines.watch(lastActivity: { self.activity.time }) else {
        return
      }
      self.cancel(task, because: self.timedOut(expiry))
    }
    lock.withLock { self.watchdog = watchdog }
    task.resume()
  }

  /// The last sign of life, and the body's bytes by then.
  private var activity: (time: Duration, received: Int) {
    lock.withLock { (lastActivity, receivedByLastActivity) }
  }

  /// Records a sign of life now, with `received` bytes of the body in.
  private func noteActivity(received: Int) {
    let now = deadlines.elapsed()
    lock.withLock {
      lastActivity = now
      receivedByLastActivity = received
    }
  }

  /// The error a passed deadline ends the fetch with.
  private func timedOut(_ expiry: FetchDeadlines.Expiry) -> ReleaseError {
    let what =
      switch expiry {
      case .idle:
        "timed out: no byte for \(FetchDeadlines.seconds(deadlines.idle)) s, after \(activity.received) bytes (kept; the next update resumes)"
      case .total: "no answer within \(FetchDeadlines.seconds(deadlines.total)) s"
      }
    return ReleaseError("\(url.absoluteString): \(what)", kind: .download, file: url.absoluteString)
  }

  /// Ends the transfer with `reason`, unless it ended already.
  func cancel(_ task: URLSessionTask, because reason: ReleaseError) {
    let running = lock.withLock {
      guard !completed, failure == nil else { return false }
      failure = reason
      return continuation != nil
    }
    if running { task.cancel() }
  }

  /// Records the first failure (one seen after another is ignored).
  private func fail(_ error: ReleaseError) {
    lock.withLock { if failure == nil { failure = error } }
  }

  /// Whether the transfer has failed already.
  private var hasFailed: Bool { lock.withLock { failure != nil } }

  /// Bytes this body may bring: the rest of the declared size after what the part holds.
  var limit: Int? { total.map { $0 - offset } }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    noteActivity(received: 0)
    let http = response as? HTTPURLResponse
    let status = http?.statusCode ?? 0
    // Refused before a byte of the body is decoded: identity was asked for.
    let encoding = http?.value(forHTTPHeaderField: "Content-Encoding")?.lowercased() ?? ""
    if !encoding.isEmpty && encoding != "identity" {
      fail(
        ReleaseError(
          "\(url.absoluteString): served with Content-Encoding \(encoding), not the identity asked for (refused: the index's sizes are of the files themselves)",
          kind: .download, file: url.absoluteString, code: status))
      refuse(dataTask, completionHandler)
      return
    }
    switch status {
    case 304 where acceptsNotModified:
      notModified = true
      completionHandler(.allow)
      return
    case 206:
      // The rest must start where the part ends: bytes from elsewhere would be spliced in.
      let range = http?.value(forHTTPHeaderField: "Content-Range")
      guard let start = range.flatMap(HTTPContentRange.firstByte), start == offset else {
        fail(
          ReleaseError(
            "\(url.absoluteString): HTTP 206 with Content-Range '\(range ?? "")', not from byte \(offset) where the download stopped (refused; the next update starts over)",
            kind: .download, file: url.absoluteString, code: 206))
        // The part is no use against this server: the next try asks for the whole file.
        try? output.truncate(atOffset: 0)
        refuse(dataTask, completionHandler)
        return
      }
    case 200:
      validator = http.flatMap { HTTPValidator(response: $0, url: url) }
      // The whole file again (the server ignored the range, as `python3 -m http.server` does,
      // or there was none): start over, with the whole declared size to fill.
      if offset > 0 {
        do {
          try output.truncate(atOffset: 0)
        } catch {
          fail(
            ReleaseError(
              "cannot restart the download of \(url.absoluteString): \(error)",
              file: url.absoluteString))
          refuse(dataTask, completionHandler)
          return
        }
        offset = 0
      }
    default:
      fail(
        ReleaseError(
          "\(url.absoluteString): HTTP \(status)", kind: .download, file: url.absoluteString,
          code: status))
      refuse(dataTask, completionHandler)
      return
    }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard !hasFailed else { return }
    if let limit, received + data.count > limit {
      fail(
        ReleaseError(
          "\(url.absoluteString): more bytes than the index says", file: url.absoluteString))
      stop(dataTask)
      return
    }
    do {
      try output.write(contentsOf: data)
      received += data.count
      noteActivity(received: received)
      reportProgress(final: false)
    } catch {
      fail(
        ReleaseError(
          "cannot write the download of \(url.absoluteString): \(error)",
          file: url.absoluteString))
      stop(dataTask)
    }
  }

  /// Refuses a response: cancels its body, on every platform. swift-corelibs-foundation ignores
  /// the disposition (its `URLSessionTask.swift` passes the delegate a handler that only logs
  /// "Ignoring disposition"), so on Linux a refused body was decoded to its end: 1 GiB and
  /// 12.8 s for a gzip bomb.
  private func refuse(
    _ dataTask: URLSessionDataTask,
    _ completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    completionHandler(.cancel)
    stop(dataTask)
  }

  /// Cancels `dataTask` from outside the delegate queue. swift-corelibs-foundation's `cancel()`
  /// waits for the queue that decodes the body; called on the delegate queue, it blocks the only
  /// reader of the chunks that queue keeps handing over, and they pile up (1.18 GB for a 1 GiB
  /// gzip bomb, issue 52, item 11). On Apple platforms `cancel()` does not wait; a task that has
  /// completed already ignores it.
  private func stop(_ dataTask: URLSessionDataTask) {
    DispatchQueue.global().async { dataTask.cancel() }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    if !hasFailed, let error {
      let what: String
      switch (error as? URLError)?.code {
      case .timedOut?: what = "timed out (URLSession's own timer)"
      case .networkConnectionLost?: what = "the connection dropped"
      case .cannotConnectToHost?, .cannotFindHost?: what = "cannot connect"
      default: what = error.localizedDescription
      }
      fail(
        ReleaseError(
          "\(url.absoluteString): \(what) after \(received) bytes (kept; the next update resumes)",
          kind: .download, file: url.absoluteString))
    }
    try? output.synchronize()
    let (waiting, failure, watchdog) = lock.withLock {
      defer {
        continuation = nil
        completed = true
        self.watchdog = nil
      }
      return (continuation, self.failure, self.watchdog)
    }
    watchdog?.cancel()
    waiting?.resume(returning: failure)
  }
}

/// The first byte of an HTTP `Content-Range: bytes FIRST-LAST/SIZE` (RFC 9110, 14.4); nil for
/// anything else.
enum HTTPContentRange {
  static func firstByte(_ value: String) -> Int? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
    let range = trimmed.dropFirst("bytes ".count).trimmingCharacters(in: .whitespaces)
    guard let dash = range.firstIndex(of: "-") else { return nil }
    let first = range[..<dash]
    guard !first.isEmpty, first.allSatisfy(\.isASCII), first.allSatisfy(\.isNumber) else {
      return nil
    }
    return Int(first)
  }
}
