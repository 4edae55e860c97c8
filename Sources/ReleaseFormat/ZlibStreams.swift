import CZlib

/// Compresses bytes with zlib's deflate (level 9, the zlib wrapper, whose Adler-32 catches a
/// damaged stream on the way back), handing each compressed piece to `sink`. zlib, not zstd: the
/// system has it on iOS and Linux alike (no dependency), and a patch is mostly gaps and label
/// references that deflate packs well.
@safe final class Deflater {
  // Safe: zlib points at a lent buffer only while its closure runs, told its exact size.
  private var stream = unsafe z_stream()
  private var output = [UInt8](repeating: 0, count: 64 * 1024)
  private let sink: ([UInt8]) throws(ReleaseError) -> Void

  /// A compressor that hands its output to `sink`.
  /// - Throws: ``ReleaseError`` when zlib cannot start.
  init(sink: @escaping ([UInt8]) throws(ReleaseError) -> Void) throws(ReleaseError) {
    self.sink = sink
    // deflateInit_ is what the deflateInit macro calls: version and struct size explicitly.
    // Safe: zlib points at a lent buffer only while its closure runs, told its exact size.
    guard unsafe deflateInit_(&stream, 9, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else {
      throw ReleaseError("zlib's deflate cannot start")
    }
  }

  // Safe: zlib points at a lent buffer only while its closure runs, told its exact size.
  deinit { unsafe deflateEnd(&stream) }

  /// Compresses `bytes`.
  func write(_ bytes: [UInt8]) throws(ReleaseError) { try run(bytes, flush: Z_NO_FLUSH) }

  /// Ends the stream, handing out what is left.
  func finish() throws(ReleaseError) { try run([], flush: Z_FINISH) }

  private func run(_ bytes: [UInt8], flush: Int32) throws(ReleaseError) {
    var input = bytes
    // Safe: zlib points at a lent buffer only while its closure runs, told its exact size.
    unsafe try input.withUnsafeMutableBufferPointer { (input) throws(ReleaseError) in
      unsafe stream.next_in = input.baseAddress
      unsafe stream.avail_in = UInt32(input.count)
      while true {
        // Safe: zlib points at a lent buffer only while its closure runs, told its exact size.
        let (status, produced) = unsafe output.withUnsafeMutableBufferPointer { out in
          unsafe stream.next_out = out.baseAddress
          unsafe stream.avail_out = UInt32(out.count)
          let status = unsafe deflate(&stream, flush)
          return unsafe (status, out.count - Int(stream.avail_out))
        }
        guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
          throw ReleaseError("zlib's deflate failed (\(status))")
        }
        if produced > 0 { try sink(Array(output[..<produced])) }
        // Safe: zlib points at a lent buffer only while its closure runs, told its exact size.
        if unsafe flush == Z_FINISH ? status == Z_STREAM_END : stream.avail_out != 0 { break }
      }
    }
  }
}

/// Decompresses a zlib stream read in pieces from `source`, and reads it as bytes, LEB128 values
/// and byte strings, in bounded memory (a 64 KiB window of output at a time).
@safe final class InflateReader {
  // Safe: zlib points at a lent buffer only while its closure runs, told its exact size.
  private var stream = unsafe z_stream()
  private var input = [UInt8](repeating: 0, count: 64 * 1024)
  private var inputCount = 0
  private var inputOffset = 0
  private var window = [UInt8](repeating: 0, count: 64 * 1024)
  private var windowCount = 0
  private var windowOffset = 0
  private var ended = false
  private let source: (inout [UInt8]) throws(ReleaseError) -> Int
  private let path: String

  /// A reader of the zlib stream `source` fills buffers from (returning 0 at its end);
  /// `path` names the stream in errors.
  /// - Throws: ``ReleaseError`` when zlib cannot start.
  init(path: String, source: @escaping (inout [UInt8]) throws(ReleaseError) -> Int)
    throws(ReleaseError)
  {
    self.path = path
    self.source = source
    // Safe: zlib points at a lent buffer only while its closure runs, told its exact size.
    guard unsafe inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else {
      throw ReleaseError("zlib's inflate cannot start")
    }
  }

  deinit {
    // Safe: zlib points at a lent buffer only while its closure runs, told its exact size.
    unsafe inflateEnd(&stream)
  }

  /// Whether the stream ended exactly here, with nothing left unread.
  func isAtEnd() throws(ReleaseError) -> Bool {
    if windowOffset < windowCount { return false }
    try refill()
    return windowOffset == windowCount
  }

  /// The next byte.
  /// - Throws: ``ReleaseError`` when the stream ends first or is damaged.
  func byte() throws(ReleaseError) -> UInt8 {
    if windowOffset == windowCount {
      try refill()
      guard windowOffset < windowCount else { throw ReleaseError("\(path): the stream ends early") }
    }
    defer { windowOffset += 1 }
    return window[windowOffset]
  }

  /// The next LEB128 value (at most 10 bytes, fitting 64 bits).
  /// - Throws: ``ReleaseError`` when it is malformed or the stream ends first.
  func leb128() throws(ReleaseError) -> UInt64 {
    var value: UInt64 = 0
    for index in 0..<10 {
      let byte = try byte()
      let bits = UInt64(byte & 0x7f)
      guard index < 9 || bits <= 1 else { throw ReleaseError("\(path): a number past 64 bits") }
      value |= bits << (7 * UInt64(index))
      if byte & 0x80 == 0 { return value }
    }
    throw ReleaseError("\(path): a number past 64 bits")
  }

  /// The bytes before the next `terminator` (which is read too), or nil when more than
  /// `limit` come first.
  /// - Throws: ``ReleaseError`` when the stream ends first or is damaged.
  func bytes(upTo terminator: UInt8, atMost limit: Int) throws(ReleaseError) -> [UInt8]? {
    var result: [UInt8] = []
    while true {
      let byte = try byte()
      if byte == terminator { return result }
      guard result.count < limit else { return nil }
      result.append(byte)
    }
  }

  private func refill() throws(ReleaseError) {
    windowOffset = 0
    windowCount = 0
    while windowCount == 0 && !ended {
      if inputOffset == inputCount {
        inputCount = try source(&input)
        inputOffset = 0
        guard inputCount > 0 else { throw ReleaseError("\(path): the stream is cut short") }
      }
      // zlib's pointers are set afresh on every call, inside the arrays' borrows: it keeps
      // none of them past `inflate`.
      // Safe: zlib points at a lent buffer only while its closure runs, told its exact size.
      let status = unsafe input.withUnsafeMutableBufferPointer { inBytes in
        unsafe window.withUnsafeMutableBufferPointer { out in
          unsafe stream.next_in = unsafe inBytes.baseAddress! + inputOffset
          unsafe stream.avail_in = UInt32(inputCount - inputOffset)
          unsafe stream.next_out = out.baseAddress
          unsafe stream.avail_out = UInt32(out.count)
          let status = unsafe inflate(&stream, Z_NO_FLUSH)
          inputOffset = unsafe inputCount - Int(stream.avail_in)
          windowCount = unsafe out.count - Int(stream.avail_out)
          return status
        }
      }
      if status == Z_STREAM_END {
        ended = true
        var extra = inputCount - inputOffset
        if extra == 0 { extra = try source(&input) }
        guard extra == 0 else { throw ReleaseError("\(path): bytes after the stream's end") }
      } else if status != Z_OK {
        throw ReleaseError("\(path): the compressed stream is damaged (zlib \(status))")
      }
    }
  }
}
