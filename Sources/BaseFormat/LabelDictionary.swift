import ByteCoding
import SystemCalls
import SystemPackage

// Safe (the `unsafe` uses in this file): the views and buffers made here wrap bytes lent by
// `withUnsafeBytes`, `withUTF8` or `withUnsafeMutableBytes`, and are used only inside the closure
// that lends them; each load is bounds-checked by ByteView.

/// A compact base's label dictionary, read from the file rather than rebuilt in memory: the
/// section after the blocks is mapped read-only, so its pages are clean file-backed memory that
/// the system can drop and re-read at will, which is not part of a process's footprint on iOS
/// (nor in RssAnon here). A merge of k compact bases therefore holds k mappings and O(k) private
/// bytes, however large their dictionaries are; version 2 rebuilt each dictionary as Swift
/// strings in each reader, O(k × 256 KiB) of dirty memory, and a phase two over 72 bases passed
/// the 5 MiB limit.
///
/// The section, at ``BaseHeader/payloadEndOffset`` (all integers little-endian):
///
/// | offset | size | field |
/// | --- | --- | --- |
/// | 0 | 8 | magic `CDIRDICT` |
/// | 8 | 4 | label count (≤ ``BaseHeader/maximumDictionaryEntryCount``) |
/// | 12 | 4 | label bytes (≤ ``BaseHeader/maximumDictionaryByteCount``) |
/// | 16 | 8 | ``StreamChecksum`` of the end table and the label bytes |
/// | 24 | 8 | ``StreamChecksum`` of the base's 64-byte header and section bytes 0..<24 |
/// | 32 | 4 × count | each label's end offset in the label bytes, strictly ascending |
/// | 32 + 4 × count | label bytes | the labels, UTF-8, back to back |
///
/// The second checksum binds the section to its base's header, so a dictionary taken from
/// another base is refused at open, before any label is handed on. Both are verified, and every
/// label's length checked, when the reader opens the base.
package final class LabelDictionary {
  /// Size of the section's own header, in bytes.
  package static let sectionHeaderByteCount = 32
  /// The section's first eight bytes.
  package static let magic: [UInt8] = Array("CDIRDICT".utf8)

  /// Number of labels.
  package let count: Int
  /// Size of the whole section, in bytes.
  package let sectionByteCount: Int
  /// The mapping, from the page holding the section's body to the file's end; nil for no labels.
  private let region: MappedRegion?
  /// Each label's end offset, `UInt32` little-endian.
  private let ends: ByteView
  /// The labels' bytes, back to back.
  private let labels: ByteView

  /// Opens and verifies the dictionary section of a compact base.
  /// - Parameters:
  ///   - descriptor: the open base file.
  ///   - header: its decoded header.
  ///   - headerBytes: the header's 64 bytes as read, which the section's binding checksum covers.
  ///   - fileByteCount: the file's size.
  ///   - path: the file's path, for errors.
  ///   - validatesLabels: also validate every label's UTF-8.
  /// - Throws: ``BaseFormatError`` for a missing, truncated, foreign or corrupt section, or a
  ///   file whose size is not the header's plus the section's.
  init(
    descriptor: FileDescriptor, header: BaseHeader, headerBytes: [UInt8],
    fileByteCount: Int, path: String, validatesLabels: Bool
  ) throws(BaseFormatError) {
    let start = header.payloadEndOffset
    func fail(_ offset: Int, _ why: String) -> BaseFormatError {
      BaseFormatError(path: path, offset: start + offset, problem: .invalidDictionary(why))
    }
    let sectionHeader = try FileHandleIO.readFully(
      descriptor, at: start, byteCount: Self.sectionHeaderByteCount, path: path)
    guard sectionHeader.count == Self.sectionHeaderByteCount else {
      throw BaseFormatError(
        path: path, offset: fileByteCount,
        problem: .sizeMismatch(expected: start + Self.sectionHeaderByteCount, actual: fileByteCount)
      )
    }
    func field<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
      unsafe sectionHeader.withUnsafeBytes {
        unsafe ByteView($0).loadLittleEndian(T.self, at: offset)
      }
    }
    guard sectionHeader.prefix(8).elementsEqual(Self.magic) else { throw fail(0, "wrong magic") }
    let labelCount = Int(
      field(UInt32.self, at: 8))
    let labelBytes = Int(
      field(UInt32.self, at: 12))
    guard labelCount <= BaseHeader.maximumDictionaryEntryCount,
      labelBytes <= BaseHeader.maximumDictionaryByteCount, labelBytes >= labelCount,
      labelBytes <= labelCount * BaseHeader.maximumLabelByteCount
    else {
      throw fail(8, "\(labelCount) labels in \(labelBytes) bytes is past the format's bounds")
    }
    var binding = StreamChecksum()
    binding.update(headerBytes)
    binding.update(sectionHeader[0..<24])
    let storedBinding = field(UInt64.self, at: 24)
    guard binding.value == storedBinding else {
      throw fail(24, "checksum mismatch: the section does not belong to this base's header")
    }
    let tableByteCount = 4 * labelCount
    sectionByteCount = Self.sectionHeaderByteCount + tableByteCount + labelBytes
    guard fileByteCount == start + sectionByteCount else {
      throw BaseFormatError(
        path: path, offset: min(fileByteCount, start + sectionByteCount),
        problem: .sizeMismatch(expected: start + sectionByteCount, actual: fileByteCount))
    }
    count = labelCount
    guard labelCount > 0 else {
      region = nil
      ends = .empty
      self.labels = .empty
      return
    }
    // Map from the page holding the section's body to the end of the file.
    let pageByteCount = MappedRegion.pageByteCount
    let body = start + Self.sectionHeaderByteCount
    let mapStart = body / pageByteCount * pageByteCount
    let mapped: MappedRegion
    do {
      mapped = try MappedRegion(
        descriptor: descriptor, offset: mapStart, byteCount: fileByteCount - mapStart)
    } catch {
      throw FileHandleIO.error(path, mapStart, "mmap", error)
    }
    region = mapped
    // The file's size was checked to be the section's end, so both views end where it does.
    let sectionBody = mapped.bytes.rebased(from: body - mapStart)
    ends = sectionBody.rebased(0..<tableByteCount)
    self.labels = sectionBody.rebased(from: tableByteCount)
    do {
      let stored = field(UInt64.self, at: 16)
      let actual = StreamChecksum.of(sectionBody)
      guard actual == stored else {
        throw fail(16, "checksum mismatch: the table or the labels are corrupt")
      }
      var previousEnd = 0
      for index in 0..<labelCount {
        let end = Int(ends.loadLittleEndian(UInt32.self, at: 4 * index))
        let length = end - previousEnd
        guard length >= 1, length <= BaseHeader.maximumLabelByteCount, end <= labelBytes else {
          throw fail(Self.sectionHeaderByteCount + 4 * index, "label \(index) ends at \(end)")
        }
        if validatesLabels {
          let label = self.labels.rebased(previousEnd..<end)
          guard UTF8Validation.isValid(label) else {
            throw BaseFormatError(
              path: path, offset: body + tableByteCount + previousEnd, problem: .invalidUTF8Label)
          }
          if let bad = LabelRule.controlCharacterOffset(label) {
            throw BaseFormatError(
              path: path, offset: body + tableByteCount + previousEnd + bad,
              problem: .invalidLabel("a control character or line break"))
          }
        }
        previousEnd = end
      }
      guard previousEnd == labelBytes else {
        throw fail(12, "the labels end at \(previousEnd) of \(labelBytes) bytes")
      }
    }
    // No munmap on the way out: every stored property is set by now, so a throw still runs
    // deinit, which unmaps. Unmapping here too unmapped the range twice, and by the second call
    // another thread may have mapped it (a crash in another reader, seen under parallel tests).
  }

  deinit {
    region?.unmap()
  }

  /// The bytes of label `index` (`0 ≤ index < count`, checked by the caller). Read through the
  /// views, checked: only a miss of the reader's label cache comes here (a string is made once
  /// per label that fits its budget), so the checks are not per entry.
  @inline(__always)
  func label(at index: Int) -> ByteView {
    let end = Int(ends.loadLittleEndian(UInt32.self, at: 4 * index))
    let start = index == 0 ? 0 : Int(ends.loadLittleEndian(UInt32.self, at: 4 * index - 4))
    return labels.rebased(start..<end)
  }

  /// The section for `labels` (in index order), bound to a base's 64-byte `header`: what the
  /// writer appends after the blocks.
  static func section(labels: [UInt8], ends: [UInt32], header: [UInt8]) -> [UInt8] {
    var section = magic
    section.appendLittleEndian(UInt32(ends.count))
    section.appendLittleEndian(UInt32(labels.count))
    var body: [UInt8] = []
    body.reserveCapacity(4 * ends.count + labels.count)
    for end in ends { body.appendLittleEndian(end) }
    body.append(contentsOf: labels)
    let bodyChecksum = StreamChecksum.of(body)
    section.appendLittleEndian(bodyChecksum)
    var binding = StreamChecksum()
    binding.update(header)
    binding.update(section)
    section.appendLittleEndian(binding.value)
    return section + body
  }
}
