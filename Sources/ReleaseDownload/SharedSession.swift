import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// Safe: `receivers` is touched only under `lock`; the session is set once, in init.
/// One URLSession for every fetch of a source (an update's index, patches and bases), with one
/// delegate that hands each task's events to that task's receiver. A session per file leaked
/// about 45 KB each in FoundationNetworking: a 12,000-patch chain over HTTP grew to 544 MB
/// (issue 52, item 11).
final class SharedSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: `receivers` is only touched under `lock`; the session is created once in init.
  private let lock = NSLock()
  private var receivers: [Int: Receiver] = [:]
  /// The session; its delegate (this object) is held by it until `invalidate()`.
  private(set) var session: URLSession!

  /// A session with `configuration`, or (nil) the default one.
  init(configuration: URLSessionConfiguration? = nil) {
    super.init()
    session = URLSession(
      configuration: configuration ?? Self.defaultConfiguration(), delegate: self,
      delegateQueue: nil)
  }

  /// No cache, cookies or credentials kept: every response is read once, as it streams to its
  /// file. An ephemeral session still caches responses in memory, which grew with the files of
  /// a long patch chain.
  static func defaultConfiguration() -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpCookieStorage = nil
    configuration.urlCredentialStorage = nil
    return configuration
  }

  /// Makes a task whose events go to `receiver` until it completes.
  func dataTask(with request: URLRequest, receiver: Receiver)
    -> URLSessionDataTask
  {
    let task = session.dataTask(with: request)
    lock.withLock { receivers[task.taskIdentifier] = receiver }
    return task
  }

  /// Ends the session once its tasks are done (the source is gone).
  func invalidate() { session.finishTasksAndInvalidate() }

  private func receiver(_ task: URLSessionTask) -> (Receiver)? {
    lock.withLock { receivers[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    guard let receiver = receiver(dataTask) else { return completionHandler(.cancel) }
    receiver.urlSession(
      session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    receiver(dataTask)?.urlSession(session, dataTask: dataTask, didReceive: data)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    let receiver = lock.withLock { receivers.removeValue(forKey: task.taskIdentifier) }
    receiver?.urlSession(session, task: task, didCompleteWithError: error)
  }
}

/// Holds a source's shared session and invalidates it when the last copy of the source is gone.
final class SessionOwner: Sendable {
  let shared: SharedSession
  init(configuration: URLSessionConfiguration?) {
    shared = SharedSession(configuration: configuration)
  }
  deinit { shared.invalidate() }

  /// A task on the shared session.
  func dataTask(with request: URLRequest, receiver: Receiver) -> URLSessionDataTask {
    shared.dataTask(with: request, receiver: receiver)
  }
}
