import ByteCoding
import ExtrasBase64

/// Every region's numbering rules and digit automata, decoded once from the generated tables
/// (`Generated/GeneratedNumberingTables.swift`, written by `Scripts/generate-phone-metadata.py` from
/// libphonenumber's metadata).
///
/// Layout, little-endian: `CDNT`, version (u16), region, automaton and pattern counts (u16 each);
/// regions (id, calling code, main flag, possible and local-only length masks, automaton and
/// pattern indexes with 0xFFFF for none, transform, national and international prefix); automata
/// (state count, accepting bitmap, each state's row as runs of digits with one target, 255 for
/// none); prefix patterns (alternatives of automaton and group items, 0xFFFF for the end).
package final class NumberingTables: Sendable {
  /// The tables compiled into calldir.
  package static let shared = NumberingTables()

  /// A copy of the tables of its own, for a thread that normalizes many numbers beside others
  /// (`compile --threads`): every lookup retains a region's rules, and two cores retaining the
  /// same objects made those reference counts most of a parallel compile (perf: 40% of its
  /// samples in `swift_retain`/`swift_release`, against 20% on one thread).
  package static func privateCopy() -> NumberingTables { NumberingTables() }

  /// Every region, grouped by calling code with each code's main region first.
  package let regions: [RegionRules]
  /// The version of libphonenumber's metadata (PyPI `phonenumbers`) the tables come from.
  package let libphonenumberVersion = GeneratedNumberingTables.libphonenumberVersion
  /// The size of the tables in bytes (before base64).
  package let byteCount: Int
  private let regionIndexByID: [String: Int]
  /// Region indexes by calling code (0 to 999), main region first.
  private let regionsByCode: [[Int]]
  /// Each automaton's first state in `transitions` and `accepting`.
  private let automatonBase: [Int]
  /// Ten next states per state (local to its automaton; 255 for none).
  private let transitions: [UInt8]
  private let accepting: [Bool]

  private static let none16: UInt16 = 0xFFFF
  private static let noState: UInt8 = 255

  private init() {
    do {
      // Safe: the static string's buffer is copied into an array while the closure runs.
      let text = GeneratedNumberingTables.base64.withUTF8Buffer { unsafe Array($0) }
      let bytes = try Base64.decode(bytes: text.filter { $0 != UInt8(ascii: "\n") })
      byteCount = bytes.count
      // Safe: the view of the array's bytes is read only inside the closure, while `bytes`
      // lives; the reader checks every field against the view's bounds.
      let decoded = try unsafe bytes.withUnsafeBytes { raw in
        try Self.decode(LittleEndianReader(unsafe ByteView(raw)))
      }
      regions = decoded.regions
      automatonBase = decoded.automatonBase
      transitions = decoded.transitions
      accepting = decoded.accepting
      var byID: [String: Int] = [:]
      var byCode = [[Int]](repeating: [], count: 1000)
      for (index, region) in regions.enumerated() {
        if region.id != "001" { byID[region.id] = index }
        byCode[region.callingCode].append(index)
      }
      regionIndexByID = byID
      regionsByCode = byCode
    } catch {
      // The tables are generated and tested; a failure here is a build error, not bad input.
      fatalError("calldir's numbering tables do not decode: \(error)")
    }
  }

  /// The region with ISO code `id` (upper case), nil when libphonenumber has none.
  package func region(_ id: String) -> RegionRules? {
    regionIndexByID[id].map { regions[$0] }
  }

  /// The ISO codes of every region, sorted.
  package var regionIDs: [String] { regionIndexByID.keys.sorted() }

  /// The regions of calling code `code`, main region first; empty for an unassigned code.
  func regions(callingCode code: Int) -> LazyMapSequence<[Int], RegionRules> {
    let indexes = code > 0 && code < regionsByCode.count ? regionsByCode[code] : []
    return indexes.lazy.map { self.regions[$0] }  // no array per number (`--validate valid`)
  }

  /// The main region of calling code `code`.
  func mainRegion(callingCode code: Int) -> RegionRules? {
    guard code > 0, code < regionsByCode.count, let first = regionsByCode[code].first else {
      return nil
    }
    return regions[first]
  }

  /// True when calling code `code` is assigned.
  func isCallingCode(_ code: Int) -> Bool {
    code > 0 && code < regionsByCode.count && !regionsByCode[code].isEmpty
  }

  /// True when `automaton` accepts `digits` from `start` to the end.
  func fullMatch(_ automaton: Int, _ digits: DigitString, from start: Int = 0) -> Bool {
    let base = automatonBase[automaton]
    // Safe: every state the decoder accepted is an automaton's row below its base, and a digit
    // is 0-9: the index is inside `transitions`, which `decode` sized and checked whole (the
    // walk is the normalizer's hot loop, measured without the bounds check).
    return unsafe transitions.withUnsafeBufferPointer { transitions in
      var state = 0
      for index in start..<digits.count {
        let next = unsafe transitions[(base + state) * 10 + Int(digits[index])]
        if next == Self.noState { return false }
        state = Int(next)
      }
      return accepting[base + state]
    }
  }

  /// Bit n set when `automaton`, run from `start`, accepts the digits up to position n.
  func matchEnds(_ automaton: Int, in digits: DigitString, from start: Int) -> UInt64 {
    let base = automatonBase[automaton]
    // Safe: as in `fullMatch`, every index is inside `transitions`, checked when decoded.
    return unsafe transitions.withUnsafeBufferPointer { transitions in
      var state = 0
      var ends: UInt64 = accepting[base] ? 1 << UInt64(start) : 0
      for index in start..<digits.count {
        let next = unsafe transitions[(base + state) * 10 + Int(digits[index])]
        if next == Self.noState { break }
        state = Int(next)
        if accepting[base + state] { ends |= 1 << UInt64(index + 1) }
      }
      return ends
    }
  }
}
