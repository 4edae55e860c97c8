import ArgumentParser
import ByteCoding
import DirectoryCompiler
import Foundation
import PhoneNormalization
import SystemCalls
import SystemPackage

struct NormalizeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "normalize",
    abstract: "Turn written numbers (one per line on stdin) into CallKit digits.",
    discussion: """
      Prints one line per input line: the CallKit digits, or `error: REASON`. The rules are \
      libphonenumber's for every region, compiled into calldir (--list-countries): digits of \
      every script read (＋８６ １０…, ٠٥٠…), vanity letters as keypad digits (1-800-FLOWERS), \
      extensions (доб. 123, ext. 12, x12) dropped, separators ignored, and any other character \
      with digits after it refused rather than read as another number; a number is international when \
      written with + or with the country's own international prefix (810 in RU, 011 in US and \
      CA, 00 in most places, 0011 in AU, 010 in JP), and national otherwise, its national prefix \
      dropped. The same code reads numbers for `compile` and `host lookup`. Exit status 0 even \
      when lines are rejected (they are reported in place), 1 for an unknown country.
      """)

  @Option(name: .long, help: "The country national numbers belong to (ISO code).")
  var country: String = "RU"
  @Option(
    name: .long,
    help:
      "How much of a number is checked: possible (its region's lengths) or valid (a number type's pattern)."
  )
  var validate: PhoneNormalizer.Validation = .possible
  @Flag(
    name: .long,
    help: "List every country: ISO code, calling code, international and national prefix.")
  var listCountries = false

  func run() throws {
    if listCountries {
      let tables = NumberingTables.shared
      var lines = "country\tcalling code\tinternational prefix\tnational prefix\n"
      for id in tables.regionIDs {
        let region = tables.region(id)!
        lines +=
          "\(id)\t+\(region.callingCode)\t\(region.preferredInternationalPrefix)\t\(region.nationalPrefix)\n"
      }
      print(lines, terminator: "")
      print(
        "\(tables.regionIDs.count) countries, from libphonenumber's metadata \(tables.libphonenumberVersion)"
      )
      return
    }
    let normalizer: PhoneNormalizer
    do {
      normalizer = try PhoneNormalizer(country: country, validation: validate)
    } catch {
      throw ValidationError(error.description)
    }
    // Lines as bytes, straight to the normalizer: no String per line (readLine's cost was
    // several times the normalizing). gzip input is read too.
    guard !StandardStreams.standardInputWasClosed else {
      throw ValidationError("standard input is closed: give the numbers on stdin, one a line")
    }
    let lines: InputLines
    do {
      lines = try InputLines(path: "/dev/stdin")
    } catch {
      throw ValidationError("cannot read standard input: \(error)")
    }
    var output: [UInt8] = []
    output.reserveCapacity(Self.flushByteCount + 256)
    // The first write that fails ends the run: a reader gone (`| head`) exits 141, quietly;
    // a full disk is an error.
    var writeFailure: Errno?
    while writeFailure == nil,
      lines.next({ line in
        do {
          guard !lines.lastLineWasTooLong else {
            output.append(contentsOf: "error: line too long (over 64 KiB)\n".utf8)
            return
          }
          let number = try normalizer.normalize(utf8: line)
          appendDigits(of: number, to: &output)
        } catch {
          output.append(contentsOf: "error: \(error)".utf8)
        }
        output.append(UInt8(ascii: "\n"))
        if output.count >= Self.flushByteCount {
          do throws(Errno) { try StandardOutput.write(output) } catch { writeFailure = error }
          output.removeAll(keepingCapacity: true)
        }
      })
    {}
    if let writeFailure { throw Self.outputError(writeFailure) }
    do throws(Errno) { try StandardOutput.write(output) } catch { throw Self.outputError(error) }
    if let error = lines.streamError {
      throw ValidationError("standard input: \(error)")
    }
  }

  /// What a failed write of the output ends the command with: the broken pipe itself (exit
  /// 141, quietly), or one line naming stdout.
  static func outputError(_ error: Errno) -> Error {
    error == .brokenPipe
      ? error : ValidationError("cannot write to stdout: \(SystemErrorText.text(error))")
  }

  /// Output is written in blocks of this many bytes.
  static let flushByteCount = 64 * 1024

  /// The decimal digits of a positive number, appended without a String per line.
  private func appendDigits(of number: Int64, to output: inout [UInt8]) {
    let start = output.count
    var value = number
    repeat {
      output.append(UInt8(ascii: "0") + UInt8(value % 10))
      value /= 10
    } while value > 0
    var low = start
    var high = output.count - 1
    while low < high {
      output.swapAt(low, high)
      low += 1
      high -= 1
    }
  }
}
