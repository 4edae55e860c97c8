import ArgumentParser
import Foundation
import LiveLookupExport
import ProcessMetrics

/// `export lcidl`'s figures for Apple's onboarding checklist: each dataset's request and
/// response sizes from its configuration, and, given the devices expected, the traffic per
/// continent.
struct ServiceFigureOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Devices expected with the extension, per continent (\(ServiceTraffic.continents.joined(separator: ", "))), for the traffic figures onboarding asks for: europe=200000,north-america=50000.",
      valueName: "continent=count,…"))
  var devices: String?
  @Option(
    name: .long,
    help:
      "Caller lookups a device makes a day (calls from numbers the phone does not know); needed with --devices."
  )
  var lookupsPerDay: Double?
  @Option(
    name: .long,
    help:
      "The share of a day's requests in its busiest hour, in percent: the default is the busy-hour share telephone traffic planning commonly takes; use your own call records where you have them."
  )
  var busiestHourPercent: Double = 10

  func validate() throws {
    guard let devices else {
      if lookupsPerDay != nil { throw ValidationError("--lookups-per-day applies with --devices") }
      return
    }
    guard let lookupsPerDay else {
      throw ValidationError(
        "--devices needs --lookups-per-day: how many callers a device looks up a day")
    }
    do {
      _ = try traffic(
        ServiceTraffic.parseDevices(devices), lookups: lookupsPerDay, bytesPerLookup: 0)
    } catch {
      throw ValidationError("--devices: \(error)")
    }
  }

  func traffic(
    _ pairs: [(continent: String, count: Int)], lookups: Double, bytesPerLookup: Int
  ) throws(ServiceTraffic.Problem) -> ServiceTraffic {
    try ServiceTraffic(
      devices: pairs, lookupsPerDeviceDay: lookups,
      busiestHourShare: busiestHourPercent / 100, useCases: 2, bytesPerLookup: bytesPerLookup)
  }

  /// The lines the export prints: one per dataset with its sizes, one for a pre-sharded
  /// dataset's range, then the traffic table when `--devices` is given.
  func lines(configs: [ProcessingConfig], preSharded: [PreShardedDatasets.Shard]) -> [String] {
    var lines = ["sizes for Apple's onboarding checklist (computed from each configuration):"]
    var bytesPerLookup = 0
    for config in configs {
      let sizes = config.wireSizes
      bytesPerLookup += sizes.queryBytes + sizes.responseBytes
      lines.append(
        "  \(config.stem): request \(kilobytes(sizes.queryBytes)) (\(plural(sizes.queryCiphertexts, "ciphertext"))), response \(kilobytes(sizes.responseBytes)) (\(plural(sizes.responseCiphertexts, "ciphertext"))); evaluation key \(kilobytes(sizes.evaluationKeyBytes)) (\(plural(sizes.evaluationKeyCount, "key"))), uploaded when a device makes a new one"
      )
      let shards = preSharded.filter { $0.config.stem == config.stem }.map(\.config.wireSizes)
      if let smallest = shards.map(\.responseBytes).min(),
        let largest = shards.map(\.responseBytes).max()
      {
        let range =
          smallest == largest
          ? kilobytes(smallest) : "\(kilobytes(smallest))–\(kilobytes(largest))"
        lines.append("  \(config.stem), pre-sharded: response \(range) by shard")
      }
    }
    guard let devices, let lookupsPerDay,
      let pairs = try? ServiceTraffic.parseDevices(devices),
      let traffic = try? traffic(pairs, lookups: lookupsPerDay, bytesPerLookup: bytesPerLookup)
    else { return lines }
    lines.append(
      "traffic (\(formatted(lookupsPerDay)) lookups a device a day, each a request to block and to identity; \(formatted(busiestHourPercent))% of a day's requests in its busiest hour):"
    )
    for continent in traffic.continents {
      lines.append(
        "  \(continent.name): \(grouped(continent.devices)) devices, \(grouped(Int(continent.requestsPerDay.rounded()))) requests a day, peak \(formatted(continent.peakRequestsPerSecond)) requests a second, \(ByteCount.format(Int(continent.bytesPerDay.rounded()))) a day"
      )
    }
    return lines
  }

  /// Kilobytes of 1,000 bytes with one decimal, as the processor's log states sizes.
  func kilobytes(_ bytes: Int) -> String { String(format: "%.1f KB", Double(bytes) / 1000) }

  func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

  /// A count with thousands separated by commas, as the export's other figures.
  func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return (value < 0 ? "-" : "") + text
  }

  /// A figure with at most one decimal, none when whole.
  func formatted(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15
      ? String(Int(value)) : String(format: "%.1f", value)
  }
}
