/// Why a release, a patch or an update could not be made or used: one line naming the file and
/// the problem. Whatever was being changed is left as it was.
public struct ReleaseError: Error, CustomStringConvertible, Equatable {
  /// The line.
  public let description: String

  /// An error saying `description`.
  public init(_ description: String) { self.description = description }
}
