import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What names one version of a file on an HTTP server, for a conditional GET (RFC 9110, 13.1):
/// its `ETag`, or its `Last-Modified` date when the server sends no tag, with the URL it names a
/// version of: another server's tag or date says nothing of this one's file (two servers can
/// publish different indexes in the same second). Stored as one line, `etag URL VALUE` or
/// `modified URL VALUE`.
struct HTTPValidator: Equatable, Sendable {
  enum Kind: String { case etag, modified }
  let kind: Kind
  let url: String
  let value: String

  /// The validator a response to a request for `url` carries; nil when it has none, or one with
  /// a control character.
  init?(response: HTTPURLResponse, url: URL) {
    if let tag = response.value(forHTTPHeaderField: "ETag") {
      self.init(kind: .etag, url: url.absoluteString, value: tag)
    } else if let date = response.value(forHTTPHeaderField: "Last-Modified") {
      self.init(kind: .modified, url: url.absoluteString, value: date)
    } else {
      return nil
    }
  }

  /// A validator stored by ``stored``; nil for anything else.
  init?(stored: String) {
    let parts = stored.split(separator: " ", maxSplits: 2)
    guard parts.count == 3, let kind = Kind(rawValue: String(parts[0])) else { return nil }
    self.init(kind: kind, url: String(parts[1]), value: String(parts[2]))
  }

  private init?(kind: Kind, url: String, value: String) {
    guard !url.isEmpty, !url.contains(" ") else { return nil }
    // A header value goes back into a header: nothing that could end it or start another.
    guard !value.isEmpty, value.count <= 1_024,
      value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f })
    else { return nil }
    self.kind = kind
    self.url = url
    self.value = value
  }

  /// The line it is stored as.
  var stored: String { kind.rawValue + " " + url + " " + value }

  /// Makes `request` conditional on it.
  func apply(to request: inout URLRequest) {
    switch kind {
    case .etag: request.setValue(value, forHTTPHeaderField: "If-None-Match")
    case .modified: request.setValue(value, forHTTPHeaderField: "If-Modified-Since")
    }
  }
}
