import DirectoryContainer
import Foundation

/// How fast a real device takes a Call Directory extension's entries, from published
/// measurements (`Datasets/devices/NAME.json`): the harness projects what a request measured here
/// would take there. Our SQLite host takes 600,000 entries/s; devices take 40,000–200,000.
public struct DeviceProfile: Decodable, Sendable, Equatable {
  /// One published measurement: a load of `entries` of one list kind took `seconds`.
  public struct Measurement: Decodable, Sendable, Equatable {
    /// `identification` or `blocking`.
    public var kind: String
    public var entries: Int
    public var seconds: Double
    /// Where the figure comes from.
    public var source: String
  }

  public var name: String
  /// The device and iOS version measured.
  public var device: String
  public var measurements: [Measurement]
  /// Fixed cost of a request, in seconds, added to every projection.
  public var requestOverheadSeconds: Double
  /// How the rates are read from the measurements, and what is assumed.
  public var notes: String

  /// Entries per second for one list kind: its largest measurement, through the origin; a kind
  /// with no measurement takes the other kind's rate (the profile's notes say so).
  public func entriesPerSecond(identification: Bool) -> Double {
    func rate(_ kind: String) -> Double? {
      measurements.filter { $0.kind == kind }.max { $0.entries < $1.entries }
        .map { Double($0.entries) / $0.seconds }
    }
    let own = rate(identification ? "identification" : "blocking")
    return own ?? rate(identification ? "blocking" : "identification") ?? 0
  }

  /// The projected seconds of a request that writes these entries on the device.
  public func projectedSeconds(identification: Int, blocking: Int) -> Double {
    requestOverheadSeconds + Double(identification) / entriesPerSecond(identification: true)
      + Double(blocking) / entriesPerSecond(identification: false)
  }

  /// The most entries a request can write within `seconds` on the device, when a share
  /// `identificationShare` (0…1) of them are labelled; 0 when the overhead alone is over.
  public func entriesFitting(seconds: Double, identificationShare: Double) -> Int {
    let share = min(1, max(0, identificationShare))
    let perEntry =
      share / entriesPerSecond(identification: true) + (1 - share)
      / entriesPerSecond(identification: false)
    let available = seconds - requestOverheadSeconds
    guard available > 0, perEntry > 0 else { return 0 }
    return Int((available / perEntry).rounded(.down))
  }

  /// Names of the device profiles built into calldir (the repository's `Datasets/devices`).
  public static func availableNames() -> [String] { EmbeddedProfiles.devices.keys.sorted() }

  /// Loads a device profile by name, or by path to a JSON file.
  /// - Throws: ``DatasetError`` naming the missing file or the field that does not read; a
  ///   profile must measure at least one kind, with positive entries and seconds.
  public static func load(_ nameOrPath: String) throws -> DeviceProfile {
    let isPath = nameOrPath.hasSuffix(".json") || nameOrPath.contains("/")
    let path = isPath ? nameOrPath : "Datasets/devices/\(nameOrPath).json"
    let embedded = isPath ? nil : EmbeddedProfiles.devices[nameOrPath]
    guard embedded != nil || (isPath && FileManager.default.fileExists(atPath: path)) else {
      throw DatasetError(
        "no device profile '\(nameOrPath)'; known devices: \(availableNames().joined(separator: ", ")) (or give a FILE.json)"
      )
    }
    let profile: DeviceProfile
    do {
      let text =
        try embedded
        ?? readSmallTextFile(path, maximumByteCount: DatasetProfile.maximumByteCount)
      profile = try JSONDecoder().decode(DeviceProfile.self, from: Data(text.utf8))
    } catch let error as DecodingError {
      throw DatasetError("\(path): not a device profile (\(error.shortDescription))")
    } catch {
      throw DatasetError("\(path): \(error)")
    }
    guard !profile.measurements.isEmpty,
      profile.measurements.allSatisfy({
        ($0.kind == "identification" || $0.kind == "blocking") && $0.entries > 0
          && $0.seconds > 0 && $0.seconds.isFinite
      }), profile.requestOverheadSeconds >= 0, profile.requestOverheadSeconds.isFinite
    else {
      throw DatasetError(
        "\(path): a device profile needs measurements of identification or blocking entries with positive entries and seconds, and an overhead of 0 s or more"
      )
    }
    return profile
  }
}

extension DecodingError {
  /// The field and the problem, in a few words.
  var shortDescription: String {
    switch self {
    case .keyNotFound(let key, _): "missing field '\(key.stringValue)'"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      "field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
    case .dataCorrupted(let context):
      context.codingPath.isEmpty
        ? "not valid JSON"
        : "invalid value for '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
    @unknown default: "unreadable"
    }
  }
}
