import ReleaseFormat

/// Any bytes as a release index: the reader refuses them, or what it read encodes to JSON that
/// reads back the same (and the reader never traps, however deep, long or malformed the text).
enum IndexProperty {
  static func check(_ input: [UInt8]) {
    guard let index = try? ReleaseIndex(parsing: input, path: "fuzz") else { return }
    let again = try? ReleaseIndex(parsing: Array(index.json.utf8), path: "fuzz")
    precondition(again == index, "a parsed index does not survive encoding")
    // Choosing a download over any index stays within its patches.
    if let latest = index.latest {
      for base in latest.bases {
        let chain = index.cheapestChain(from: index.versions.first?.bases.first?.sha256, to: base)
        precondition(chain.count <= index.patches.count, "a chain longer than the patches")
      }
    }
  }
}
