/// Which of the system's two lists a base feeds.
public enum BaseKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
  /// Numbers with a label shown on an incoming call.
  case identification = 1
  /// Numbers to block; records carry no label.
  case blocking = 2

  public var description: String {
    switch self {
    case .identification: "identification"
    case .blocking: "blocking"
    }
  }

  /// Parses `identification` or `blocking`.
  package init?(name: String) {
    switch name {
    case "identification": self = .identification
    case "blocking": self = .blocking
    default: return nil
    }
  }
}
