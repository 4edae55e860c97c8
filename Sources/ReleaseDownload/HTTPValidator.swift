import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What names one version of a file on an HTTP server, for a conditional GET (RFC 9110, 13.1):
/// its `ETag`, or its `Last-Modified` date when the server sends no tag. Stored as one line,
/// `etag VALUE` or `modified VALUE`.
struct HTTPValidator: Equatable, Sendable {
  enum Kind: String { case etag, modified }
  let kind: Kind
  let value: String

  /// The validator a response carries; nil when it has none, or one with a control character.
  init?(response: HTTPURLResponse) {
    if let tag = response.value(forHTTPHeaderField: "ETag") {
      self.init(kind: .etag, value: tag)
    } else if let date = response.value(forHTTPHeaderField: "Last-Modified") {
      self.init(kind: .modified, value: date)
    } else {
      return nil
    }
  }

  /// A validator stored by ``stored``; nil for anything else.
  init?(stored: String) {
    let parts = stored.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, let kind = Kind(rawValue: String(parts[0])) else { return nil }
    self.init(kind: kind, value: String(parts[1]))
  }

  private init?(kind: Kind, value: String) {
    // A header value goes back into a header: nothing that could end it or start another.
    guard !value.isEmpty, value.count <= 1_024,
      value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f })
    else { return nil }
    self.kind = kind
    self.value = value
  }

  /// The line it is stored as.
  var stored: String { kind.rawValue + " " + value }

  /// Makes `request` conditional on it.
  func apply(to request: inout URLRequest) {
    switch kind {
    case .etag: request.setValue(value, forHTTPHeaderField: "If-None-Match")
    case .modified: request.setValue(value, forHTTPHeaderField: "If-Modified-Since")
    }
  }
}
