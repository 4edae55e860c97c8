/// A compact base's label dictionary, read whole: what a patch's label references point into
/// (at most ``BaseHeader/maximumDictionaryEntryCount`` labels of
/// ``BaseHeader/maximumDictionaryByteCount`` bytes in all, so bounded).
package enum BaseDictionary {
  /// The labels of the base at `path`'s dictionary, by index; empty for a fixed-width base.
  /// - Throws: ``BaseFormatError`` for a missing, foreign, truncated or corrupt file.
  package static func labels(ofBaseAt path: String) throws(BaseFormatError) -> [String] {
    let opened = try OpenedBase(path: path, validatesLabels: true)
    defer { try? opened.descriptor.close() }
    guard let dictionary = opened.dictionary else { return [] }
    return (0..<dictionary.count).map {
      String(decoding: dictionary.label(at: $0), as: UTF8.self)
    }
  }
}
