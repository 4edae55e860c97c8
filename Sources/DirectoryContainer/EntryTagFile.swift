import BaseFormat
import ByteCoding
import SystemCalls
import SystemPackage

/// A compile's per-entry tags (a byte an identification entry carries from its category column,
/// such as Live Caller ID Lookup's identity category), written beside a container, not in it:
/// 9-byte records, the number (Int64, little-endian) then the tag (1–255), in ascending number
/// order, one per entry with a tag. The compiler writes it as it writes the bases, so it holds
/// the row the compile chose for each number; a reader streams it beside the bases in constant
/// memory.
package enum EntryTagFile {
  /// Bytes of one record.
  package static let recordByteCount = 9

  /// Writes records in ascending number order, atomically (temporary file, fsync, rename).
  package final class Writer {
    private let file: AtomicFileWriter
    private var last = Int64.min
    /// Records written.
    package private(set) var count = 0

    /// - Throws: ``ContainerError`` when the file cannot be made.
    package init(path: String) throws(ContainerError) {
      do {
        file = try AtomicFileWriter(path: path)
      } catch {
        throw ContainerError(error.description)
      }
    }

    /// Appends `number`'s tag.
    /// - Throws: ``ContainerError`` on a write error, or when `number` is not above the last.
    package func append(_ number: Int64, tag: UInt8) throws(ContainerError) {
      guard number > last || count == 0 else {
        throw ContainerError("entry tags out of order: \(number) after \(last)")
      }
      var record = [UInt8](repeating: 0, count: EntryTagFile.recordByteCount)
      for index in 0..<8 { record[index] = UInt8(truncatingIfNeeded: number >> (8 * index)) }
      record[8] = tag
      do {
        try file.write(record)
      } catch {
        throw ContainerError(error.description)
      }
      last = number
      count += 1
    }

    /// Makes the file durable under its name.
    /// - Throws: ``ContainerError`` from the fsync or the rename.
    package func finish() throws(ContainerError) {
      do {
        try file.commit()
      } catch {
        throw ContainerError(error.description)
      }
    }
  }

  /// Reads the records in order through one 64 KiB buffer, and answers "what is this number's
  /// tag" for numbers asked in ascending order.
  package final class Reader {
    private let descriptor: FileDescriptor
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var filled = 0
    private var position = 0
    private var current: (number: Int64, tag: UInt8)?
    private var ended = false
    private let path: String

    /// - Throws: ``ContainerError`` naming the file when it cannot be opened.
    package init(path: String) throws(ContainerError) {
      self.path = path
      do {
        descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
      } catch {
        throw ContainerError("\(path): cannot open: \(error)")
      }
    }

    deinit { try? descriptor.close() }

    /// The tag of `number`, or 0 when it has none. Numbers must be asked in ascending order.
    /// - Throws: ``ContainerError`` naming the file when it cannot be read, ends inside a
    ///   record, or is not in ascending order.
    package func tag(of number: Int64) throws(ContainerError) -> UInt8 {
      while true {
        if current == nil {
          guard let next = try readRecord() else { return 0 }
          current = next
        }
        guard let record = current else { return 0 }
        if record.number == number { return record.tag }
        if record.number > number { return 0 }
        current = nil
      }
    }

    private var lastRead = Int64.min

    private func readRecord() throws(ContainerError) -> (number: Int64, tag: UInt8)? {
      if ended { return nil }
      if filled - position < EntryTagFile.recordByteCount {
        // Move the partial record to the front and fill the rest.
        let left = filled - position
        for index in 0..<left { buffer[index] = buffer[position + index] }
        filled = left
        position = 0
        while filled < EntryTagFile.recordByteCount {
          let count: Int
          do {
            count = try readMore(descriptor, into: &buffer, from: filled)
          } catch {
            throw ContainerError("\(path): cannot read: \(error)")
          }
          if count == 0 {
            guard filled == 0 else {
              throw ContainerError("\(path): ends inside a record")
            }
            ended = true
            return nil
          }
          filled += count
        }
      }
      var number: Int64 = 0
      for index in 0..<8 { number |= Int64(buffer[position + index]) << (8 * index) }
      let tag = buffer[position + 8]
      position += EntryTagFile.recordByteCount
      guard number > lastRead || lastRead == Int64.min else {
        throw ContainerError("\(path): numbers out of order at \(number)")
      }
      lastRead = number
      return (number, tag)
    }
  }
}
