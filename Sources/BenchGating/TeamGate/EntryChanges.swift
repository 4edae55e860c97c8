import BaseFormat
import BenchMeasuring
import BenchReporting
import DirectoryContainer

/// What an update changes in the numbers clients hold, counted base by base: numbers added,
/// numbers removed and numbers whose label changed, against the numbers the base revision
/// holds. A directory replaced outright by other numbers changes 200% of them (every old one
/// removed, every new one added) whatever its download costs; a month's churn a fraction of
/// that. The download alone missed a replacement whose unique labels grew the head's bases
/// (issue 65, item 3).
public struct EntryChanges: Sendable, Equatable {
  public var added = 0
  public var removed = 0
  public var relabelled = 0
  /// The numbers the base revision's bases hold (each base's own count).
  public var held = 0

  public init() {}

  /// Numbers changed, each counted once per base it changes in.
  public var changed: Int { added + removed + relabelled }

  /// The numbers changed as a share of the numbers held (0…; 2 for a directory replaced
  /// outright); the new set's size when nothing was held.
  public var share: Double {
    held > 0 ? Double(changed) / Double(held) : (changed > 0 ? 1 : 0)
  }

  /// The changes from `old`'s bases to `new`'s: same-named list bases walked side by side in
  /// ascending order (one pass each, constant memory); a base on one side only counts whole. A
  /// rule base counts by the change in its size: its ranges are one download, and walking
  /// 12 M pattern numbers to say so would cost seconds.
  /// - Throws: ``/BenchMeasuring/BenchError`` naming a base that cannot be read.
  public static func between(
    old: String, oldBases: [Manifest.Base], new: String, newBases: [Manifest.Base]
  ) throws(BenchError) -> EntryChanges {
    var changes = EntryChanges()
    for base in oldBases { changes.held += base.entries }
    for base in oldBases where !newBases.contains(where: { $0.name == base.name }) {
      changes.removed += base.entries
    }
    for base in newBases {
      guard let previous = oldBases.first(where: { $0.name == base.name }) else {
        changes.added += base.entries
        continue
      }
      guard previous.sha256 != base.sha256 else { continue }
      let (oldPath, newPath) = (old + "/" + previous.file, new + "/" + base.file)
      if BaseFile.isRuleBase(at: oldPath) || BaseFile.isRuleBase(at: newPath) {
        let grown = base.entries - previous.entries
        if grown > 0 { changes.added += grown } else { changes.removed -= grown }
        continue
      }
      do throws(BaseFormatError) {
        try changes.walk(old: oldPath, new: newPath)
      } catch {
        throw BenchError("comparing \(base.name) with the base revision's: \(error)")
      }
    }
    return changes
  }

  /// Adds what changes from the list base at `old` to the one at `new`.
  private mutating func walk(old: String, new: String) throws(BaseFormatError) {
    let before = try BufferedBaseReader(path: old)
    let after = try BufferedBaseReader(path: new)
    var left = try before.next()
    var right = try after.next()
    while true {
      switch (left, right) {
      case (nil, nil): return
      case (_?, nil):
        removed += 1
        left = try before.next()
      case (nil, _?):
        added += 1
        right = try after.next()
      case (let gone?, let fresh?):
        if gone.number < fresh.number {
          removed += 1
          left = try before.next()
        } else if fresh.number < gone.number {
          added += 1
          right = try after.next()
        } else {
          if gone.label != fresh.label { relabelled += 1 }
          left = try before.next()
          right = try after.next()
        }
      }
    }
  }
}
