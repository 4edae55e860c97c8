/// What one lookup of a dataset costs on the wire, computed from its processing configuration
/// as Apple's PIR code sizes it: the figures Apple's onboarding checklist asks a service for
/// ("expected request and response size", apple/pir-service-example `Onboarding.md`).
///
/// The arithmetic follows swift-homomorphic-encryption at 6867588, the code the processor and
/// the service run:
/// - **Dimensions** (`MulPir.generateParameter`): a shard's table of `bucketCount` buckets is
///   split into `hashFunctionCount` tables; one table's buckets, as many to a plaintext as
///   fit, are laid out in 2 dimensions, the square root rounded up, then made uneven (the
///   processor's default, `unevenDimensions ?? true` in `PIRProcessDatabase/main.swift`) while
///   the expanded query stays within the same power of two.
/// - **Query** (`MulPirClient.generateQuery`, `PirUtil.compressBinaryInputs`): one bit per
///   coordinate of each table's lookup, `N` to a ciphertext; a query ciphertext is serialized
///   seeded, its first polynomial only, at every modulus but the last (the key-switching one).
/// - **Response**: per table, one ciphertext per plaintext the bucket spans, switched down to
///   the first modulus and serialized without the low bits decryption never reads
///   (`Bfv.skipLSBsForDecryption`).
/// - **Evaluation key** (`MulPir.evaluationKeyConfig`): a Galois key per level of the query's
///   expansion and a relinearization key, each a key-switching key of one seeded ciphertext per
///   ciphertext modulus, at every modulus.
///
/// The processor's own log (`ValidationResults`) states the serialized protobuf messages,
/// which add a few hundred bytes of framing and seeds to these: the sample log's 510.6 KB
/// evaluation key is 509,952 bytes here (see `LiveLookupSizesTests`).
public struct PIRWireSizes: Equatable, Sendable {
  /// The database's two dimensions, as the processor lays one table out.
  public var dimensions: [Int]
  /// Ciphertexts in one query, and its bytes.
  public var queryCiphertexts: Int
  public var queryBytes: Int
  /// Ciphertexts in one response, and its bytes.
  public var responseCiphertexts: Int
  public var responseBytes: Int
  /// Key-switching keys in the evaluation key a device uploads, and its bytes.
  public var evaluationKeyCount: Int
  public var evaluationKeyBytes: Int

  /// The RLWE parameter sets the export's configurations can name: the ones of the
  /// `n_4096_logq_27_28_28` family (`EncryptionParameters.swift`, `PredefinedRlweParameters`).
  public struct RLWEParameters: Equatable, Sendable {
    /// The ring's degree `N`.
    public var polyDegree: Int
    /// The plaintext modulus `t`.
    public var plaintextModulus: UInt64
    /// The coefficient moduli, the last one the key-switching modulus.
    public var coefficientModuli: [UInt64]

    /// The named set; nil for a name outside the family.
    public init?(named name: String) {
      let plaintextModuli: [String: UInt64] = [
        "n_4096_logq_27_28_28_logt_4": (1 << 3) + 3, "n_4096_logq_27_28_28_logt_5": (1 << 4) + 1,
        "n_4096_logq_27_28_28_logt_6": (1 << 5) + 5,
      ]
      guard let plaintextModulus = plaintextModuli[name] else { return nil }
      self.init(plaintextModulus: plaintextModulus)
    }

    private init(plaintextModulus: UInt64) {
      polyDegree = 4096
      self.plaintextModulus = plaintextModulus
      coefficientModuli = [(1 << 27) - 40959, (1 << 28) - 65535, (1 << 28) - 73727]
    }

    /// `n_4096_logq_27_28_28_logt_5`, the set the export writes (``ProcessingConfig/rlweParameters``).
    public static let exported = RLWEParameters(plaintextModulus: (1 << 4) + 1)

    /// Bytes one plaintext holds: `N` coefficients of ⌊log₂ t⌋ bits.
    public var bytesPerPlaintext: Int { polyDegree * floorLog2(plaintextModulus) / 8 }
  }

