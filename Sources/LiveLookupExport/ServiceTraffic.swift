/// The traffic figures Apple's onboarding checklist asks a Live Caller ID Lookup service for,
/// per continent: "peak requests per second" and "total requests per day"
/// (apple/pir-service-example, `Onboarding.md`), from the devices a team expects and how
/// often each looks a caller up.
///
/// The model is stated, not measured: each lookup asks every use case once (a call is checked
/// against the block dataset and the identity dataset, a request each), and the busiest hour
/// carries `busiestHourShare` of a day's requests, spread evenly over its seconds. A device
/// also uploads its evaluation key (`/key`) when it makes a new one; those uploads are not
/// requests of the lookup path and are not counted here.
public struct ServiceTraffic: Equatable, Sendable {
  /// The continents the checklist's figures are given for, as the flag spells them.
  public static let continents = [
    "africa", "antarctica", "asia", "europe", "north-america", "oceania", "south-america",
  ]

  /// One continent's figures.
  public struct Continent: Equatable, Sendable {
    /// The continent, as ``continents`` spells it.
    public var name: String
    /// Devices with the extension enabled.
    public var devices: Int
    /// Requests a day, every use case counted.
    public var requestsPerDay: Double
    /// Requests a second in the busiest hour.
    public var peakRequestsPerSecond: Double
    /// Bytes a day, queries and responses together.
    public var bytesPerDay: Double
  }

  /// Why a traffic estimate cannot be made of the values given.
  public struct Problem: Error, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// Each continent's figures, in the order given.
  public var continents: [Continent]

  /// The figures for `devices` (continent and count), each looking callers up
  /// `lookupsPerDeviceDay` times a day in `useCases` (each one request of `requestBytes` and a
  /// response of `responseBytes`, summed over the use cases), with `busiestHourShare` of a
  /// day's requests in its busiest hour.
  /// - Throws: ``Problem`` for an unknown or repeated continent, a negative count, lookups
  ///   that are not a positive number, or a share outside (0, 1].
  public init(
    devices: [(continent: String, count: Int)], lookupsPerDeviceDay: Double,
    busiestHourShare: Double, useCases: Int, bytesPerLookup: Int
  ) throws(Problem) {
    guard lookupsPerDeviceDay.isFinite, lookupsPerDeviceDay > 0 else {
      throw Problem(description: "lookups a device a day must be a positive number")
    }
    guard busiestHourShare > 0, busiestHourShare <= 1 else {
      throw Problem(description: "the busiest hour's share must be over 0% and at most 100%")
    }
    var seen: Set<String> = []
    continents = []
    for (name, count) in devices {
      guard Self.continents.contains(name) else {
        throw Problem(
          description:
            "unknown continent \"\(name)\" (one of \(Self.continents.joined(separator: ", ")))")
      }
      guard seen.insert(name).inserted else {
        throw Problem(description: "\(name) is given twice")
      }
      guard count >= 0 else { throw Problem(description: "\(name): a negative device count") }
      let lookups = Double(count) * lookupsPerDeviceDay
      let requests = lookups * Double(useCases)
      continents.append(
        Continent(
          name: name, devices: count, requestsPerDay: requests,
          peakRequestsPerSecond: requests * busiestHourShare / 3_600,
          bytesPerDay: lookups * Double(bytesPerLookup)))
    }
  }

  /// `europe=200000,north-america=50000` as (continent, count) pairs.
  /// - Throws: ``Problem`` naming the part that is not `CONTINENT=COUNT`.
  public static func parseDevices(_ text: String) throws(Problem) -> [(
    continent: String, count: Int
  )] {
    var pairs: [(continent: String, count: Int)] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let digits = halves.count == 2 ? halves[1].filter { $0 != "_" } : ""
      guard halves.count == 2, let count = Int(digits), count >= 0 else {
        throw Problem(description: "\"\(part)\" is not CONTINENT=COUNT (europe=200000)")
      }
      pairs.append((halves[0].lowercased(), count))
    }
    return pairs
  }
}
