import ByteCoding

/// A country's numbering plan, reduced to what the generator needs: realistic prefixes and the
/// length of the national number, producing CallKit numbers (country code + national number).
public struct NumberPlan: Sendable {
  /// ISO code of the plan (`RU`, `CN`, `US`, `FR`).
  public let name: String
  /// The country calling code.
  public let countryCode: Int64
  /// Prefixes (area or mobile codes) with the subscriber digits that follow each, and a weight.
  public let prefixes: [(prefix: Int64, subscriberDigits: Int, weight: Int)]

  private let totalWeight: Int

  init(
    name: String, countryCode: Int64,
    prefixes: [(prefix: Int64, subscriberDigits: Int, weight: Int)]
  ) {
    self.name = name
    self.countryCode = countryCode
    self.prefixes = prefixes
    self.totalWeight = prefixes.reduce(0) { $0 + $1.weight }
  }

  /// A random number of this plan, and the prefix it was drawn under (the region stand-in).
  public func draw(using generator: inout SplitMix64) -> (number: Int64, prefix: Int64) {
    var pick = Int(generator.next() % UInt64(totalWeight))
    var chosen = prefixes[0]
    for candidate in prefixes {
      if pick < candidate.weight {
        chosen = candidate
        break
      }
      pick -= candidate.weight
    }
    let subscriberSpace = power10(chosen.subscriberDigits)
    // Subscriber numbers do not start with 0 or 1 in these plans' local formats.
    let lowest = 2 * power10(chosen.subscriberDigits - 1)
    let subscriber = lowest + Int64(generator.next() % UInt64(subscriberSpace - lowest))
    let nationalDigits = decimalDigitCount(chosen.prefix) + chosen.subscriberDigits
    let national = chosen.prefix * subscriberSpace + subscriber
    return (countryCode * power10(nationalDigits) + national, chosen.prefix)
  }

  /// The plan named `name` (`RU`, `CN`, `US`, `FR`), or nil.
  public static func named(_ name: String) -> NumberPlan? {
    switch name.uppercased() {
    case "RU": russia
    case "CN": china
    case "US", "CA", "NANP": northAmerica
    case "FR": france
    default: nil
    }
  }

  /// Names accepted by ``named(_:)``.
  public static let knownNames = ["RU", "CN", "US", "FR"]

  /// Russia, +7: Moscow 495/499, St Petersburg 812, Novosibirsk 383 and other real area codes,
  /// and 9xx mobiles; 10-digit national numbers.
  public static let russia: NumberPlan = {
    let landlines: [Int64] = [495, 499, 812, 383, 343, 846, 843, 861, 863, 831, 391, 342, 473, 351]
    let mobiles: [Int64] = [
      900, 901, 902, 903, 904, 905, 906, 908, 909, 910, 911, 912, 913, 914,
      915, 916, 917, 918, 919, 920, 921, 922, 923, 924, 925, 926, 927, 928, 929, 930, 950, 951,
      952, 953, 960, 961, 962, 963, 964, 965, 977, 978, 980, 981, 982, 983, 985, 987, 988, 989,
      991, 992, 993, 994, 995, 996, 999,
    ]
    return NumberPlan(
      name: "RU", countryCode: 7,
      prefixes: landlines.map { ($0, 7, 6) } + mobiles.map { ($0, 7, 2) })
  }()

  /// China, +86: mobiles 13x–19x (11 digits) and landlines with the trunk 0 dropped from area
  /// codes 10, 20, 21 (8-digit subscribers) and 755 (Shenzhen, 8 digits), as in the Chinese
  /// article's 0755-12345678 → 8675512345678.
  public static let china: NumberPlan = {
    var prefixes: [(Int64, Int, Int)] = []
    for block in 130...199
    where ![140, 141, 142, 143, 144, 154, 160, 161, 162, 163, 164, 168, 169, 179, 190, 192, 194]
      .contains(block)
    {
      prefixes.append((Int64(block), 8, 3))
    }
    for area: Int64 in [10, 20, 21, 22, 23, 24, 25, 27, 28, 29, 755, 571, 512, 532] {
      prefixes.append((area, area < 100 ? 8 : 8, 4))
    }
    return NumberPlan(name: "CN", countryCode: 86, prefixes: prefixes)
  }()

  /// The twelve blocks ARCEP reserves for telemarketing since 2023 (0162, 0163, 0270, 0271, 0377,
  /// 0378, 0424, 0425, 0568, 0569, 0948, 0949), as national digits after +33 without the trunk 0;
  /// six subscriber digits follow each.
  public static let frenchTelemarketingPrefixes: [Int64] = [
    162, 163, 270, 271, 377, 378, 424, 425, 568, 569, 948, 949,
  ]

  /// France, +33: 9-digit national numbers. Mobiles 6 and 7, and the telemarketing blocks
  /// weighted so that about half the numbers drawn fall inside them, as in a community list of
  /// reported telemarketers (the `fr-telemarketing` profile's explicit list overlaps its patterns).
  public static let france = NumberPlan(
    name: "FR", countryCode: 33,
    prefixes: [(6, 8, 6), (7, 8, 6)] + frenchTelemarketingPrefixes.map { ($0, 6, 1) })

  /// The United States and Canada, +1 (NANP): NPA NXX XXXX with real area codes.
  public static let northAmerica: NumberPlan = {
    let areas: [Int64] = [
      201, 202, 206, 212, 213, 214, 305, 310, 312, 404, 415, 416, 438, 503,
      512, 514, 602, 604, 617, 646, 702, 713, 718, 778, 818, 917,
    ]
    // An exchange code (NXX) starts with 2–9: the prefix is NPA, subscriber digits NXXXXXX.
    return NumberPlan(name: "US", countryCode: 1, prefixes: areas.map { ($0, 7, 1) })
  }()
}

func power10(_ exponent: Int) -> Int64 {
  var value: Int64 = 1
  for _ in 0..<exponent { value *= 10 }
  return value
}
