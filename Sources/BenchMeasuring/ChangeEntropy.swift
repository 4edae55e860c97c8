import BaseFormat
import CZlib
import Foundation

/// How small a patch could be, from the changes themselves: the information needed to say which
/// entries of the old bases went and which were relabelled (choosing r and c of n: log2 C(n, r)
/// + log2 C(n − r, c)), where the additions are (which old entries they sit beside,
/// log2 C(n, a), and each one's distance d to the nearest old number, log2(2d + 1)), the labels
/// of the changed entries at their order-0 entropy (each label costs −log2 of its share
/// among the changed entries' labels), and the text of the labels each old base lacked, as zlib
/// at level 9 packs it on its own (each base's patch must spell them; order-0 entropy would miss
/// their shared words and count them dearer than any compressor does). Any encoding that treats the changes as independent draws needs at
/// least that much; calldir's patch is set against it (the "≤ 1.15× a lower bound").
enum ChangeEntropy {
  /// The bound over every changed base `(old, new)`, in bytes, and the entries changed.
  /// `withAdditionsBytes` adds where the additions are: which old entries they sit beside
  /// (log2 C(n, a)) and their distance to the nearest old number (log2(2d + 1) bits each, an
  /// under-count: the nearest old number is at most as far as the one an addition was made
  /// beside). `bytes` leaves the additions' places out (as if a decoder knew them).
  static func lowerBound(pairs: [(old: String, new: String)]) -> (
    bytes: Int, withAdditionsBytes: Int, entriesChanged: Int
  ) {
    var bits = 0.0
    var changedLabels: [String: Int] = [:]
    var textBytes = 0
    var changed = 0
    var additionBits = 0.0
    for (oldPath, newPath) in pairs {
      guard let old = try? MappedBaseReader(path: oldPath, validatesLabels: false),
        let new = try? MappedBaseReader(path: newPath, validatesLabels: false)
      else { continue }
      let oldLabels = Set((try? BaseDictionary.labels(ofBaseAt: oldPath)) ?? [])
      var seenNew = Set<String>()
      var newText: [UInt8] = []
      let n = old.header.entryCount
      var (removed, added, relabelled) = (0, 0, 0)
      var a = try? old.next()
      var b = try? new.next()
      func note(_ label: String) {
        changedLabels[label, default: 0] += 1
        if !oldLabels.contains(label), seenNew.insert(label).inserted {
          newText += label.utf8
          newText.append(0x0a)
        }
      }
      // Where an addition sits: its distance to the nearest old number (the churn, as a week's
      // edits, adds numbers beside existing ones).
      var lastOld: Int64?
      func placeAddition(_ number: Int64, nextOld: Int64?) {
        let below = lastOld.map { number - $0 } ?? Int64.max
        let above = nextOld.map { $0 - number } ?? Int64.max
        let distance = Double(min(below, above) == Int64.max ? 1 : min(below, above))
        additionBits += log2(2 * distance + 1)
      }
      while let x = a ?? nil, true {
        guard let y = b ?? nil else {
          removed += 1
          lastOld = x.number
          a = try? old.next()
          continue
        }
        if x.number < y.number {
          removed += 1
          lastOld = x.number
          a = try? old.next()
        } else if y.number < x.number {
          added += 1
          note(y.label)
          placeAddition(y.number, nextOld: x.number)
          b = try? new.next()
        } else {
          if x.label != y.label {
            relabelled += 1
            note(y.label)
          }
          lastOld = x.number
          a = try? old.next()
          b = try? new.next()
        }
      }
      while let y = b ?? nil {
        added += 1
        note(y.label)
        placeAddition(y.number, nextOld: nil)
        b = try? new.next()
      }
      bits += log2Binomial(n, removed) + log2Binomial(n - removed, relabelled)
      additionBits += log2Binomial(n, added)
      changed += removed + added + relabelled
      textBytes += deflatedByteCount(newText)
    }
    let labelUses = Double(changedLabels.values.reduce(0, +))
    for count in changedLabels.values {
      bits += Double(count) * -log2(Double(count) / labelUses)
    }
    bits += Double(textBytes * 8)
    return (Int((bits / 8).rounded(.up)), Int(((bits + additionBits) / 8).rounded(.up)), changed)
  }

  /// The size of `bytes` deflated by zlib at level 9 (0 for none).
  static func deflatedByteCount(_ bytes: [UInt8]) -> Int {
    guard !bytes.isEmpty else { return 0 }
    var size = compressBound(uLong(bytes.count))
    var output = [UInt8](repeating: 0, count: Int(size))
    // Safe: zlib reads `input.count` bytes and writes at most `size` (compressBound's), the
    // sizes of the two buffers it is lent for the call.
    let status = unsafe output.withUnsafeMutableBufferPointer { out in
      unsafe bytes.withUnsafeBufferPointer { input in
        unsafe compress2(out.baseAddress, &size, input.baseAddress, uLong(input.count), 9)
      }
    }
    return status == Z_OK ? Int(size) : bytes.count
  }

  /// log2 of n choose k.
  static func log2Binomial(_ n: Int, _ k: Int) -> Double {
    guard k > 0, k < n else { return 0 }
    return (lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))) / M_LN2
  }
}
