/// How the extension reads a base.
@usableFromInline package enum LoadStrategy: String, CaseIterable, Sendable {
  /// `mmap` in bounded windows, each released once consumed (`BaseFormat.MappedBaseReader`).
  case mmap
  /// `read()` through one 8 KiB buffer (`BaseFormat.BufferedBaseReader`).
  case buffered
}
