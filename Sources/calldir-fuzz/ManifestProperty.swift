import ByteCoding
import DirectoryContainer

/// Any bytes as manifest text, and as the extension's journal (the container's other text file,
/// parsed by the same field rules).
enum ManifestProperty {
  static func check(_ input: [UInt8]) {
    guard let text = String(validatingUTF8Bytes: input) else { return }
    if let journal = try? ExtensionJournal(parsing: text) {
      let again = try? ExtensionJournal(parsing: journal.encoded())
      precondition(again == journal, "a parsed journal does not survive encoding")
    }
    guard let manifest = try? Manifest(parsing: text) else { return }
    let again = try? Manifest(parsing: manifest.encoded())
    precondition(again == manifest, "a parsed manifest does not survive encoding")
  }
}
