import CZlib
import Foundation

/// A decompression bomb: a file followed by many MiB of zeros, gzipped at level 9 (1 GiB of
/// zeros is about a megabyte on the wire).
enum GzipBomb {
  /// `body` and then `extraMiB` MiB of zeros, as a gzip stream.
  static func make(_ body: [UInt8], extraMiB: Int) -> [UInt8] {
    let path = NSTemporaryDirectory() + "/calldir-bomb-\(UUID().uuidString).gz"
    defer { try? FileManager.default.removeItem(atPath: path) }
    guard let file = gzopen(path, "wb9") else { return [] }
    _ = gzwrite(file, body, UInt32(body.count))
    let zeros = [UInt8](repeating: 0, count: 1 << 20)
    for _ in 0..<max(0, extraMiB) { _ = gzwrite(file, zeros, UInt32(zeros.count)) }
    gzclose(file)
    return FileManager.default.contents(atPath: path).map(Array.init) ?? []
  }
}
