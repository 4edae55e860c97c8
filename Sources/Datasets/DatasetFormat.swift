import BaseFormat
import ByteCoding
import DirectoryCompiler
import PhoneNormalization

/// The forms a dataset can be written in: our base, a raw dump, and each article's own file.
public enum DatasetFormat: String, CaseIterable, Sendable {
  /// calldir's binary base in fixed-width records (format version 1, `--fixed-width`).
  case base
  /// calldir's compact base (format version 3: number deltas and a label dictionary of the
  /// frequent labels), as `calldir compile` writes by default: what ships.
  case compactBase = "compact-base"
  /// A raw directory dump: `number<TAB>label<TAB>region<TAB>rank` with a header row, numbers in
  /// `+CC…` form, rows shuffled, `duplicateShare` of them repeated.
  case tsv
  /// The Chinese article's file: `[`, one `{"number": "label"},` object per line, `]`.
  case jsonl
  /// The Russian guide's lines: `number` U+D7FF `name`.
  case text
  /// 2GIS's records: `[UInt16 block size][UInt64 phone][UTF-8 name]`, block size = 8 + name bytes,
  /// little-endian (the iPhone's byte order), no header.
  case twoGIS = "2gis"

  /// The file name used in the dataset cache.
  public var fileName: String {
    switch self {
    case .base: "entries.cdb"
    case .compactBase: "entries.v3.cdb"
    case .tsv: "raw.tsv"
    case .jsonl: "entries.json"
    case .text: "entries.txt"
    case .twoGIS: "entries.2gis"
    }
  }
}

extension DatasetGenerator {
  /// Writes the dataset at `path` in `format`, atomically.
  /// - Parameter progress: called now and then with the fraction written (0...1).
  /// - Throws: `BaseFormat.BaseFormatError` when the file cannot be written.
  public func write(
    _ format: DatasetFormat, to path: String, progress: (Double) -> Void = { _ in }
  ) throws(BaseFormatError) {
    let progressStep = max(1, numbers.count / 100)
    switch format {
    case .base:
      let writer = try BaseWriter(path: path, kind: kind)
      for (index, number) in numbers.enumerated() {
        try writer.append(number, label: kind == .identification ? label(at: index) : "")
        if index % progressStep == 0 { progress(Double(index) / Double(numbers.count)) }
      }
      try writer.finish()
    case .compactBase:
      // The dictionary the compiler would choose: the most frequent labels, in bounded memory.
      let frequent = FrequentLabels(capacity: 2 * BaseHeader.maximumDictionaryEntryCount)
      if kind == .identification {
        for index in numbers.indices { frequent.add(label(at: index)) }
      }
      let writer = try BaseWriter(
        path: path, kind: kind, compact: true,
        dictionaryCandidates: Set(frequent.top(BaseHeader.maximumDictionaryEntryCount)))
      for (index, number) in numbers.enumerated() {
        try writer.append(number, label: kind == .identification ? label(at: index) : "")
        if index % progressStep == 0 { progress(Double(index) / Double(numbers.count)) }
      }
      try writer.finish()
    case .twoGIS:
      let file = try AtomicFileWriter(path: path)
      for (index, number) in numbers.enumerated() {
        let name = label(at: index).utf8
        var record: [UInt8] = []
        record.appendLittleEndian(UInt16(8 + name.count))
        record.appendLittleEndian(UInt64(number))
        record.append(contentsOf: name)
        try file.write(record)
        if index % progressStep == 0 { progress(Double(index) / Double(numbers.count)) }
      }
      try file.commit()
    case .jsonl:
      let file = try AtomicFileWriter(path: path)
      try file.write("[\n".utf8)
      for (index, number) in numbers.enumerated() {
        try file.write(
          "{\"\(number)\": \"\(JSONStringEscaping.escaped(label(at: index)))\"},\n".utf8)
        if index % progressStep == 0 { progress(Double(index) / Double(numbers.count)) }
      }
      try file.write("]\n".utf8)
      try file.commit()
    case .text:
      let file = try AtomicFileWriter(path: path)
      for (index, number) in numbers.enumerated() {
        try file.write("\(number)\(ArticleFormats.russianSeparator)\(label(at: index))\n".utf8)
        if index % progressStep == 0 { progress(Double(index) / Double(numbers.count)) }
      }
      try file.commit()
    case .tsv:
      let file = try AtomicFileWriter(path: path)
      try file.write(Self.tsvHeader.utf8)
      try writeTSVRows(to: file, progress: progress)
      try file.commit()
    }
    progress(1)
  }

  /// The raw dump's first line: its columns.
  static let tsvHeader = "number\tlabel\tregion\trank\n"

  /// Appends the raw dump's rows (no header) to `file`: shuffled, with duplicates, `+CC…`.
  /// - Parameter progress: called now and then with the fraction written (0...1).
  /// - Throws: `BaseFormat.BaseFormatError` when the file cannot be written.
  func writeTSVRows(to file: AtomicFileWriter, progress: (Double) -> Void) throws(BaseFormatError) {
    let rows = rawRowOrder()
    let rowStep = max(1, rows.count / 100)
    for (row, index) in rows.enumerated() {
      let number = numbers[index]
      let rank = 1 + SplitMix64.mix(parameters.seed ^ 0x5241_4E4B, UInt64(index)) % 100_000
      try file.write(
        "+\(number)\t\(label(at: index))\t\(Self.region(of: number))\t\(rank)\n".utf8)
      if row % rowStep == 0 { progress(Double(row) / Double(rows.count)) }
    }
  }

  /// A region code for a number: its country code and the first three national digits (an area
  /// or mobile code), such as `7-495`.
  public static func region(of number: Int64) -> String {
    guard let (code, national) = CallingCode.split(number) else { return String(number) }
    return "\(code)-\(national.prefix(3))"
  }
}
