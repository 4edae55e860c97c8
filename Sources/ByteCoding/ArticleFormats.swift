/// The constants of the articles' own file formats, written once: the generator writes them,
/// the compiler reads them, and the baselines read them as the articles do.
@usableFromInline package enum ArticleFormats {
  /// The Russian guide's separator between a number and its name on a line (`number` U+D7FF
  /// `name`): a noncharacter-adjacent code point a user is very unlikely to type (seed 003).
  @usableFromInline package static let russianSeparator = "\u{D7FF}"
}
