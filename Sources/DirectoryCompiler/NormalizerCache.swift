import PhoneNormalization

/// One normalizer per country a compile meets: the default, each input's (`FILE:CC`) and each
/// row's own (a country column), made once.
struct NormalizerCache {
  let validation: PhoneNormalizer.Validation
  private var byCountry: [String: PhoneNormalizer] = [:]

  init(validation: PhoneNormalizer.Validation) {
    self.validation = validation
  }

  /// The normalizer for `country` (ISO code, any case).
  /// - Throws: ``PhoneNormalization/NormalizationError/unknownCountry(_:)``.
  mutating func normalizer(_ country: String) throws(NormalizationError) -> PhoneNormalizer {
    if let known = byCountry[country] { return known }
    let made = try PhoneNormalizer(country: country, validation: validation)
    byCountry[country] = made
    return made
  }
}
