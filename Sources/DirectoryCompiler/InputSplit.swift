import SystemCalls

/// Where one input is cut so several threads can read it (`compile --threads`): at line feeds
/// near equal shares of the file. Only where a cut at a line feed cannot fall inside a record: a
/// plain (not gzip) regular file of TSV or CSV whose fields are not quoted across lines (TSV's
/// default; CSV with `--quoting none`), with LF or CRLF line ends, of at least
/// ``CompileOptions/minimumSplitByteCount``. Anything else is read whole by one thread.
enum InputSplit {
  /// The byte ranges of the file's parts (the first from byte 0, the last to the end), or nil
  /// when it is read whole.
  static func ranges(
    path: String, format: InputFormat, quoting: Quoting?, parts: Int, minimumByteCount: Int
  ) -> [Range<Int>]? {
    guard parts >= 2 else { return nil }
    // `Quoting.none` spelt out: a bare `.none` would be the optional's nil.
    let unquoted =
      format == .tsv
      ? (quoting == nil || quoting == Quoting.none) : (format == .csv && quoting == Quoting.none)
    guard unquoted, let size = FolderCalls.regularFileByteCount(path), size >= minimumByteCount,
      let descriptor = try? PositionalRead.open(path)
    else { return nil }
    defer { PositionalRead.close(descriptor) }
    var probe = [UInt8](repeating: 0, count: 64 * 1024)
    // A probe that cannot be read leaves the file to one reader, which names the failure.
    guard let read = try? PositionalRead.read(descriptor, into: &probe, at: 0), read > 2 else {
      return nil
    }
    let head = probe[..<read]
    // gzip, or lines ended by CR alone (InputLines reads those a way a cut would not).
    if head[0] == 0x1f && head[1] == 0x8b { return nil }
    guard head.contains(UInt8(ascii: "\n")) else { return nil }
    var cuts: [Int] = [0]
    for part in 1..<parts {
      let target = max(cuts.last! + 1, size / parts * part)
      guard let cut = lineStart(atOrAfter: target, descriptor: descriptor, size: size),
        cut < size
      else { break }
      cuts.append(cut)
    }
    guard cuts.count >= 2 else { return nil }
    return zip(cuts, cuts.dropFirst() + [size]).map { $0..<$1 }
  }

  /// The offset just past the first line feed at or after `offset − 1`: where the line that
  /// holds `offset` ends and the next begins; nil when no line feed follows.
  private static func lineStart(atOrAfter offset: Int, descriptor: Int32, size: Int) -> Int? {
    var position = offset - 1
    var window = [UInt8](repeating: 0, count: 64 * 1024)
    while position < size {
      guard let read = try? PositionalRead.read(descriptor, into: &window, at: position), read > 0
      else { return nil }
      if let index = window[..<read].firstIndex(of: UInt8(ascii: "\n")) {
        return position + index + 1
      }
      position += read
    }
    return nil
  }
}
