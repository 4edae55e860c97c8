import CZlib

// Safe (the `unsafe` uses in this file): zlib's stream and file are made, used and ended within
// one call (each `defer` ends them), and its in and out buffers are lent for the calls that use
// them.

/// The size `gzip -9` gives a file's (decompressed) bytes, measured with zlib's deflate at level
/// 9 in one 1 MiB buffer, so the compile report can set its bases beside it, on the same data.
enum GzipSize {
  /// Bytes of the gzip -9 stream of `path`'s content, or nil when it cannot be read.
  static func of(path: String) -> Int? {
    guard let input = unsafe gzopen(path, "rb") else { return nil }
    defer { unsafe gzclose(input) }
    var stream = unsafe z_stream()
    // deflateInit2 is a macro; its function takes the version and struct size explicitly.
    // windowBits 15 + 16 asks for a gzip wrapper, as the gzip tool writes.
    guard
      unsafe deflateInit2_(
        &stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
        Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { return nil }
    defer { unsafe deflateEnd(&stream) }
    let chunk = 1 << 20
    var inBuffer = [UInt8](repeating: 0, count: chunk)
    var outBuffer = [UInt8](repeating: 0, count: chunk)
    var total = 0
    var finished = false
    while !finished {
      let read = unsafe inBuffer.withUnsafeMutableBytes {
        unsafe gzread(input, $0.baseAddress, UInt32(chunk))
      }
      if read < 0 { return nil }
      let flush = read == 0 ? Z_FINISH : Z_NO_FLUSH
      unsafe inBuffer.withUnsafeMutableBufferPointer { inPointer in
        unsafe stream.next_in = inPointer.baseAddress
        unsafe stream.avail_in = UInt32(read)
        repeat {
          unsafe outBuffer.withUnsafeMutableBufferPointer { outPointer in
            unsafe stream.next_out = outPointer.baseAddress
            unsafe stream.avail_out = UInt32(chunk)
            let status = unsafe deflate(&stream, flush)
            unsafe total += chunk - Int(stream.avail_out)
            if status == Z_STREAM_END { finished = true }
          }
        } while unsafe stream.avail_out == 0
      }
    }
    return total
  }
}
