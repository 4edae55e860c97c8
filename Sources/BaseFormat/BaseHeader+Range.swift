extension BaseHeader {
  /// Whether a base with this header may hold a number in `range`: its lowest and highest
  /// numbers (checked with the header) bound every entry, and an empty base holds none.
  package func mayHold(numbersIn range: Range<Int64>) -> Bool {
    entryCount > 0 && lowestNumber < range.upperBound && highestNumber >= range.lowerBound
  }
}
