import BaseFormat
import CallDirectoryApp
import DirectoryContainer
import HostTestSupport
import Testing

/// The cap per extension at full size (issue 11): a set of about 2.5 M entries, more than one
/// load holds, installed under the system's real `maximumAllowedEntries` (2,000,000: 1,999,999
/// per load) ends holding exactly the top 1,999,999 by priority, computed here from the sources.
/// The small-cap tests (`PastTheCapTests`) cover every path; this one covers the real figure.
@Suite("Past the cap at full size: exactly the top 1,999,999 by priority")
struct FullSizeCapTests {
  struct Source {
    var name: String
    var role: Manifest.Role
    var region: String?
    var priority: Int
    var kind: BaseKind
    var first: Int64
    var count: Int
    var step: Int64
    var label: String

    var numbers: some Sequence<Int64> { (0..<count).lazy.map { first + Int64($0) * step } }
  }

  /// A seed set, four regions that overlap each other and the seed set, and a blocking list.
  static let sources: [Source] = [
    Source(
      name: "seed", role: .seed, priority: 100, kind: .identification, first: 79_000_000_000,
      count: 60_000, step: 7, label: "Seed"),
    Source(
      name: "r1", role: .region, region: "R1", priority: 50, kind: .identification,
      first: 79_000_000_000, count: 700_000, step: 3, label: "R1"),
    Source(
      name: "r2", role: .region, region: "R2", priority: 40, kind: .identification,
      first: 79_000_000_001, count: 700_000, step: 5, label: "R2"),
    Source(
      name: "r3", role: .region, region: "R3", priority: 30, kind: .identification,
      first: 78_000_000_000, count: 700_000, step: 2, label: "R3"),
    Source(
      name: "r4", role: .region, region: "R4", priority: 20, kind: .identification,
      first: 77_000_000_000, count: 400_000, step: 2, label: "R4"),
    Source(
      name: "spam", role: .blocking, priority: 90, kind: .blocking, first: 79_000_000_000,
      count: 100_000, step: 11, label: ""),
  ]

  /// What the system must hold: each number once with its highest-priority base's label, the
  /// top `top` in the cap's order (priority, identification before blocking, ascending number).
  static func ideal(top: Int) -> (identification: [(Int64, String)], blocking: [Int64]) {
    var identification: [Int64: (priority: Int, label: String)] = [:]
    var blocking: [Int64: Int] = [:]
    for source in sources {
      for number in source.numbers {
        if source.kind == .blocking {
          blocking[number] = max(blocking[number] ?? .min, source.priority)
        } else if (identification[number]?.priority ?? .min) < source.priority {
          identification[number] = (source.priority, source.label)
        }
      }
    }
    var ranked: [(priority: Int, identification: Bool, number: Int64, label: String)] =
      identification.map { ($0.value.priority, true, $0.key, $0.value.label) }
      + blocking.map { ($0.value, false, $0.key, "") }
    ranked.sort { a, b in
      if a.priority != b.priority { return a.priority > b.priority }
      if a.identification != b.identification { return a.identification }
      return a.number < b.number
    }
    #expect(ranked.count > top, "the set must be over the cap")
    let kept = ranked.prefix(top)
    return (
      kept.filter(\.identification).map { ($0.number, $0.label) }.sorted { $0.0 < $1.0 },
      kept.filter { !$0.identification }.map(\.number).sorted()
    )
  }

  @Test func aCapPerExtensionKeepsExactlyTheTop1999999() async throws {
    let fixture = try HostFixture()
    for source in Self.sources {
      try await fixture.app.stage(
        file: fixture.writeBase(
          source.name, kind: source.kind, source.numbers.map { ($0, source.label) }),
        name: source.name, role: source.role, region: source.region, priority: source.priority,
        version: 1)
    }
    try await fixture.app.choose(regions: ["R1", "R2", "R3", "R4"])
    #expect(fixture.system.contract.maximumAllowedEntries == 2_000_000)
    // iOS 26.1's loader counts per request (the default); this test reads the cap per extension.
    #expect(fixture.system.contract.capScope == .perRequest)
    fixture.system.contract.capScope = .perExtension
    // A debug-built extension: the bench measures the footprint, this test what is installed.
    fixture.system.limits.memoryLimitBytes = 256 << 20
    fixture.system.limits.timeoutSeconds = 600
    let enabled = try fixture.app.enable(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(enabled.succeeded, "\(enabled.detail)")
    let results = try await fixture.app.sync(
      system: fixture.system, bundleID: fixture.bundleID, executable: fixture.extensionPath)
    #expect(results.count == 2, "\(results.map(\.detail))")
    #expect(results.first?.succeeded == true, "\(results.first?.detail ?? "")")
    #expect(results.last?.error?.code == 5, "the chunk past the cap is refused")

    let (identification, blocking) = try fixture.system.store.contents(of: fixture.bundleID)
    #expect(identification.count + blocking.count == 1_999_999)
    let ideal = Self.ideal(top: 1_999_999)
    #expect(blocking == ideal.blocking)
    #expect(identification.count == ideal.identification.count)
    let compared = min(identification.count, ideal.identification.count)
    let firstDifference = (0..<compared).first { identification[$0] != ideal.identification[$0] }
    #expect(firstDifference == nil, "first difference at entry \(firstDifference ?? -1)")
    let progress = try fixture.app.manifest().installProgress
    #expect(progress.capReachedAt == 1_999_999)
  }
}
