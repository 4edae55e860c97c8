import BaseFormat

/// A raw dump (TSV, as ``DatasetFormat/tsv``) of any size, in bounded memory: the generator
/// holds its numbers in memory and stops at ``DatasetParameters/maximumEntries``, so a larger
/// dump is that many-entry slices, each drawn with a seed of its own and shuffled within
/// itself, one after another. Slices draw from the same number plans, so a number may repeat
/// across slices, as it would across a real operator's sources; a compile drops those repeats
/// as it drops any other.
public enum ChunkedDump {
  /// Entries per slice: the generator's numbers and row order take about 17 bytes an entry,
  /// 700 MB for a slice.
  public static let sliceEntries = 40_000_000

  /// Writes the dump of `parameters` (any `entries`) at `path`, atomically. Up to
  /// ``sliceEntries`` it is byte for byte ``DatasetGenerator``'s TSV.
  /// - Parameter progress: called now and then with the fraction written (0...1).
  /// - Throws: ``DatasetError`` for invalid parameters (other than their size);
  ///   `BaseFormat.BaseFormatError` when the file cannot be written.
  public static func write(
    _ parameters: DatasetParameters, to path: String, progress: (Double) -> Void = { _ in }
  ) throws {
    try write(parameters, to: path, sliceEntries: sliceEntries, progress: progress)
  }

  /// ``write(_:to:progress:)`` in slices of `sliceEntries` (tests slice small dumps).
  static func write(
    _ parameters: DatasetParameters, to path: String, sliceEntries: Int,
    progress: (Double) -> Void
  ) throws {
    guard parameters.entries > sliceEntries else {
      try DatasetGenerator(parameters: parameters).write(.tsv, to: path, progress: progress)
      return
    }
    let file = try AtomicFileWriter(path: path)
    do {
      try file.write(DatasetGenerator.tsvHeader.utf8)
      let total = parameters.entries
      var written = 0
      var slice: UInt64 = 0
      while written < total {
        var sliceParameters = parameters
        sliceParameters.entries = min(sliceEntries, total - written)
        sliceParameters.seed = parameters.seed &+ slice &* 0x9E37_79B9_7F4A_7C15
        let generator = try DatasetGenerator(parameters: sliceParameters)
        let before = Double(written) / Double(total)
        let share = Double(sliceParameters.entries) / Double(total)
        try generator.writeTSVRows(to: file) { progress(before + $0 * share) }
        written += sliceParameters.entries
        slice += 1
      }
      try file.commit()
    } catch {
      file.discard()
      throw error
    }
    progress(1)
  }
}
