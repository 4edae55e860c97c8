/// The name a team's compiled base is benched and recorded under: its file name without the
/// content hash the compiler and `publish` put in it (`region-RU-MOW.889544c2c4fd7130.cdb` is
/// `region-RU-MOW.cdb`), so that the same region's runs stay one series, and one baseline entry,
/// as its data changes from commit to commit.
public enum BaseSeriesName {
  /// Hex digits of the content hash in a compiled base's file name (`ReleasePublisher`).
  static let hashDigits = 16

  /// `fileName` (a last path component) without its `.<16 hex digits>` before `.cdb`; any other
  /// name is returned as it is.
  public static func of(fileName: String) -> String {
    let suffix = ".cdb"
    guard fileName.hasSuffix(suffix) else { return fileName }
    let stem = fileName.dropLast(suffix.count)
    guard let dot = stem.lastIndex(of: ".") else { return fileName }
    let hash = stem[stem.index(after: dot)...]
    guard hash.count == hashDigits, hash.allSatisfy(\.isHexDigit), dot != stem.startIndex else {
      return fileName
    }
    return String(stem[..<dot]) + suffix
  }
}
