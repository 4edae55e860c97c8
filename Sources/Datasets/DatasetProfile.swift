import DirectoryContainer
import Foundation

/// A named dataset in `Datasets/NAME.json`: a description and the generator's parameters.
public struct DatasetProfile: Codable, Equatable, Sendable {
  /// The profile's name (the file name without `.json`).
  public var name: String
  /// What the dataset stands for.
  public var description: String
  /// The generator's parameters.
  public var parameters: DatasetParameters

  private enum CodingKeys: String, CodingKey {
    case name, description, entries, kind, plans, labels, duplicateShare, seed, patterns
  }

  /// Creates a profile.
  public init(name: String, description: String, parameters: DatasetParameters) {
    self.name = name
    self.description = description
    self.parameters = parameters
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    description = try container.decodeIfPresent(String.self, forKey: .description) ?? ""
    parameters = DatasetParameters(
      entries: try container.decode(Int.self, forKey: .entries),
      kind: try container.decodeIfPresent(String.self, forKey: .kind) ?? "identification",
      plans: try container.decodeIfPresent([String].self, forKey: .plans) ?? ["RU"],
      labels: try container.decodeIfPresent(LabelProfile.self, forKey: .labels) ?? .cyrillic,
      duplicateShare: try container.decodeIfPresent(Double.self, forKey: .duplicateShare) ?? 0,
      seed: try container.decodeIfPresent(UInt64.self, forKey: .seed) ?? 1)
    parameters.patterns = try container.decodeIfPresent([String].self, forKey: .patterns) ?? []
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(description, forKey: .description)
    try container.encode(parameters.entries, forKey: .entries)
    try container.encode(parameters.kind, forKey: .kind)
    try container.encode(parameters.plans, forKey: .plans)
    try container.encode(parameters.labels, forKey: .labels)
    try container.encode(parameters.duplicateShare, forKey: .duplicateShare)
    try container.encode(parameters.seed, forKey: .seed)
    if !parameters.patterns.isEmpty { try container.encode(parameters.patterns, forKey: .patterns) }
  }

  /// The folder of the repository's profiles: `Datasets/` in the working directory, else the one
  /// beside this package's sources (so `calldir` works from any directory of a checkout).
  public static func profilesDirectory() -> URL {
    let local = URL(fileURLWithPath: "Datasets", isDirectory: true)
    if FileManager.default.fileExists(atPath: local.appendingPathComponent("ci-smoke.json").path) {
      return local
    }
    return URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Datasets", isDirectory: true)
  }

  /// Names of the profiles built into calldir (the repository's `Datasets/*.json`).
  public static func availableNames() -> [String] { EmbeddedProfiles.datasets.keys.sorted() }

  /// The largest profile file read, in bytes: profiles are a few hundred bytes of JSON; the cap
  /// keeps a link to /dev/zero or a huge file from taking the memory.
  public static let maximumByteCount = 1 << 20

  /// Loads a profile by name (built into calldir, so a copied binary still has them) or by
  /// path to a JSON file (one's own).
  /// - Throws: ``DatasetError`` naming the missing file or the invalid field.
  public static func load(_ nameOrPath: String) throws -> DatasetProfile {
    let url: URL
    let data: Data
    if nameOrPath.hasSuffix(".json") || nameOrPath.contains("/") {
      url = URL(fileURLWithPath: nameOrPath)
      guard FileManager.default.fileExists(atPath: url.path) else {
        throw DatasetError("no dataset profile file \(url.path)")
      }
      do {
        data = Data(try readSmallTextFile(url.path, maximumByteCount: maximumByteCount).utf8)
      } catch {
        throw DatasetError(error.description)
      }
    } else {
      guard let text = EmbeddedProfiles.datasets[nameOrPath] else {
        let known = availableNames().joined(separator: ", ")
        throw DatasetError(
          "no dataset profile '\(nameOrPath)'; known profiles: \(known) (or give a FILE.json)")
      }
      url = URL(fileURLWithPath: "Datasets/\(nameOrPath).json")
      data = Data(text.utf8)
    }
    let profile: DatasetProfile
    do {
      profile = try JSONDecoder().decode(DatasetProfile.self, from: data)
    } catch let DecodingError.keyNotFound(key, _) {
      throw DatasetError("\(url.path): missing field '\(key.stringValue)'")
    } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context)
    {
      let field = context.codingPath.map(\.stringValue).joined(separator: ".")
      throw DatasetError("\(url.path): field '\(field)' has the wrong type")
    } catch let DecodingError.dataCorrupted(context) {
      let field = context.codingPath.map(\.stringValue).joined(separator: ".")
      throw DatasetError(
        "\(url.path): \(field.isEmpty ? "not valid JSON" : "invalid value for '\(field)'")")
    }
    do {
      try profile.parameters.validate()
    } catch {
      throw DatasetError("\(url.path): \(error.description)")
    }
    return profile
  }
}
