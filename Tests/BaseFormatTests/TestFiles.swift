import BaseFormat
import Foundation
import TestSupport
import Testing

/// Entries with labels of every length from 1 to the format's maximum, in Cyrillic, CJK, emoji
/// and ASCII, so records land on every offset of the 8 KiB blocks and buffers.
func sampleEntries(count: Int, seed: UInt64 = 1) -> [BaseEntry] {
  let alphabets = ["Ж", "骚", "a", "😀", "Ё", "z"]
  var state = seed
  var number: Int64 = 70_000_000_000
  var entries: [BaseEntry] = []
  entries.reserveCapacity(count)
  for index in 0..<count {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    number += 1 + Int64(state >> 54)
    let alphabet = alphabets[index % alphabets.count]
    let unit = alphabet.utf8.count
    let maximumUnits = BaseHeader.maximumLabelByteCount / unit
    let units =
      index % 97 == 0 ? maximumUnits : 1 + Int((state >> 20) % UInt64(min(60, maximumUnits)))
    entries.append(BaseEntry(number: number, label: String(repeating: alphabet, count: units)))
  }
  return entries
}

func writeBase(_ entries: [BaseEntry], kind: BaseKind = .identification, to path: String) throws {
  let writer = try BaseWriter(path: path, kind: kind)
  for entry in entries { try writer.append(entry.number, label: entry.label) }
  try writer.finish()
}

enum ReaderKind: String, CaseIterable, CustomTestStringConvertible {
  case mmap, buffered
  var testDescription: String { rawValue }

  func open(_ path: String, validatesLabels: Bool = false) throws(BaseFormatError) -> any BaseReader
  {
    switch self {
    case .mmap: try MappedBaseReader(path: path, validatesLabels: validatesLabels)
    case .buffered: try BufferedBaseReader(path: path, validatesLabels: validatesLabels)
    }
  }
}

/// Reads with `reader` until the end or an error; returns what was handed on and the error.
func readUntilError(_ reader: ReaderKind, _ path: String) -> ([BaseEntry], BaseFormatError?) {
  var entries: [BaseEntry] = []
  do throws(BaseFormatError) {
    let opened = try reader.open(path)
    while let entry = try opened.next() { entries.append(entry) }
    return (entries, nil)
  } catch {
    return (entries, error)
  }
}
