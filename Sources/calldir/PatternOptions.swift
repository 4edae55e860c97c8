import ArgumentParser
import DirectoryCompiler

/// `compile`'s number patterns (issue 54): national plans and spoof rules written as ranges,
/// compiled into rule bases that the extension expands in constant memory.
struct PatternOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "A pattern file of numbers to block (repeatable): TSV or CSV with a header; 'pattern' (+33 1 62 ## ## ##, or +33162000000..+33162999999), optional 'priority' and 'category'.",
      valueName: "file"), completion: .file(), transform: nonEmptyPath)
  var blockPatterns: [String] = []
  @Option(
    name: .long,
    help: ArgumentHelp(
      "A pattern file of numbers to identify (repeatable): as --block-patterns, with a 'label' column.",
      valueName: "file"), completion: .file(), transform: nonEmptyPath)
  var identifyPatterns: [String] = []
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Numbers no pattern blocks or identifies (repeatable): one per line, or a 'number' column of a TSV or CSV. Explicit lists keep them: a number listed one by one was listed on purpose.",
      valueName: "file"), completion: .file(), transform: nonEmptyPath)
  var allow: [String] = []
  @Option(
    name: .long, parsing: .unconditional,
    help:
      "The most numbers the patterns may hold together (a pattern with k '#' holds 10^k; +44########## is 10^10).",
    transform: wholeNumber(in: 1...OptionBounds.entries.upperBound))
  var maxPatternEntries: Int = CompileOptions.defaultMaximumPatternEntries

  /// Puts the patterns into a compile's options.
  func apply(to options: inout CompileOptions) {
    options.blockPatternFiles = blockPatterns
    options.identifyPatternFiles = identifyPatterns
    options.allowFiles = allow
    options.maximumPatternEntries = maxPatternEntries
  }
}
