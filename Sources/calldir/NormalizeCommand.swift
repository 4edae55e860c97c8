import ArgumentParser
import Foundation
import PhoneNormalization

struct NormalizeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "normalize",
    abstract: "Turn written numbers (one per line on stdin) into CallKit digits.",
    discussion: """
      Prints one line per input line: the CallKit digits, or `error: REASON`. Extensions \
      (доб. 123, ext. 12, x12) are dropped; international forms (+CC, 00CC, 810CC) are accepted \
      whatever --country says. Countries: RU, KZ, CN, US, CA, GB, DE. Exit status 0 even when \
      lines are rejected (they are reported in place), 1 for an unknown country.
      """)

  @Option(name: .long, help: "The country national numbers belong to (ISO code).")
  var country: String = "RU"

  func run() throws {
    let normalizer: PhoneNormalizer
    do {
      normalizer = try PhoneNormalizer(country: country)
    } catch {
      throw ValidationError(error.description)
    }
    var output = ""
    while let line = readLine(strippingNewline: true) {
      do {
        output += String(try normalizer.normalize(line)) + "\n"
      } catch {
        output += "error: \(error.description)\n"
      }
      if output.utf8.count > 64 * 1024 {
        FileHandle.standardOutput.write(Data(output.utf8))
        output = ""
      }
    }
    FileHandle.standardOutput.write(Data(output.utf8))
  }
}
