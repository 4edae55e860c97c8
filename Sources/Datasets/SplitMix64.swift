/// A small deterministic random number generator (SplitMix64, Steele et al. 2014): the same seed
/// gives the same dataset on every machine and Swift version, which `SystemRandomNumberGenerator`
/// cannot promise.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator seeded with `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A well-mixed value for `(seed, index)`, so item `index` can be regenerated on its own.
  public static func mix(_ seed: UInt64, _ index: UInt64) -> UInt64 {
    var generator = SplitMix64(seed: seed ^ (index &* 0xD6E8_FEB8_6659_FD93))
    return generator.next()
  }
}
