import ArgumentParser
import BaseFormat
import Foundation
import SystemCalls
import SystemPackage

struct InspectCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inspect",
    abstract: "Show a base's header, counts, number range and labels, and verify it.",
    discussion: """
      Reads the whole base, checking every block's checksum and every label's UTF-8. Exit \
      statuses: 0 the base is sound; 1 it is missing, foreign, truncated or corrupt (the message \
      names the byte offset). --dump prints the entries in the order the loader sends them: \
      number<TAB>label, or the number alone for blocking bases.
      """)

  @Argument(help: "A base file.", completion: .file(extensions: ["cdb"]), transform: nonEmptyPath)
  var base: String
  @Flag(name: .long, help: "Print every entry.") var dump = false

  func run() throws {
    do throws(BaseFormatError) {
      if try BaseHeader.read(path: base).isRules {
        try inspectRules()
        return
      }
      let reader = try MappedBaseReader(path: base, validatesLabels: true)
      let header = reader.header
      let fileByteCount =
        (try? FileManager.default.attributesOfItem(atPath: base)[.size] as? Int) ?? 0
      if !dump {
        let encoding =
          header.isCompact ? "compact (deltas, mapped label dictionary)" : "fixed-width records"
        print("\(base): calldir base v\(header.version), \(encoding), \(header.kind)")
        print(
          "entries: \(header.entryCount) in \(header.blockCount) blocks, \(fileByteCount) bytes"
        )
        if header.entryCount > 0 {
          print("numbers: \(header.lowestNumber) … \(header.highestNumber)")
        }
      }
      var labelBytes = 0
      var shortest = Int.max
      var longest = 0
      var output = ""
      while let entry = try reader.next() {
        let count = entry.label.utf8.count
        labelBytes += count
        shortest = min(shortest, count)
        longest = max(longest, count)
        if dump {
          output +=
            header.kind == .blocking ? "\(entry.number)\n" : "\(entry.number)\t\(entry.label)\n"
          if output.utf8.count > 1 << 16 {
            Self.writeOrExit(output)
            output = ""
          }
        }
      }
      if dump {
        Self.writeOrExit(output)
        return
      }
      if header.kind == .identification && header.entryCount > 0 {
        print(
          String(
            format: "labels: %d to %d UTF-8 bytes, %.1f on average", shortest, longest,
            Double(labelBytes) / Double(header.entryCount)))
      }
      print("checksums: every block and the header verified")
    } catch {
      throw ValidationError(error.description)
    }
  }

  /// A rule base: its ranges with their counts, labels and rules, then the checks; with --dump,
  /// every number in the order the loader sends them (a range expanded).
  private func inspectRules() throws(BaseFormatError) {
    let reader = try RuleBaseReader(path: base, validatesLabels: true)
    let header = reader.header
    if dump {
      var output = ""
      while let entry = try reader.next() {
        output +=
          header.kind == .blocking ? "\(entry.number)\n" : "\(entry.number)\t\(entry.label)\n"
        if output.utf8.count > 1 << 16 {
          Self.writeOrExit(output)
          output = ""
        }
      }
      Self.writeOrExit(output)
      return
    }
    let fileByteCount =
      (try? FileManager.default.attributesOfItem(atPath: base)[.size] as? Int) ?? 0
    print("\(base): calldir rule base v\(header.version), number ranges, \(header.kind)")
    print("entries: \(header.entryCount) in \(header.blockCount) ranges, \(fileByteCount) bytes")
    if header.entryCount > 0 { print("numbers: \(header.lowestNumber) … \(header.highestNumber)") }
    print("ranges (first … last, numbers, label, rule):")
    while let range = try reader.nextRange() {
      let label = range.label.isEmpty ? "-" : range.label
      print("  \(range.first) … \(range.last)\t\(range.count)\t\(label)\t\(range.rule)")
    }
    print("checksums: the header, every range and the dictionary verified")
  }

  /// Writes a dump's text to stdout, or ends the command: quietly with 141 when the reader went
  /// away (`| head`), with one line and 1 when stdout is full or closed.
  static func writeOrExit(_ text: String) {
    do throws(Errno) { try StandardOutput.write(text.utf8) } catch {
      if error == .brokenPipe { Foundation.exit(ExitStatus.outputClosed.rawValue) }
      StandardError.write("calldir: cannot write to stdout: \(SystemErrorText.text(error))\n")
      Foundation.exit(ExitStatus.usageOrInput.rawValue)
    }
  }
}
