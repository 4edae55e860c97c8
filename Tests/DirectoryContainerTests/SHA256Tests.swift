import ByteCoding
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@Suite("SHA-256: the FIPS examples, and a file fed in odd chunks")
struct SHA256Tests {
  func digest(_ text: String) -> String {
    var hash = SHA256()
    Array(text.utf8).withUnsafeBytes { hash.update(ByteView($0)) }
    return hash.hexDigest()
  }

  @Test func sha256MatchesTheFIPSExamples() {
    #expect(digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  /// coreutils' `sha256sum` as an independent implementation, where it is installed.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sha256sum")))
  func sha256MatchesCoreutilsOnAFileFedInOddChunks() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("data.bin")
    var bytes = [UInt8](repeating: 0, count: 1_000_003)
    for index in bytes.indices {
      bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = [path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    process.waitUntilExit()
    let expected = String(
      decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self
    )
    .split(separator: " ").first.map(String.init)
    #expect(SHA256.hexDigest(ofFile: path) == expected)
    var chunked = SHA256()
    var start = 0
    for size in [1, 63, 64, 65, 1000, 4096, 100_000] where start < bytes.count {
      let end = min(bytes.count, start + size)
      bytes[start..<end].withUnsafeBytes { chunked.update(ByteView($0)) }
      start = end
    }
    bytes[start...].withUnsafeBytes { chunked.update(ByteView($0)) }
    #expect(chunked.hexDigest() == expected)
  }
}
