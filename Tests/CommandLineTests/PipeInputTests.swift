import Foundation
import TestSupport
import Testing

/// `compile /dev/stdin` from a pipe: a dump of any size, plain or gzip, and a gzip bomb stopped
/// after a bounded amount of work (the bound follows the compressed bytes read, not a size a
/// pipe does not have).
@Suite("Input from a pipe")
struct PipeInputTests {
  let calldir = builtExecutablePath("calldir")

  func shell(_ script: String, in folder: TemporaryFolder) throws -> ProcessRun {
    try runProcess("/bin/sh", ["-c", script], directory: folder.url)
  }

  @Test func aDumpOver16MiBFromAPipeCompilesPlainOrGzip() throws {
    let folder = try TemporaryFolder()
    let generate = try runProcess(
      calldir,
      [
        "generate", "--profile", "ci-smoke", "--entries", "330000", "--format", "tsv", "--out",
        folder.path("dump.tsv"),
      ])
    #expect(generate.status == 0, "\(generate.stderr)")
    let size = try FileManager.default.attributesOfItem(atPath: folder.path("dump.tsv"))[.size]
    #expect((size as? Int ?? 0) > 16 << 20, "over the old 16 MiB bound")
    let compile = "'\(calldir)' compile /dev/stdin --format tsv --country RU --seed-size 0 --out"
    let plain = try shell("cat dump.tsv | \(compile) plain", in: folder)
    #expect(plain.status == 0, "\(plain.stderr)")
    let gzip = try shell("gzip -1 -c dump.tsv | \(compile) gzip", in: folder)
    #expect(gzip.status == 0, "\(gzip.stderr)")
    let accepted = { (run: ProcessRun) in run.stdout.split(separator: "\n").first ?? "" }
    #expect(accepted(plain) == accepted(gzip), "\(accepted(plain)) / \(accepted(gzip))")
  }

  @Test func aGzipBombStopsAfterBoundedWork() throws {
    let folder = try TemporaryFolder()
    // A header, then 256 MB of line ends, about 250 KB compressed: over a thousand times.
    let made = try shell(
      "(printf 'number\\tlabel\\n'; head -c 256000000 /dev/zero | tr '\\0' '\\n') | gzip -9 > bomb.gz",
      in: folder)
    #expect(made.status == 0, "\(made.stderr)")
    let run = try runProcess(
      calldir, ["compile", "bomb.gz", "--format", "tsv", "--country", "RU", "--out", "box"],
      directory: folder.url)
    #expect(run.status != 0)
    let line = try #require(
      run.stderr.split(separator: "\n").first { $0.contains("expands") }, "\(run.stderr)")
    // "… (N bytes from M) …": the work stopped within 64 MiB of output, not 256 MB.
    let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    let decompressed = try #require(numbers.first { $0 > 1_000_000 })
    #expect(decompressed < 64 << 20, "\(line)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("box/manifest.cdm")))
  }
}
