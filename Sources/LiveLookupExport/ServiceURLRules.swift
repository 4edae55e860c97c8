import Foundation

/// The rules iOS and macOS 26.4 apply to a Live Caller ID Lookup service's URLs: the service
/// URL and the Privacy Pass token issuer URL an app puts in its
/// `LiveCallerIDLookupExtensionContext`.
///
/// Source: Apple's `pir-service-example`, `Sources/PIRService/PIRService.docc/Onboarding.md`
/// (commit 52d08a8, 2026-03-03: "Support for custom paths for the service URL and token issuer
/// URL was removed in iOS and macOS 26.4", subdomains instead of paths; commit 5523147,
/// 2026-03-19: a trailing "/" must be removed). Its bad example,
/// `http://example.net:8080/lookup`, breaks three rules: no HTTPS, a non-standard port, a path.
/// An app installed from Xcode is exempt (paths, ports and HTTP allowed while developing);
/// the App Store build is not. One check is calldir's own: the host must be a domain name,
/// because the onboarding checklist's ownership proof is a DNS TXT record on the service URL
/// (`apple-live-caller-id-lookup=<extension bundle identifier>`), which an address cannot hold.
public enum ServiceURLRules {
  /// One rule a URL breaks.
  public enum Violation: String, Sendable, CaseIterable, CustomStringConvertible {
    case notAURL = "not a URL"
    case notHTTPS = "not HTTPS"
    case nonStandardPort = "a port other than HTTPS's 443"
    case path = "a path (iOS 26.4 takes a subdomain instead)"
    case trailingSlash = "a trailing '/' (remove it)"
    case queryOrFragment = "a query or fragment"
    case credentials = "a user name or password"
    case noDomainName = "no domain name (an address or a single label)"

    public var description: String { rawValue }
  }

  /// HTTPS's standard port: the only one the rules allow.
  public static let standardPort = 443

  /// The rules `url` breaks, in the order a reader fixes them; empty for a URL that passes.
  public static func violations(of url: String) -> [Violation] {
    guard let components = URLComponents(string: url), let scheme = components.scheme,
      let host = components.host, !host.isEmpty, url.contains("://")
    else { return [.notAURL] }
    var found: [Violation] = []
    if scheme.lowercased() != "https" { found.append(.notHTTPS) }
    if let port = components.port, port != standardPort { found.append(.nonStandardPort) }
    if components.user != nil || components.password != nil { found.append(.credentials) }
    let path = components.percentEncodedPath
    if path == "/" {
      found.append(.trailingSlash)
    } else if !path.isEmpty {
      found.append(.path)
    }
    if components.percentEncodedQuery != nil || components.percentEncodedFragment != nil {
      found.append(.queryOrFragment)
    }
    let labels = host.split(separator: ".", omittingEmptySubsequences: false)
    let isAddress =
      host.hasPrefix("[") || host.contains(":")
      || (labels.count == 4 && labels.allSatisfy { UInt8($0) != nil })
    if isAddress || labels.count < 2 || labels.contains(where: \.isEmpty) {
      found.append(.noDomainName)
    }
    return found
  }

  /// One line for `url`: "ok", or every rule it breaks.
  public static func verdict(_ url: String) -> String {
    let broken = violations(of: url)
    return broken.isEmpty ? "ok" : broken.map(\.description).joined(separator: "; ")
  }
}
