import BaseFormat

/// Any bytes as a base file, read by both readers.
enum BaseProperty {
  static let file = FuzzInputFile(extension: "cdb")

  static func check(_ input: [UInt8]) {
    file.replaceContents(with: input)
    let path = file.path
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
