import Foundation
import TestSupport
import Testing

/// `normalize`, `compile` and `host lookup` read written numbers with one grammar: digits of
/// every script, full-width forms, vanity letters; and refuse the same things with a reason.
@Suite("One grammar for normalize, compile and host lookup")
struct WrittenNumberCommandTests {
  let calldir = builtExecutablePath("calldir")

  /// Each written form (country CN) and the CallKit number it is.
  static let forms: [(String, Int64)] = [
    ("＋８６ １０ ２０００ １５２５", 861_020_001_525),
    ("（０１０）２０００－１５２６", 861_020_001_526),
    ("+49 30 1234567８", 493_012_345_678),
    ("+971 ٥٠ ١٢٣ ٤٥٦٧", 971_501_234_567),
    ("+91 ९८७६५ ४३२१०", 919_876_543_210),
    ("+1-800-FLOWERS", 18_003_569_377),
  ]

  @Test func everyFormReadsAlikeInEveryCommand() throws {
    let folder = try TemporaryFolder()
    let input = Self.forms.map(\.0).joined(separator: "\n") + "\n+86 10 2000_1525\n"
    let normalized = try runProcess(calldir, ["normalize", "--country", "CN"], stdin: input)
    #expect(normalized.status == 0, "\(normalized.stderr)")
    let lines = normalized.stdout.split(separator: "\n").map(String.init)
    #expect(lines.dropLast() == Self.forms.map { String($0.1) }[...], "\(lines)")
    #expect(lines.last?.hasPrefix("error: unexpected '_'") == true, "\(lines)")

    let dump = folder.path("dump.tsv")
    let rows = Self.forms.enumerated().map { "\($1.0)\tname \($0)" }.joined(separator: "\n")
    try ("number\tlabel\n" + rows + "\n+86 10 2000_1525\tcut\n").write(
      toFile: dump, atomically: true, encoding: .utf8)
    let box = folder.path("box")
    let compile = try runProcess(
      calldir, ["compile", dump, "--out", box, "--country", "CN", "--seed-size", "0"])
    #expect(compile.status == 0, "\(compile.stderr)")
    #expect(compile.stdout.contains("unexpected character"), "\(compile.stdout)")
    let host = ["--host-dir", folder.path("host")]
    let enable = try runProcess(
      calldir, ["host", "enable", "com.example.scripts", "--container", box] + host)
    #expect(enable.status == 0, "\(enable.stderr)")
    let sync = try runProcess(
      calldir, ["app", "sync", "com.example.scripts", "--container", box] + host)
    #expect(sync.status == 0, "\(sync.stderr)")
    for (index, (written, number)) in Self.forms.enumerated() {
      let lookup = try runProcess(
        calldir, ["host", "lookup", written, "--country", "CN"] + host)
      #expect(lookup.status == 0, "\(written): \(lookup.stderr)")
      #expect(lookup.stdout.contains("name \(index)"), "\(written) (\(number)): \(lookup.stdout)")
    }
    let refused = try runProcess(
      calldir, ["host", "lookup", "+86 10 2000_1525", "--country", "CN"] + host)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("unexpected '_'"), "\(refused.stderr)")
  }
}
