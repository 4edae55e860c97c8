import Foundation
import ReleaseFormat

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A release folder served over HTTP(S), fetched with URLSession — the client an iOS app uses
/// (on Linux, through FoundationNetworking). Each file streams to its local part as it arrives,
/// so a connection that drops leaves the bytes it brought, and the next fetch asks for the rest
/// with `Range: bytes=N-`. A server that sends more than the index's size, a status other than
/// 200 or 206, or nothing for `idleTimeout` seconds ends the fetch with a one-line error.
public struct HTTPReleaseSource: ReleaseSource {
  /// The release folder's URL (its `index.json` is `base/index.json`).
  public let base: URL
  /// Seconds without a byte before a fetch gives up.
  public let idleTimeout: TimeInterval
  /// Seconds a whole fetch may take.
  public let totalTimeout: TimeInterval

  /// The longest timeout kept: 30 days. URLSession's and Dispatch's timers trap on values they
  /// cannot schedule (`inf` and `1e308` died with SIGILL inside FoundationNetworking).
  public static let maximumTimeout: TimeInterval = 30 * 86_400

  /// A source for the folder at `base`. A timeout over ``maximumTimeout`` (infinity included)
  /// is that maximum; one that is not a positive number (NaN, 0, negative) is the default's.
  public init(base: URL, idleTimeout: TimeInterval = 30, totalTimeout: TimeInterval = 600) {
    func clamped(_ seconds: TimeInterval, _ fallback: TimeInterval) -> TimeInterval {
      seconds > 0 ? min(seconds, Self.maximumTimeout) : fallback
    }
    self.base = base
    self.idleTimeout = clamped(idleTimeout, 30)
    self.totalTimeout = clamped(totalTimeout, 600)
  }

  public func fetch(_ path: String, to destination: String, expectedByteCount: Int?)
    throws(ReleaseError)
  {
    let url = base.appendingPathComponent(path)
    if !FileManager.default.fileExists(atPath: destination) {
      FileManager.default.createFile(atPath: destination, contents: nil)
    }
    guard let output = FileHandle(forUpdatingAtPath: destination) else {
      throw ReleaseError("cannot write \(destination)")
    }
    defer { try? output.close() }
    let have = Int((try? output.seekToEnd()) ?? 0)
    if let expectedByteCount, have >= expectedByteCount { return }
    var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
    request.timeoutInterval = idleTimeout
    if have > 0 { request.setValue("bytes=\(have)-", forHTTPHeaderField: "Range") }
    let receiver = Receiver(output: output, offset: have, total: expectedByteCount, url: url)
    let session = URLSession(configuration: .ephemeral, delegate: receiver, delegateQueue: nil)
    defer { session.invalidateAndCancel() }
    let task = session.dataTask(with: request)
    task.resume()
    if receiver.finished.wait(timeout: .now() + totalTimeout) == .timedOut {
      task.cancel()
      throw ReleaseError("\(url.absoluteString): no answer within \(Int(totalTimeout)) s")
    }
    if let failure = receiver.failure { throw failure }
  }
}

/// Streams a response's body into the part file, checking its status and size.
private final class Receiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  let output: FileHandle
  /// Bytes of the file already in the part when the body starts.
  var offset: Int
  /// The whole file's size, from the index.
  let total: Int?
  let url: URL
  var received = 0
  var failure: ReleaseError?
  let finished = DispatchSemaphore(value: 0)

  init(output: FileHandle, offset: Int, total: Int?, url: URL) {
    self.output = output
    self.offset = offset
    self.total = total
    self.url = url
  }

  /// Bytes this body may bring: the rest of the declared size after what the part holds.
  var limit: Int? { total.map { $0 - offset } }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    let http = response as? HTTPURLResponse
    let status = http?.statusCode ?? 0
    switch status {
    case 206:
      // The rest must start where the part ends: bytes from elsewhere would be spliced in.
      let range = http?.value(forHTTPHeaderField: "Content-Range")
      guard let start = range.flatMap(HTTPContentRange.firstByte), start == offset else {
        failure = ReleaseError(
          "\(url.absoluteString): HTTP 206 with Content-Range '\(range ?? "")', not from byte \(offset) where the download stopped (refused; the next update starts over)"
        )
        // The part is no use against this server: the next try asks for the whole file.
        try? output.truncate(atOffset: 0)
        completionHandler(.cancel)
        return
      }
    case 200:
      // The whole file again (the server ignored the range, as `python3 -m http.server` does,
      // or there was none): start over, with the whole declared size to fill.
      if offset > 0 {
        do {
          try output.truncate(atOffset: 0)
        } catch {
          failure = ReleaseError("cannot restart the download of \(url.absoluteString): \(error)")
          completionHandler(.cancel)
          return
        }
        offset = 0
      }
    default:
      failure = ReleaseError("\(url.absoluteString): HTTP \(status)")
      completionHandler(.cancel)
      return
    }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard failure == nil else { return }
    if let limit, received + data.count > limit {
      failure = ReleaseError("\(url.absoluteString): more bytes than the index says")
      dataTask.cancel()
      return
    }
    do {
      try output.write(contentsOf: data)
      received += data.count
    } catch {
      failure = ReleaseError("cannot write the download of \(url.absoluteString): \(error)")
      dataTask.cancel()
    }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    if failure == nil, let error {
      let what: String
      switch (error as? URLError)?.code {
      case .timedOut?: what = "timed out (no byte for the idle timeout)"
      case .networkConnectionLost?: what = "the connection dropped"
      case .cannotConnectToHost?, .cannotFindHost?: what = "cannot connect"
      default: what = error.localizedDescription
      }
      failure = ReleaseError(
        "\(url.absoluteString): \(what) after \(received) bytes (kept; the next update resumes)")
    }
    try? output.synchronize()
    finished.signal()
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
