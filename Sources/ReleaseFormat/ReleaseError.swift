/// Why a release, a patch or an update could not be made or used: one line naming the file and
/// the problem. Whatever was being changed is left as it was.
public struct ReleaseError: Error, CustomStringConvertible, Equatable {
  /// What kind of refusal it is, for a caller that answers each differently.
  public enum Kind: Sendable, Equatable {
    /// A file, a server or an input that cannot be used.
    case failed
    /// The release would leave fewer than half the entries there were (or none): refused
    /// unless shrinking is allowed (`--allow-shrink`, exit status 5).
    case shrink
  }

  /// The line.
  public let description: String
  /// What kind of refusal it is.
  public let kind: Kind

  /// An error saying `description`.
  public init(_ description: String, kind: Kind = .failed) {
    self.description = description
    self.kind = kind
  }
}
