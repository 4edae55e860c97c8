/// An extension's enabled status, with iOS's raw values (`CXCallDirectoryEnabledStatus`).
public enum ExtensionState: Int64, Sendable, CustomStringConvertible {
  case unknown = 0
  case disabled = 1
  case enabled = 2

  public var description: String {
    switch self {
    case .unknown: "unknown"
    case .disabled: "disabled"
    case .enabled: "enabled"
    }
  }
}

/// What an incoming call shows for a number.
public enum LookupResult: Equatable, Sendable, CustomStringConvertible {
  /// An enabled extension identifies it with this label.
  case identified(label: String, bundleID: String)
  /// An enabled extension blocks it.
  case blocked(bundleID: String)
  /// No enabled extension knows it.
  case unknown

  public var description: String {
    switch self {
    case .identified(let label, _): label
    case .blocked: "blocked"
    case .unknown: "unknown"
    }
  }
}
