import BaseFormat
import Foundation

/// How small a patch could be, from the changes themselves: the information needed to say which
/// entries of the old bases went and which were relabelled (choosing r and c of n: log2 C(n, r)
/// + log2 C(n − r, c)), which numbers of each base's range were added (log2 C(span − n, a)), the
/// labels of the changed entries at their order-0 entropy (each label costs −log2 of its share
/// among the changed entries' labels), and the text of the labels the old base lacked at its
/// bytes' order-0 entropy. Any encoding that treats the changes as independent draws needs at
/// least that much; calldir's patch is set against it (the "≤ 1.15× a lower bound").
enum ChangeEntropy {
  /// The bound over every changed base `(old, new)`, in bytes, and the entries changed.
  static func lowerBound(pairs: [(old: String, new: String)]) -> (bytes: Int, entriesChanged: Int) {
    var bits = 0.0
    var changedLabels: [String: Int] = [:]
    var newText: [UInt8: Int] = [:]
    var changed = 0
    for (oldPath, newPath) in pairs {
      guard let old = try? MappedBaseReader(path: oldPath, validatesLabels: false),
        let new = try? MappedBaseReader(path: newPath, validatesLabels: false)
      else { continue }
      let oldLabels = Set((try? BaseDictionary.labels(ofBaseAt: oldPath)) ?? [])
      var seenNew = Set<String>()
      let (n, span) = (
        old.header.entryCount, Int(new.header.highestNumber - new.header.lowestNumber + 1)
      )
      var (removed, added, relabelled) = (0, 0, 0)
      var a = try? old.next()
      var b = try? new.next()
      func note(_ label: String) {
        changedLabels[label, default: 0] += 1
        if !oldLabels.contains(label), seenNew.insert(label).inserted {
          for byte in label.utf8 { newText[byte, default: 0] += 1 }
        }
      }
      while let x = a ?? nil, true {
        guard let y = b ?? nil else {
          removed += 1
          a = try? old.next()
          continue
        }
        if x.number < y.number {
          removed += 1
          a = try? old.next()
        } else if y.number < x.number {
          added += 1
          note(y.label)
          b = try? new.next()
        } else {
          if x.label != y.label {
            relabelled += 1
            note(y.label)
          }
          a = try? old.next()
          b = try? new.next()
        }
      }
      while let y = b ?? nil {
        added += 1
        note(y.label)
        b = try? new.next()
      }
      bits +=
        log2Binomial(n, removed) + log2Binomial(n - removed, relabelled)
        + log2Binomial(max(span - n, added), added)
      changed += removed + added + relabelled
    }
    let labelUses = Double(changedLabels.values.reduce(0, +))
    for count in changedLabels.values {
      bits += Double(count) * -log2(Double(count) / labelUses)
    }
    let textBytes = Double(newText.values.reduce(0, +))
    for count in newText.values { bits += Double(count) * -log2(Double(count) / textBytes) }
    return (Int((bits / 8).rounded(.up)), changed)
  }

  /// log2 of n choose k.
  static func log2Binomial(_ n: Int, _ k: Int) -> Double {
    guard k > 0, k < n else { return 0 }
    return (lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))) / M_LN2
  }
}
