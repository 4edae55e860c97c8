import Foundation
import PhoneNormalization

/// The numbers `--allow` lists: one per line, or a `number` column of a TSV or CSV with a
/// header; written as the dumps' numbers are, in the compile's country.
enum AllowList {
  static func read(
    _ paths: [String], country: String, validation: PhoneNormalizer.Validation
  ) throws(CompileError) -> [Int64] {
    let normalizer: PhoneNormalizer
    do {
      normalizer = try PhoneNormalizer(country: country, validation: validation)
    } catch {
      throw .usage(error.description)
    }
    var numbers: [Int64] = []
    for path in paths {
      let lines = try PatternFile.lines(ofSmallFile: path, what: "an allow list")
      // A header names a `number` column; a file without one is a number per line.
      let headerFields = (lines.first ?? "").split(whereSeparator: { $0 == "\t" || $0 == "," })
        .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      let column = headerFields.firstIndex(of: "number")
      for (offset, line) in lines.enumerated().dropFirst(column == nil ? 0 : 1)
      where !line.trimmingCharacters(in: .whitespaces).isEmpty {
        let fields = line.split(
          separator: line.contains("\t") ? "\t" : ",", omittingEmptySubsequences: false)
        let field = column.map { $0 < fields.count ? String(fields[$0]) : "" } ?? line
        do {
          numbers.append(try normalizer.normalize(field))
        } catch {
          throw .usage("\(path):\(offset + 1): not a number: \(error)")
        }
      }
    }
    return Array(Set(numbers)).sorted()
  }
}
