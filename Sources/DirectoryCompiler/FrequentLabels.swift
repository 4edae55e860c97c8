import BaseFormat

/// The most frequent labels of a stream in bounded memory (Misra–Gries): `capacity` counters;
/// a new label when all are taken lowers every counter by one, which happens at most once per
/// `capacity` labels, so the work stays O(n). Every label more frequent than n / capacity is kept.
/// The compiler uses it to choose the labels the compact bases remember in their dictionary.
public struct FrequentLabels {
  let capacity: Int
  private var counters: [UTF8Key: Int] = [:]

  /// Counts at most `capacity` labels at once.
  public init(capacity: Int) { self.capacity = capacity }

  /// Counts one use of `label`.
  public mutating func add(_ label: String) {
    let key = UTF8Key(label)
    if counters.count < capacity {
      counters[key, default: 0] += 1  // one lookup, whether the label is new or not
    } else if let index = counters.index(forKey: key) {
      counters.values[index] += 1
    } else {
      for (key, count) in counters {
        if count <= 1 { counters.removeValue(forKey: key) } else { counters[key] = count - 1 }
      }
    }
  }

  /// Up to `limit` labels seen at least twice (by their remaining counter), most frequent first.
  public func top(_ limit: Int) -> [String] {
    counters.filter { $0.value >= 2 }.sorted { $0.value > $1.value }.prefix(limit).map(\.key.text)
  }
}
