import TestSupport
import Testing

@testable import BaseFormat

/// The strings of a compact base's dictionary labels, made once each within a byte budget
/// (issue 30: no allocation per repeated label; issue 26: the pre-iOS 26 form's validation paid
/// once per label, not per entry).
@Suite("The dictionary's label strings, made once within a budget")
struct DictionaryLabelCacheTests {
  /// A compact base whose dictionary holds `labels` (each used twice), opened.
  func dictionary(_ labels: [String], folder: TemporaryFolder) throws -> LabelDictionary {
    let path = folder.path("base.cdb")
    let writer = try BaseWriter(
      path: path, kind: .identification, compact: true, dictionaryCandidates: Set(labels))
    var number: Int64 = 74_950_000_000
    for label in labels + labels {
      try writer.append(number, label: label)
      number += 1
    }
    try writer.finish()
    return try #require(try OpenedBase(path: path, validatesLabels: true).dictionary)
  }

  @Test(arguments: LabelString.Form.allCases)
  func everyLabelReadsAsWrittenAndTheBudgetHolds(form: LabelString.Form) throws {
    let folder = try TemporaryFolder()
    // 200 labels of 40 Cyrillic bytes (heap strings) and 50 of 5 ASCII bytes (inline ones).
    let long = (0..<200).map { "Аптека №\($0) " + String(repeating: "ж", count: 12) }
    let short = (0..<50).map { "ab\($0)" }
    let dictionary = try dictionary(long + short, folder: folder)
    let texts = (0..<dictionary.count).map {
      String(decoding: dictionary.label(at: $0), as: UTF8.self)
    }
    #expect(Set(texts) == Set(long + short))
    for budget in [0, 1_024, 4_096, 1 << 20] {
      var cache = DictionaryLabelCache(dictionaryCount: dictionary.count, byteBudget: budget)
      for _ in 0..<3 {
        for index in 0..<dictionary.count {
          #expect(cache.label(at: index, of: dictionary, form: form) == texts[index])
        }
      }
      let (kept, left) = cache.kept
      #expect(left >= 0, "budget \(budget): never past it")
      if budget == 0 { #expect(kept == 0) }
      if budget == 1 << 20 { #expect(kept == dictionary.count, "room for all of them") }
      if budget == 4_096 {
        #expect(kept > 0 && kept < dictionary.count, "some kept, then the budget ran out")
      }
    }
  }
}
