import BaseFormat

/// Any bytes as a rule base (issue 54): an error, or ranges that ascend without overlap and hold
/// the header's count; expanding the first numbers agrees with the ranges. A hostile header
/// (10^18 numbers, counts past the ranges) must end in an error, never a trap or an endless
/// expansion.
enum RuleBaseProperty {
  static let file = FuzzInputFile(extension: "cdb")
  /// Numbers expanded one by one at most (the ranges are checked whole beyond).
  static let numbersExpanded = 100_000

  static func check(_ input: [UInt8]) {
    file.replaceContents(with: input)
    var ranges: [NumberRange] = []
    let header: BaseHeader
    do throws(BaseFormatError) {
      let reader = try RuleBaseReader(path: file.path, validatesLabels: true)
      header = reader.header
      while let range = try reader.nextRange() {
        if let previous = ranges.last { precondition(range.first > previous.last, "overlap") }
        precondition(range.first > 0 && range.first <= range.last, "a range out of bounds")
        ranges.append(range)
      }
    } catch {
      return
    }
    let total = ranges.reduce(0) { $0 + $1.count }
    precondition(total == header.entryCount, "the ranges do not hold the header's count")
    do throws(BaseFormatError) {
      let reader = try RuleBaseReader(path: file.path)
      var expected = ranges.lazy.flatMap { $0.first...$0.last }.makeIterator()
      for _ in 0..<numbersExpanded {
        let entry = try reader.next()
        precondition(entry?.number == expected.next(), "expansion differs from the ranges")
        if entry == nil { break }
      }
    } catch {
      preconditionFailure("a rule base read whole failed when expanded: \(error)")
    }
  }
}
