/// One entry read from a base: a number and, for identification bases, its label.
@usableFromInline package struct BaseEntry: Equatable, Hashable, Sendable {
  /// The CallKit number.
  @usableFromInline package var number: Int64
  /// The label shown on an incoming call; empty for blocking entries.
  @usableFromInline package var label: String

  /// Creates an entry.
  package init(number: Int64, label: String = "") {
    self.number = number
    self.label = label
  }
}
