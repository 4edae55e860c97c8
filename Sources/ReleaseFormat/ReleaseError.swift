/// Why a release, a patch or an update could not be made or used: one line naming the file and
/// the problem, with a ``kind`` to switch on. Whatever was being changed is left as it was.
public struct ReleaseError: Error, CustomStringConvertible, Equatable, Sendable {
  /// What kind of refusal it is, for a caller that answers each differently.
  public enum Kind: Sendable, Equatable, Hashable {
    /// A file or an input that cannot be used: trying again with it fails again.
    case failed
    /// The release would leave fewer than half the entries there were (or none): refused
    /// unless shrinking is allowed (`--allow-shrink`, exit status 5).
    case shrink
    /// A file could not be fetched: the network, a timeout, or an HTTP status (``code``).
    /// What arrived is kept, and the next fetch resumes.
    case download
    /// The fetch's task was cancelled; what arrived is kept.
    case cancelled
  }

  /// The line.
  public let description: String
  /// What kind of refusal it is.
  public let kind: Kind
  /// The release's file it concerns (its path in the release folder, or its URL), when known.
  public let file: String?
  /// The HTTP status a server answered with, for a ``Kind/download`` refused by status.
  public let code: Int?

  /// Whether fetching again can succeed: a dropped connection, a timeout, a server error (5xx,
  /// 408, 429) or a cancelled task; not a 404, a wrong hash or a damaged patch.
  public var isRetryable: Bool {
    switch kind {
    case .download: code.map { $0 >= 500 || $0 == 408 || $0 == 429 } ?? true
    case .cancelled: true
    case .failed, .shrink: false
    }
  }

  /// An error saying `description`.
  public init(_ description: String, kind: Kind = .failed, file: String? = nil, code: Int? = nil) {
    self.description = description
    self.kind = kind
    self.file = file
    self.code = code
  }
}
