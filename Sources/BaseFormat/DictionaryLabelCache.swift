/// The `String`s made for a compact base's dictionary labels, kept and handed out again: CallKit
/// takes a `String` per entry, and most entries of a directory reference a few thousand labels,
/// so making each once saves an allocation, a copy and (before iOS 26) a validation per entry.
///
/// Bounded in private memory, because it is the extension's footprint: the labels are cached in
/// dictionary order (the order of first use) until ``byteBudget`` is spent, counting each slot
/// and each string's heap object; the rest are made per entry as before. A merge of many bases
/// gives each reader its share of one budget (``DirectoryLoader``'s readers).
struct DictionaryLabelCache {
  /// One reader's budget when nothing smaller is asked: 64 KiB, some 850 labels of the generated
  /// directories' 27.5-byte average. Measured on regional-2m (one load, jemalloc): 32 KiB keeps
  /// 0.360 allocations and 509.6 instructions per entry, 64 KiB 0.050 and 370.0 (its dictionary
  /// fits), 128 KiB no better; three regions' incremental update peaked at 1.3, 1.4 and 1.6 MiB
  /// (1.3 without a cache). A sixteenth of the 1 MiB the extension measures, and of iOS's 5 MiB
  /// limit a small part (2GIS, habr.com/ru/post/323050).
  static let defaultByteBudget = 64 * 1024
  /// A slot: one `String`, 16 bytes.
  private static let slotByteCount = MemoryLayout<String>.stride
  /// A native string's heap object beyond its bytes (header and capacity, rounded).
  private static let stringOverheadByteCount = 32
  /// The largest UTF-8 label a `String` holds inline, without a heap object (on 64-bit).
  private static let inlineByteCount = 15

  /// Strings by dictionary index ("" not made yet: a dictionary label is never empty); made on
  /// first use, so a numbers-only pass allocates nothing.
  private var strings: [String] = []
  /// The labels that may be kept: the first `slotCount` of the dictionary.
  private let slotCount: Int
  /// The slots allocated: as many as the budget can fill, whatever the dictionary's size.
  private let allocatedSlotCount: Int
  private var bytesLeft: Int

  /// A cache for a dictionary of `dictionaryCount` labels within `byteBudget` bytes.
  init(dictionaryCount: Int, byteBudget: Int) {
    // Slots for the labels that can fit: at least a slot's and a small string's bytes each.
    allocatedSlotCount = max(0, byteBudget / (Self.slotByteCount + Self.stringOverheadByteCount))
    slotCount = min(dictionaryCount, allocatedSlotCount)
    // The table is sized by the budget, not by the dictionary: a merge of 300 regions opens
    // readers one after another, and tables of 300 different sizes each left a slab of their
    // size class in the footprint; one size is one block, freed and taken again.
    bytesLeft = byteBudget - allocatedSlotCount * Self.slotByteCount
  }

  /// The label at `index` of `dictionary` (which the caller has checked is in range).
  @inline(__always)
  mutating func label(
    at index: Int, of dictionary: LabelDictionary, form: LabelString.Form
  ) -> String {
    if index < strings.count {
      let cached = strings[index]
      if !cached.isEmpty { return cached }
    }
    return makeAndKeep(at: index, of: dictionary, form: form)
  }

  /// How many labels are kept, and the budget left (for tests).
  var kept: (count: Int, bytesLeft: Int) {
    (strings.reduce(0) { $1.isEmpty ? $0 : $0 + 1 }, bytesLeft)
  }

  /// A miss: makes the string and keeps it while the budget lasts.
  @inline(never)
  private mutating func makeAndKeep(
    at index: Int, of dictionary: LabelDictionary, form: LabelString.Form
  ) -> String {
    let bytes = dictionary.label(at: index)
    let made = LabelString.make(bytes, form: form)
    guard index < slotCount else { return made }
    let cost = bytes.count <= Self.inlineByteCount ? 0 : bytes.count + Self.stringOverheadByteCount
    guard cost <= bytesLeft else { return made }
    if strings.isEmpty { strings = Array(repeating: "", count: allocatedSlotCount) }
    strings[index] = made
    bytesLeft -= cost
    return made
  }
}
