/// One entry read from a base: a number and, for identification bases, its label.
public struct BaseEntry: Equatable, Hashable, Sendable {
  /// The CallKit number.
  public var number: Int64
  /// The label shown on an incoming call; empty for blocking entries.
  public var label: String

  /// Creates an entry.
  public init(number: Int64, label: String = "") {
    self.number = number
    self.label = label
  }
}
