import BaseFormat
import DirectoryContainer

extension DirectoryLoader {
  /// Where to split the full set (the seed set, the chosen regions and the blocking lists, both
  /// lists together) into `parts` number ranges of about equal size: `parts - 1` ascending
  /// numbers, each the first of a part after the first. One pass over the merge, O(k) memory.
  /// - Throws: ``LoaderError`` when a base cannot be read.
  package func partBoundaries(_ manifest: Manifest, parts: Int) throws(LoaderError) -> [Int64] {
    guard parts > 1 else { return [] }
    var full = manifest
    full.fullSetRequested = true
    let bases = full.selection
    var total = 0
    for kind in [BaseKind.identification, .blocking] {
      let list = try merged(bases, kind: kind, installed: false, labels: false)
      do {
        while try list.next() != nil { total += 1 }
      } catch {
        throw .format(base: kind.description, error)
      }
    }
    // The two lists walked together in number order: a boundary every total/parts entries.
    let identification = try merged(bases, kind: .identification, installed: false, labels: false)
    let blocking = try merged(bases, kind: .blocking, installed: false, labels: false)
    var boundaries: [Int64] = []
    do {
      var left = try identification.next()?.entry.number
      var right = try blocking.next()?.entry.number
      var seen = 0
      while let number = [left, right].compactMap({ $0 }).min() {
        // A part starts here once the entries before this number reach its share.
        if boundaries.count < parts - 1, seen >= total * (boundaries.count + 1) / parts {
          boundaries.append(number)
        }
        if left == number {
          seen += 1
          left = try identification.next()?.entry.number
        }
        if right == number {
          seen += 1
          right = try blocking.next()?.entry.number
        }
      }
    } catch {
      throw .format(base: "merge", error)
    }
    return boundaries
  }
}
