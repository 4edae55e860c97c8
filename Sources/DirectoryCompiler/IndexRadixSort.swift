/// Sorts a sort run's index by (number, sequence) with a least-significant-digit radix sort on
/// the number, 11 bits a pass, skipping the passes in which every number has the same digit
/// (phone numbers use 34–60 of the 64 bits). LSD radix sorting is stable, and a sorter's records
/// arrive in sequence order, so equal numbers keep their input order; a group of equal numbers
/// out of sequence order (records added otherwise) is put right after.
///
/// Written by hand: the standard library's `sort` (a merge sort) compared its way through a
/// 900,000-entry run in about a fifth of a parse thread's time (perf, directory-4m); the
/// radix passes are linear. swift-algorithms and swift-collections have no radix sort.
enum IndexRadixSort {
  typealias Entry = (number: Int64, sequence: UInt64, offset: Int)

  /// Bits per pass: 2,048 counters, which stay in the first-level cache.
  static let digitBits = 11
  private static let bucketCount = 1 << digitBits

  /// Sorts `entries`, using `scratch` (resized to match) as the other buffer.
  static func sort(_ entries: inout [Entry], scratch: inout [Entry]) {
    let count = entries.count
    guard count > 1 else { return }
    if scratch.count < count {
      scratch = [Entry](repeating: (0, 0, 0), count: count)
    }
    // Signed order: the sign bit flipped, then unsigned.
    @inline(__always) func key(_ entry: Entry) -> UInt64 {
      UInt64(bitPattern: entry.number) ^ (1 << 63)
    }
    var inScratch = false
    var counts = [Int](repeating: 0, count: bucketCount)
    var shift = 0
    while shift < 64 {
      // Each digit's count; true when one digit holds every number (the pass is skipped).
      func histogram(_ source: UnsafeBufferPointer<Entry>) -> Bool {
        counts.withUnsafeMutableBufferPointer { counts in
          for index in counts.indices { counts[index] = 0 }
          for index in 0..<count {
            counts[Int((key(source[index]) >> UInt64(shift)) & UInt64(bucketCount - 1))] += 1
          }
          return counts.contains(count)
        }
      }
      let allInOne =
        inScratch
        ? scratch.withUnsafeBufferPointer(histogram) : entries.withUnsafeBufferPointer(histogram)
      if !allInOne {
        var total = 0
        for bucket in 0..<bucketCount {
          let here = counts[bucket]
          counts[bucket] = total
          total += here
        }
        func pass(_ source: UnsafeBufferPointer<Entry>, _ target: UnsafeMutableBufferPointer<Entry>)
        {
          counts.withUnsafeMutableBufferPointer { counts in
            for index in 0..<count {
              let entry = source[index]
              let bucket = Int((key(entry) >> UInt64(shift)) & UInt64(bucketCount - 1))
              target[counts[bucket]] = entry
              counts[bucket] += 1
            }
          }
        }
        if inScratch {
          scratch.withUnsafeBufferPointer { source in
            entries.withUnsafeMutableBufferPointer { pass(source, $0) }
          }
        } else {
          entries.withUnsafeBufferPointer { source in
            scratch.withUnsafeMutableBufferPointer { pass(source, $0) }
          }
        }
        inScratch.toggle()
      }
      shift += digitBits
    }
    if inScratch {
      entries.withUnsafeMutableBufferPointer { target in
        scratch.withUnsafeBufferPointer { source in
          for index in 0..<count { target[index] = source[index] }
        }
      }
    }
    // Equal numbers in sequence order (already so when records arrive in order).
    var start = 0
    while start < count {
      var end = start + 1
      while end < count && entries[end].number == entries[start].number { end += 1 }
      if end - start > 1 {
        entries[start..<end].sort { $0.sequence < $1.sequence }
      }
      start = end
    }
  }
}
