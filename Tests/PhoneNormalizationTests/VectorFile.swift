import Foundation

/// A written number and what libphonenumber makes of it, with each validation.
struct Vector {
  let country: String?
  let written: String
  let possible: Int64?
  let valid: Int64?
}

/// The generated vector files under `Vectors/` (country, written, possible, valid; `-` for none;
/// lines starting with `#` are comments).
enum VectorFile {
  static func read(_ name: String) -> [Vector] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Vectors/\(name)")
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst().map { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      return Vector(
        country: fields[0] == "-" ? nil : fields[0], written: fields[1],
        possible: Int64(fields[2]), valid: Int64(fields[3]))
    }
  }
}
