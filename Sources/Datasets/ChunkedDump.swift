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

  /// Bumped when the slices of the same parameters change (2: each slice's seed mixed, not
  /// stepped: SplitMix64 steps its state by the same constant, so seed + k × that constant
  /// drew slice 0's numbers again, k draws later, and 420 M rows held 110 M numbers).
  public static let version = 2

  /// The seed slice `slice` of `parameters` draws with: mixed from the dump's seed and the
  /// slice's index, so no two slices share a stream.
  static func seed(of parameters: DatasetParameters, slice: UInt64) -> UInt64 {
    SplitMix64.mix(parameters.seed, slice)
  }

  /// The name a cache keeps the dump of `parameters` under: the parameters' key, and the
  /// slicing's version when the dump is sliced.
  public static func cacheName(_ parameters: DatasetParameters) -> String {
    parameters.entries > sliceEntries
      ? "\(parameters.cacheKey)-sliced\(version)" : parameters.cacheKey
  }

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
        sliceParameters.seed = seed(of: parameters, slice: slice)
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
