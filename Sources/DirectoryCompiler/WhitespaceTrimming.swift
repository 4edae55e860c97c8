import ByteCoding

extension String {
  /// The string without leading and trailing whitespace as Foundation's `.whitespaces` means it
  /// (tab and Unicode's space separators), by `ByteCoding.UTF8Validation.trimmingWhitespace(_:)`:
  /// one definition for rows read as bytes and as strings. Foundation's `trimmingCharacters(in:)`
  /// bridges through NSString and was over a third of a compile's instructions.
  func trimmingWhitespace() -> String {
    UTF8Validation.trimmingWhitespace(self)
  }
}
