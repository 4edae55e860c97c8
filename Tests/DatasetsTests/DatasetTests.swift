import BaseFormat
import Datasets
import Foundation
import TestSupport
import Testing

@Suite("Datasets are deterministic and realistic")
struct DatasetTests {
  @Test func theSameParametersGiveTheSameNumbersAndLabels() throws {
    let parameters = DatasetParameters(entries: 20_000, plans: ["RU", "CN", "US"], seed: 5)
    let first = try DatasetGenerator(parameters: parameters)
    let second = try DatasetGenerator(parameters: parameters)
    #expect(first.numbers == second.numbers)
    #expect((0..<100).map(first.label(at:)) == (0..<100).map(second.label(at:)))
    var other = parameters
    other.seed = 6
    #expect(try DatasetGenerator(parameters: other).numbers != first.numbers)
  }

  @Test func numbersAreDistinctAscendingAndFollowTheirPlans() throws {
    for plan in ["RU", "CN", "US", "FR"] {
      let generator = try DatasetGenerator(
        parameters: DatasetParameters(entries: 10_000, plans: [plan], seed: 11))
      let numbers = generator.numbers
      #expect(numbers.count == 10_000)
      #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "\(plan)")
      for number in numbers.prefix(500) {
        let digits = String(number)
        switch plan {
        case "RU": #expect(digits.hasPrefix("7") && digits.count == 11, "\(digits)")
        case "CN": #expect(digits.hasPrefix("86") && (12...13).contains(digits.count), "\(digits)")
        case "FR": #expect(digits.hasPrefix("33") && digits.count == 11, "\(digits)")
        default: #expect(digits.hasPrefix("1") && digits.count == 11, "\(digits)")
        }
      }
    }
  }

  @Test func theChineseArticlesShapesAppear() throws {
    let generator = try DatasetGenerator(
      parameters: DatasetParameters(entries: 50_000, plans: ["CN"], labels: .spam, seed: 86))
    let texts = generator.numbers.map(String.init)
    #expect(texts.contains { $0.hasPrefix("86755") && $0.count == 13 })  // 0755-12345678
    #expect(texts.contains { $0.hasPrefix("86185") && $0.count == 13 })  // 185XXXXXXXX
    let labels = Set((0..<1_000).map(generator.label(at:)))
    #expect(labels == ["骚扰电话", "诈骗电话", "广告推销"])
  }

  @Test func labelLengthsSpreadAroundTwoGISsBytesPerLine() throws {
    let generator = try DatasetGenerator(parameters: DatasetParameters(entries: 1, seed: 1))
    let lengths = (0..<20_000).map { generator.label(at: $0).utf8.count }
    let mean = Double(lengths.reduce(0, +)) / Double(lengths.count)
    #expect(mean > 15 && mean < 40, "mean \(mean)")
    #expect(lengths.max()! > 60)
    #expect(lengths.allSatisfy { $0 >= 1 && $0 <= BaseHeader.maximumLabelByteCount })
  }

  @Test func everyFormatHoldsTheSameEntries() throws {
    let folder = try TemporaryFolder()
    let parameters = DatasetParameters(
      entries: 5_000, kind: "identification", plans: ["RU", "CN"], labels: .cyrillic,
      duplicateShare: 0.1, seed: 9)
    let dataset = try DatasetCache(root: folder.path("cache")).ensure(
      parameters, formats: DatasetFormat.allCases)
    let generator = try DatasetGenerator(parameters: dataset.parameters)
    let base = try MappedBaseReader(path: dataset.path(.base)).readAll()
    #expect(base.map(\.number) == generator.numbers)
    #expect(base.map(\.label) == generator.numbers.indices.map(generator.label(at:)))

    let text = try String(contentsOfFile: dataset.path(.text), encoding: .utf8)
    let lines = text.split(separator: "\n")
    #expect(lines.count == base.count)
    #expect(lines.first == "\(base[0].number)\u{D7FF}\(base[0].label)")

    let json = try String(contentsOfFile: dataset.path(.jsonl), encoding: .utf8)
    let jsonLines = json.split(separator: "\n")
    #expect(jsonLines.first == "[" && jsonLines.last == "]")
    #expect(jsonLines.count == base.count + 2)
    #expect(jsonLines[1] == "{\"\(base[0].number)\": \"\(base[0].label)\"},")

    let records = try Data(contentsOf: URL(fileURLWithPath: dataset.path(.twoGIS)))
    let expectedBytes = base.reduce(0) { $0 + 10 + $1.label.utf8.count }
    #expect(records.count == expectedBytes)
    let firstBlock = records.withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) }
    #expect(Int(firstBlock) == 8 + base[0].label.utf8.count)

    let tsv = try String(contentsOfFile: dataset.path(.tsv), encoding: .utf8)
    let rows = tsv.split(separator: "\n").dropFirst()
    #expect(rows.count == base.count + Int(Double(base.count) * 0.1))
    let tsvNumbers = rows.map { Int64($0.split(separator: "\t")[0].dropFirst())! }
    #expect(Set(tsvNumbers) == Set(generator.numbers))
    #expect(tsvNumbers != tsvNumbers.sorted(), "the raw form is shuffled")
  }

  @Test func invalidParametersNameTheField() {
    #expect(throws: DatasetError.self) { try DatasetParameters(entries: -1).validate() }
    #expect(throws: DatasetError.self) {
      try DatasetParameters(entries: 5, kind: "both").validate()
    }
    #expect(throws: DatasetError.self) {
      try DatasetParameters(entries: 5, plans: ["XX"]).validate()
    }
    #expect(throws: DatasetError.self) {
      try DatasetParameters(entries: 5, duplicateShare: 2).validate()
    }
  }

  @Test func everyShippedProfileLoads() throws {
    let names = DatasetProfile.availableNames()
    for required in ["ci-smoke", "seed-100k", "regional-2m", "directory-4m", "spam-1m"] {
      #expect(names.contains(required))
    }
    for name in names {
      let profile = try DatasetProfile.load(name)
      #expect(profile.name == name)
    }
    #expect(try DatasetProfile.load("regional-2m").parameters.entries == 1_999_999)
    #expect(throws: DatasetError.self) { try DatasetProfile.load("no-such-profile") }
  }
}

@Suite("The FR plan overlaps the telemarketing blocks")
struct FrenchPlanTests {
  @Test func aboutHalfItsNumbersFallInsideTheTelemarketingBlocks() throws {
    let numbers = try DatasetGenerator(
      parameters: DatasetParameters(entries: 20_000, plans: ["FR"], seed: 33)
    ).numbers
    let blocks = Set(NumberPlan.frenchTelemarketingPrefixes)
    // +33 then the 9 national digits: a block is the first three of them.
    let inside = numbers.filter { blocks.contains(($0 - 33_000_000_000) / 1_000_000) }.count
    #expect((8_000...12_000).contains(inside), "\(inside) of 20,000 inside the blocks")
  }

  @Test func theProfileNamesTheTwelvePrefixes() throws {
    let profile = try DatasetProfile.load("fr-telemarketing")
    #expect(profile.parameters.patterns.count == 12)
    let prefixes = profile.parameters.patterns.map {
      Int64($0.filter(\.isNumber).dropFirst(2).prefix(3))
    }
    #expect(prefixes == NumberPlan.frenchTelemarketingPrefixes.map { Optional($0) })
    #expect(profile.parameters.cacheKey.contains("-p"), "the patterns key the cache")
  }
}