  /// The sizes for a shard of `bucketCount` buckets of `bucketByteCount` bytes (a pre-sharded
  /// input's own), in `hashFunctionCount` tables, under `parameters`, with no key compression:
  /// what the export's configurations ask of the processor.
  public init(
    bucketCount: Int, bucketByteCount: Int, hashFunctionCount: Int = 2,
    parameters: RLWEParameters
  ) {
    let degree = parameters.polyDegree
    let perPlaintext = parameters.bytesPerPlaintext
    let bucketsPerTable = max(bucketCount / max(hashFunctionCount, 1), 1)
    let plaintexts =
      bucketByteCount <= perPlaintext
      ? ceilDivide(bucketsPerTable, perPlaintext / max(bucketByteCount, 1)) : bucketsPerTable
    dimensions = Self.unevenDimensions(plaintexts: plaintexts, batch: hashFunctionCount)
    let expanded = dimensions.reduce(0, +) * hashFunctionCount
    let bits = parameters.coefficientModuli.map(ceilLog2)
    let ciphertextModuli = bits.dropLast()
    queryCiphertexts = ceilDivide(expanded, degree)
    queryBytes = queryCiphertexts * ceilDivide(degree * ciphertextModuli.reduce(0, +), 8)
    responseCiphertexts = hashFunctionCount * ceilDivide(bucketByteCount, perPlaintext)
    let kept = Self.skipLSBs(parameters).map { bits[0] - $0 }
    responseBytes = responseCiphertexts * kept.map { ceilDivide(degree * $0, 8) }.reduce(0, +)
    evaluationKeyCount = ceilLog2(UInt64(min(expanded, degree))) + 1
    let keyBytes = ciphertextModuli.count * ceilDivide(degree * bits.reduce(0, +), 8)
    evaluationKeyBytes = evaluationKeyCount * keyBytes
  }

  /// The two dimensions of `plaintexts`: the square root rounded up, then the second made
  /// smaller while the expanded query's next power of two stays the same.
  static func unevenDimensions(plaintexts: Int, batch: Int) -> [Int] {
    let root = Int(Double(plaintexts).squareRoot().rounded(.down))
    var dimensions = [max(root, 1), max(root, 1)]
    for index in dimensions.indices where dimensions[0] * dimensions[1] < plaintexts {
      dimensions[index] += 1
    }
    let limit = nextPowerOfTwo(dimensions.reduce(0, +) * batch)
    var candidate = dimensions
    while nextPowerOfTwo(candidate.reduce(0, +) * batch) <= limit {
      dimensions = candidate
      if candidate[1] == 1 { break }
      candidate[1] -= 1
      candidate[0] = ceilDivide(plaintexts, candidate[1])
    }
    return dimensions
  }

  /// Low bits of each response polynomial left out of its serialization
  /// (`Bfv.skipLSBsForDecryption`: ⌊log₂(q₀/t)⌋ − 3 for the first, less ⌈log₂⌊8·√(2N/9)⌋⌉ for
  /// the second, and all on the first when the second would drop at most one).
  static func skipLSBs(_ parameters: RLWEParameters) -> [Int] {
    let q0 = parameters.coefficientModuli[0]
    let t = parameters.plaintextModulus
    let lPrime = q0 >= 2 * t ? floorLog2(q0 / t) - 3 : 0
    let spread = Int(8 * (2 * Double(parameters.polyDegree) / 9).squareRoot())
    let second = lPrime - (spread == 0 ? 0 : ceilLog2(UInt64(spread)))
    return second <= 1 ? [max(lPrime + 1, 0), 0] : [max(lPrime, 0), second]
  }
}

/// ⌊log₂ x⌋ for x ≥ 1.
func floorLog2(_ value: UInt64) -> Int { 63 - value.leadingZeroBitCount }

/// ⌈log₂ x⌉ for x ≥ 1.
func ceilLog2(_ value: UInt64) -> Int { value <= 1 ? 0 : 64 - (value - 1).leadingZeroBitCount }

func ceilDivide(_ value: Int, _ divisor: Int) -> Int { (value + divisor - 1) / divisor }

/// The smallest power of two at or above `value` (1 for 0).
func nextPowerOfTwo(_ value: Int) -> Int {
  value <= 1 ? 1 : 1 << ceilLog2(UInt64(value))
}

extension ProcessingConfig {
  /// The wire sizes of a lookup in this configuration's dataset (``rlweParameters``).
  public var wireSizes: PIRWireSizes {
    PIRWireSizes(
      bucketCount: bucketCount, bucketByteCount: bucketByteCount,
      hashFunctionCount: Self.tableCount, parameters: .exported)
  }
}
