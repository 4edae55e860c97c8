import ByteCoding

// Safe (the `unsafe` uses in this file): the views and buffers made here wrap bytes lent by
// `withUnsafeBytes`, `withUTF8` or `withUnsafeMutableBytes`, and are used only inside the closure
// that lends them.

/// The most frequent labels of a stream in bounded memory (Misra–Gries): `capacity` counters;
/// a new label when all are taken lowers every counter by one, which happens at most once per
/// `capacity` labels, so the work stays O(n). Every label more frequent than n / capacity is kept.
/// The compiler uses it to choose the labels the compact bases remember in their dictionary.
public final class FrequentLabels {
  let capacity: Int
  private var counters: ByteStringTable

  /// Counts at most `capacity` labels at once.
  public init(capacity: Int) {
    self.capacity = capacity
    counters = ByteStringTable(capacity: capacity)
  }

  /// Counts one use of `label`.
  public func add(_ label: String) {
    var label = label
    label.withUTF8 { unsafe add(bytes: ByteView($0)) }
  }

  /// Counts one use of the label spelt by `bytes` (copied only when it gets a counter).
  package func add(bytes label: ByteView) {
    if let entry = counters.find(label) {
      counters[entry] += 1
    } else if counters.count < capacity {
      counters.insert(label, value: 1)
    } else {
      for entry in 0..<counters.count { counters[entry] -= 1 }
      counters.removeAll { $0 <= 0 }
    }
  }

  /// Up to `limit` labels seen at least twice (by their remaining counter), most frequent first;
  /// equal counts in byte order, so the choice never depends on hashing.
  public func top(_ limit: Int) -> [String] {
    var counted: [([UInt8], Int)] = []
    counters.forEachKey { label, count in
      if count >= 2 {
        var bytes: [UInt8] = []
        bytes.append(contentsOf: label)
        counted.append((bytes, count))
      }
    }
    counted.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.lexicographicallyPrecedes($1.0) }
    return counted.prefix(limit).map { String(decoding: $0.0, as: UTF8.self) }
  }
}
