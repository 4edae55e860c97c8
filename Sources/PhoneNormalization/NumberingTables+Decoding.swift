import ByteCoding

extension NumberingTables {
  /// What ``decode(_:)`` reads, before the indexes are built.
  struct Decoded {
    var regions: [RegionRules] = []
    var automatonBase: [Int] = []
    var transitions: [UInt8] = []
    var accepting: [Bool] = []
  }

  /// The magic and version the generator writes.
  static let magic: [UInt8] = Array("CDNT".utf8)
  static let version: UInt16 = 1

  /// Reads the generated tables (layout: ``NumberingTables``).
  /// - Throws: `ByteCodingError` when the bytes end early, ``TableError`` when they name something
  ///   out of range.
  static func decode(_ reader: consuming LittleEndianReader) throws -> Decoded {
    var reader = reader
    for expected in magic where try reader.read(UInt8.self) != expected {
      throw TableError(offset: reader.offset, "not calldir's numbering tables")
    }
    guard try reader.read(UInt16.self) == version else {
      throw TableError(offset: reader.offset, "numbering tables of another version")
    }
    let regionCount = Int(try reader.read(UInt16.self))
    let automatonCount = Int(try reader.read(UInt16.self))
    let patternCount = Int(try reader.read(UInt16.self))

    struct RawRegion {
      var id = "", code = 0, main = false, lengths: UInt32 = 0, local: UInt32 = 0
      var indexes: [UInt16] = []
      var transform: [UInt8] = [], nationalPrefix = "", internationalPrefix = ""
    }
    var raw: [RawRegion] = []
    for _ in 0..<regionCount {
      var region = RawRegion()
      region.id = try text(&reader)
      region.code = Int(try reader.read(UInt16.self))
      region.main = try reader.read(UInt8.self) != 0
      region.lengths = try reader.read(UInt32.self)
      region.local = try reader.read(UInt32.self)
      for _ in 0..<5 { region.indexes.append(try reader.read(UInt16.self)) }
      region.transform = Array(try reader.readView(Int(try reader.read(UInt8.self))))
      region.nationalPrefix = try text(&reader)
      region.internationalPrefix = try text(&reader)
      raw.append(region)
    }

    var decoded = Decoded()
    for _ in 0..<automatonCount {
      let states = Int(try reader.read(UInt16.self))
      decoded.automatonBase.append(decoded.accepting.count)
      let bitmap = try reader.readView((states + 7) / 8)
      for state in 0..<states {
        decoded.accepting.append(bitmap[state / 8] & (1 << (state % 8)) != 0)
      }
      for _ in 0..<states {
        var digit = 0
        for _ in 0..<Int(try reader.read(UInt8.self)) {
          let last = Int(try reader.read(UInt8.self))
          let target = try reader.read(UInt8.self)
          guard last >= digit, last < 10, target == noStateByte || Int(target) < states else {
            throw TableError(offset: reader.offset, "an automaton's row is out of range")
          }
          while digit <= last {
            decoded.transitions.append(target)
            digit += 1
          }
        }
        guard digit == 10 else {
          throw TableError(offset: reader.offset, "an automaton's row misses digits")
        }
      }
    }

    var patterns: [PrefixPattern] = []
    for _ in 0..<patternCount {
      let alternativeCount = Int(try reader.read(UInt8.self))
      let groups = Int(try reader.read(UInt8.self))
      guard groups <= PrefixPattern.maximumGroups else {
        throw TableError(offset: reader.offset, "a prefix pattern with \(groups) groups")
      }
      var alternatives: [[PrefixPattern.Item]] = []
      for _ in 0..<alternativeCount {
        var items: [PrefixPattern.Item] = []
        for _ in 0..<Int(try reader.read(UInt8.self)) {
          let automaton = try reader.read(UInt16.self)
          let group = Int(try reader.read(UInt8.self))
          guard group <= groups else {
            throw TableError(offset: reader.offset, "a prefix pattern names group \(group)")
          }
          items.append(
            .init(
              automaton: try index(automaton, below: automatonCount, reader), group: group))
        }
        alternatives.append(items)
      }
      patterns.append(PrefixPattern(groups: groups, alternatives: alternatives))
    }
    guard reader.isAtEnd else {
      throw TableError(offset: reader.offset, "bytes after the numbering tables")
    }

    // The normalizer reads a calling code's numbers by its first region: the main one.
    var codesSeen: Set<Int> = []
    for region in raw {
      guard region.main == codesSeen.insert(region.code).inserted else {
        throw TableError(
          offset: reader.offset, "region \(region.id) is out of order for +\(region.code)")
      }
      let indexes = region.indexes
      guard let general = try index(indexes[0], below: automatonCount, reader) else {
        throw TableError(offset: reader.offset, "region \(region.id) has no general pattern")
      }
      decoded.regions.append(
        RegionRules(
          id: region.id, callingCode: region.code,
          possibleLengths: region.lengths, localOnlyLengths: region.local, general: general,
          valid: try index(indexes[1], below: automatonCount, reader),
          leadingDigits: try index(indexes[2], below: automatonCount, reader),
          internationalPrefix: try index(indexes[3], below: patternCount, reader).map {
            patterns[$0]
          },
          nationalPrefixForParsing: try index(indexes[4], below: patternCount, reader).map {
            patterns[$0]
          },
          transform: region.transform, nationalPrefix: region.nationalPrefix,
          preferredInternationalPrefix: region.internationalPrefix))
    }
    return decoded
  }

  private static let noStateByte: UInt8 = 255

  /// The tables do not decode: what is wrong and at which byte.
  struct TableError: Error, CustomStringConvertible {
    let offset: Int
    let message: String
    init(offset: Int, _ message: String) {
      self.offset = offset
      self.message = message
    }
    var description: String { "\(message) at byte \(offset)" }
  }

  private static func text(_ reader: inout LittleEndianReader) throws -> String {
    String(decoding: try reader.readView(Int(try reader.read(UInt8.self))), as: UTF8.self)
  }

  /// An index read from the tables, nil for 0xFFFF (none).
  private static func index(_ value: UInt16, below count: Int, _ reader: LittleEndianReader)
    throws -> Int?
  {
    if value == 0xFFFF { return nil }
    guard Int(value) < count else {
      throw TableError(offset: reader.offset, "index \(value) of \(count)")
    }
    return Int(value)
  }
}
