import BaseFormat
import DirectoryContainer

/// Why the loader could not hand the system its entries.
public enum LoaderError: Error, CustomStringConvertible, Equatable {
  case manifest(ManifestError)
  case unreadable(base: String, path: String)
  case hashMismatch(base: String, expected: String, actual: String)
  /// An incremental request's old side is a file whose hash the manifest does not record.
  case installedHashUnrecorded(base: String)
  case kindMismatch(base: String, manifest: BaseKind, file: BaseKind)
  /// The manifest's count of a base's entries or bytes is not what its file holds: the cap
  /// plan is made from the manifest's counts, so a wrong one would plan the wrong prefix.
  case countMismatch(base: String, field: String, manifest: Int, file: Int)
  case format(base: String, BaseFormatError)
  /// The journal (what was sent, for the app) could not be written.
  case journal(String)
  /// The user's lists (the copy sent, or the one the system holds) could not be read.
  case userLists(String)

  public var description: String {
    switch self {
    case .manifest(let error): "\(error)"
    case .unreadable(let base, let path): "base \(base): cannot read \(path)"
    case .hashMismatch(let base, let expected, let actual):
      "base \(base): SHA-256 \(actual.prefix(12))… does not match the manifest's \(expected.prefix(12))…"
    case .installedHashUnrecorded(let base):
      "base \(base): no hash recorded for its installed file: only a complete reload can replace it"
    case .kindMismatch(let base, let manifest, let file):
      "base \(base): the manifest says \(manifest), the file holds \(file)"
    case .countMismatch(let base, let field, let manifest, let file):
      "base \(base): the manifest says \(manifest) \(field), the file holds \(file)"
    case .format(let base, let error): "base \(base): \(error)"
    case .journal(let problem): "cannot record the request in the journal: \(problem)"
    case .userLists(let problem): "the user's lists: \(problem)"
    }
  }
}
