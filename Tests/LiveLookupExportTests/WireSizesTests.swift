import Foundation
import Testing

@testable import LiveLookupExport

/// The request, response and evaluation-key sizes `export lcidl` states for Apple's onboarding
/// checklist (issue 69, item 2), computed from a configuration, against what Apple's processor
/// logged for the same configurations; and the traffic per continent from the devices given.
@Suite("Live Caller ID Lookup: sizes and traffic for the onboarding checklist")
struct WireSizesTests {
  static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Datasets/samples")

  /// The JSON objects a processor log holds after `marker`, each read by matching its braces:
  /// a reading of its own, not `ProcessorLog`'s.
  func objects(after marker: String, in text: String) throws -> [[String: Any]] {
    var found: [[String: Any]] = []
    var rest = Substring(text)
    while let range = rest.range(of: marker) {
      rest = rest[range.upperBound...]
      guard let open = rest.firstIndex(of: "{") else { break }
      var depth = 0
      var end = open
      for index in rest[open...].indices {
        if rest[index] == "{" { depth += 1 }
        if rest[index] == "}" { depth -= 1 }
        if depth == 0 {
          end = index
          break
        }
      }
      let data = Data(rest[open...end].utf8)
      let object = try JSONSerialization.jsonObject(with: data)
      found.append(try #require(object as? [String: Any]))
      rest = rest[end...]
    }
    return found
  }

  /// Both logs Apple's processor wrote for calldir's configurations: the identity dataset's
  /// 3 shards of 130 buckets and a block shard of 568; the counts are the processor's exactly,
  /// the sizes within 0.5% (its protobuf framing and seeds).
  @Test(arguments: [
    "pir-process-database-identity.log", "pir-process-database-block-shard.log",
  ])
  func theSizesAreThoseTheProcessorLogged(file: String) throws {
    let text = try String(
      contentsOf: Self.samples.appendingPathComponent(file), encoding: .utf8)
    let config = try #require(
      try objects(after: "Processing database with configuration:", in: text).first)
    let cuckoo = try #require(config["cuckooTableConfig"] as? [String: Any])
    let fixed = try #require(
      (cuckoo["bucketCount"] as? [String: Any])?["fixedSize"] as? [String: Any])
    let name = try #require(config["rlweParameters"] as? String)
    let parameters = try #require(PIRWireSizes.RLWEParameters(named: name))
    let bucketCount = try #require(fixed["bucketCount"] as? Int)
    let bucketBytes = try #require(cuckoo["maxSerializedBucketSize"] as? Int)
    let tables = try #require(cuckoo["hashFunctionCount"] as? Int)
    let sizes = PIRWireSizes(
      bucketCount: bucketCount, bucketByteCount: bucketBytes, hashFunctionCount: tables,
      parameters: parameters)
    let validations = try objects(after: "] ValidationResults", in: text)
    #expect(!validations.isEmpty)
    func near(_ bytes: Int, _ logged: Any?) -> Bool {
      guard let kilobytes = logged as? Double else { return false }
      return abs(Double(bytes) / 1000 - kilobytes) <= kilobytes * 0.005
    }
    for validation in validations {
      let query = try #require(validation["query"] as? [String: Any])
      let response = try #require(validation["response"] as? [String: Any])
      let key = try #require(validation["evaluationKey"] as? [String: Any])
      #expect(query["ciphertextCount"] as? Int == sizes.queryCiphertexts)
      #expect(response["ciphertextCount"] as? Int == sizes.responseCiphertexts)
      #expect(key["keyCount"] as? Int == sizes.evaluationKeyCount)
      #expect(near(sizes.queryBytes, query["sizeKB"]), "\(sizes.queryBytes) \(query)")
      #expect(near(sizes.responseBytes, response["sizeKB"]), "\(sizes.responseBytes) \(response)")
      #expect(near(sizes.evaluationKeyBytes, key["sizeKB"]), "\(sizes.evaluationKeyBytes) \(key)")
    }
  }

  /// A 61,440-byte icon's 63,488-byte buckets: Apple's processor replied with 62 ciphertexts,
  /// 763 KB, on every identity shard (measured at main 3255920, issue 69).
  @Test func aLargeIconsBucketsCostWhatTheProcessorReplied() {
    let sizes = PIRWireSizes(bucketCount: 16, bucketByteCount: 63_488, parameters: .exported)
    #expect(sizes.responseCiphertexts == 62)
    #expect(abs(Double(sizes.responseBytes) / 1000 - 763) < 763 * 0.005, "\(sizes.responseBytes)")
  }

  /// The response's dropped low bits, as `Bfv.skipLSBsForDecryption` computes them for the
  /// family's plaintext moduli, and the plaintext's bytes.
  @Test func responseBitsAndPlaintextBytesFollowThePlaintextModulus() throws {
    let five = try #require(PIRWireSizes.RLWEParameters(named: "n_4096_logq_27_28_28_logt_5"))
    #expect(five == .exported)
    #expect(PIRWireSizes.skipLSBs(five) == [19, 11])
    #expect(five.bytesPerPlaintext == 2_048)
    let four = try #require(PIRWireSizes.RLWEParameters(named: "n_4096_logq_27_28_28_logt_4"))
    #expect(PIRWireSizes.skipLSBs(four) == [20, 12])
    #expect(four.bytesPerPlaintext == 1_536)
    #expect(PIRWireSizes.RLWEParameters(named: "n_8192_logq_3x55_logt_24") == nil)
  }

  /// Dimensions as the processor lays them out: the product covers the plaintexts, and the
  /// uneven layout keeps the expanded query within the even layout's power of two.
  @Test(arguments: [1, 2, 33, 142, 1_000, 4_097])
  func dimensionsCoverThePlaintextsWithinThePowerOfTwo(plaintexts: Int) {
    let dimensions = PIRWireSizes.unevenDimensions(plaintexts: plaintexts, batch: 2)
    #expect(dimensions.count == 2 && dimensions[0] * dimensions[1] >= plaintexts)
    let root = Int(Double(plaintexts).squareRoot().rounded(.up))
    #expect(
      nextPowerOfTwo(dimensions.reduce(0, +) * 2) <= nextPowerOfTwo(2 * root * 2), "\(dimensions)")
  }

  @Test func trafficPerContinentIsTheDevicesLookupsAndBusiestHour() throws {
    let pairs = try ServiceTraffic.parseDevices("europe=200_000,north-america=50000")
    let traffic = try ServiceTraffic(
      devices: pairs, lookupsPerDeviceDay: 3, busiestHourShare: 0.1, useCases: 2,
      bytesPerLookup: 1_000)
    #expect(traffic.continents.map(\.name) == ["europe", "north-america"])
    #expect(traffic.continents[0].requestsPerDay == 1_200_000)
    #expect(abs(traffic.continents[0].peakRequestsPerSecond - 1_200_000 * 0.1 / 3_600) < 1e-9)
    #expect(traffic.continents[1].bytesPerDay == 150_000_000)
    for (text, problem) in [
      ("europa=1", "unknown continent"), ("europe", "not CONTINENT=COUNT"),
      ("europe=-3", "not CONTINENT=COUNT"), ("europe=1,europe=2", "given twice"),
      ("europe=1,", "not CONTINENT=COUNT"),
    ] {
      #expect(throws: ServiceTraffic.Problem.self) {
        _ = try ServiceTraffic(
          devices: ServiceTraffic.parseDevices(text), lookupsPerDeviceDay: 1,
          busiestHourShare: 0.1, useCases: 2, bytesPerLookup: 0)
      }
      do {
        _ = try ServiceTraffic(
          devices: ServiceTraffic.parseDevices(text), lookupsPerDeviceDay: 1,
          busiestHourShare: 0.1, useCases: 2, bytesPerLookup: 0)
      } catch {
        #expect(error.description.contains(problem), "\(text): \(error)")
      }
    }
    #expect(throws: ServiceTraffic.Problem.self) {
      _ = try ServiceTraffic(
        devices: pairs, lookupsPerDeviceDay: 0, busiestHourShare: 0.1, useCases: 2,
        bytesPerLookup: 0)
    }
    #expect(throws: ServiceTraffic.Problem.self) {
      _ = try ServiceTraffic(
        devices: pairs, lookupsPerDeviceDay: 1, busiestHourShare: 1.5, useCases: 2,
        bytesPerLookup: 0)
    }
  }
}
