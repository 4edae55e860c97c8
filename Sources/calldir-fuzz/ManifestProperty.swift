import DirectoryContainer

/// Any bytes as manifest text.
enum ManifestProperty {
  static func check(_ input: UnsafeRawBufferPointer) {
    guard let text = String(validating: input, as: UTF8.self) else { return }
    guard let manifest = try? Manifest(parsing: text) else { return }
    let again = try? Manifest(parsing: manifest.encoded())
    precondition(again == manifest, "a parsed manifest does not survive encoding")
  }
}
