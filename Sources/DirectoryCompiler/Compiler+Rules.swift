import BaseFormat
import DirectoryContainer
import Foundation
import PhoneNormalization

extension Compiler {
  /// A finished rule base, waiting to be adopted with the other bases.
  struct RuleOutput {
    let name: String
    let kind: BaseKind
    let file: String
    let written: RuleSet.Written
    /// Rules read, for the report.
    let ruleCount: Int
  }

  /// The name of each kind's rule base in the manifest: `rules-blocking` (role blocking) and
  /// `rules-identification` (role region, region `rules`: chosen with the others).
  static func ruleBaseName(_ kind: BaseKind) -> String { "rules-\(kind)" }
  /// The region the identification rule base is chosen under.
  static let rulesRegion = "rules"

  /// Reads the pattern files and the allowed numbers, and writes one rule base per kind that
  /// has patterns into `outputScratch` (issue 54).
  /// - Throws: ``CompileError`` naming the file and line of a bad pattern or allowed number,
  ///   or the budget passed.
  func writeRuleBases(outputScratch: String, report: inout CompileReport) throws -> [RuleOutput] {
    let files: [(BaseKind, [String])] = [
      (.blocking, options.blockPatternFiles), (.identification, options.identifyPatternFiles),
    ]
    guard files.contains(where: { !$0.1.isEmpty }) else {
      if let allow = options.allowFiles.first {
        throw CompileError.usage("--allow \(allow): there are no patterns to allow numbers from")
      }
      return []
    }
    let allowed = try AllowList.read(
      options.allowFiles, country: options.country, validation: options.validation)
    var outputs: [RuleOutput] = []
    var budgetLeft = options.maximumPatternEntries
    for (kind, paths) in files where !paths.isEmpty {
      var rules: [PatternRule] = []
      for path in paths {
        rules += try PatternFile.read(
          path, kind: kind, validation: options.validation, budget: options.maximumPatternEntries)
      }
      let name = Self.ruleBaseName(kind)
      let file = outputScratch + "/\(name).cdb"
      let writer = try RuleBaseWriter(path: file, kind: kind)
      let written: RuleSet.Written
      do {
        written = try RuleSet.resolve(rules, allowed: allowed, budget: budgetLeft) { range, rule in
          try writer.append(range, label: rules[rule].label, rule: rules[rule].description)
        }
        try writer.finish()
      } catch {
        writer.discard()
        if let error = error as? CompileError { throw error }
        throw CompileError.write("\(file): \(error)")
      }
      budgetLeft -= written.numbers
      outputs.append(
        RuleOutput(name: name, kind: kind, file: file, written: written, ruleCount: rules.count))
      report.patternRules[name] = (rules.count, written.ranges, written.numbers, written.allowedCut)
    }
    return outputs
  }
}

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
      let text: String
      do {
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= PatternFile.maximumByteCount else {
          throw CompileError.unreadable(
            path,
            "an allow list of \(size) bytes is past the \(PatternFile.maximumByteCount >> 20) MiB limit"
          )
        }
        text = try String(contentsOfFile: path, encoding: .utf8)
      } catch let error as CompileError {
        throw error
      } catch {
        throw .unreadable(path, "\(error.localizedDescription)")
      }
      var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
        String($0.hasSuffix("\r") ? $0.dropLast() : $0)
      }
      if let first = lines.first, first.hasPrefix("\u{FEFF}") {
        lines[0] = String(first.dropFirst())
      }
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
