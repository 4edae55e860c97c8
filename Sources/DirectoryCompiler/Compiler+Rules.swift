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
