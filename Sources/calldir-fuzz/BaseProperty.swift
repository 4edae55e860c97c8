import BaseFormat

#if canImport(Glibc)
  import Glibc
#endif

/// Any bytes as a base file, read by both readers.
enum BaseProperty {
  /// The file each input is written to (one per process): in memory (/dev/shm) where there is
  /// one, which runs about twice as many inputs a second as /tmp.
  nonisolated(unsafe) static let path =
    (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") + "/calldir-fuzz-\(getpid()).cdb"

  static func check(_ input: UnsafeRawBufferPointer) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(descriptor >= 0, "cannot write \(path)")
    if input.count > 0 {
      precondition(write(descriptor, input.baseAddress, input.count) == input.count)
    }
    close(descriptor)
    let mapped = read { () throws(BaseFormatError) in
      try MappedBaseReader(path: path, validatesLabels: true)
    }
    let buffered = read { () throws(BaseFormatError) in
      try BufferedBaseReader(path: path, validatesLabels: true)
    }
    precondition(mapped.entries == buffered.entries, "the readers disagree on the entries")
    precondition(mapped.completed == buffered.completed, "one reader completed, the other did not")
  }

  /// Every entry a reader hands out before it ends or fails, checked one by one.
  static func read(_ open: () throws(BaseFormatError) -> some BaseReader) -> (
    entries: [BaseEntry], completed: Bool
  ) {
    var entries: [BaseEntry] = []
    do throws(BaseFormatError) {
      let reader = try open()
      while let entry = try reader.next() {
        if let previous = entries.last {
          precondition(entry.number > previous.number, "numbers not ascending")
        }
        precondition(entry.number > 0, "a number at or below 0")
        precondition(entry.label.utf8.count <= BaseHeader.maximumLabelByteCount, "label too long")
        entries.append(entry)
      }
      precondition(entries.count == reader.header.entryCount, "fewer entries than the header's")
      return (entries, true)
    } catch {
      return (entries, false)
    }
  }
}
