import PhoneNormalization

/// One normalizer per country a compile meets: the default, each input's (`FILE:CC`) and each
/// row's own (a country column), made once. One per thread (``RowIngest``), each over its own
/// copy of the numbering tables (`PhoneNormalization.NumberingTables.privateCopy()`) when
/// threads read at once.
struct NormalizerCache {
  let validation: PhoneNormalizer.Validation
  private let tables: NumberingTables
  private var byCountry: [String: PhoneNormalizer] = [:]
  /// The last country asked for and its normalizer: rows of one file mostly share one, and a
  /// comparison of two short strings is cheaper than hashing one.
  private var last: (country: String, normalizer: PhoneNormalizer)?

  init(validation: PhoneNormalizer.Validation, tables: NumberingTables = .shared) {
    self.validation = validation
    self.tables = tables
  }

  /// An empty cache over a private copy of the tables, for another thread.
  func forAnotherThread() -> NormalizerCache {
    NormalizerCache(validation: validation, tables: .privateCopy())
  }

  /// The normalizer for `country` (ISO code, any case).
  /// - Throws: `PhoneNormalization.NormalizationError.unknownCountry(_:)`.
  mutating func normalizer(_ country: String) throws(NormalizationError) -> PhoneNormalizer {
    if let last, last.country == country { return last.normalizer }
    let normalizer: PhoneNormalizer
    if let known = byCountry[country] {
      normalizer = known
    } else {
      normalizer = try PhoneNormalizer(country: country, validation: validation, tables: tables)
      byCountry[country] = normalizer
    }
    last = (country, normalizer)
    return normalizer
  }
}
