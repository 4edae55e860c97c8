import CZlib

/// Inflates a raw deflate stream (RFC 1951, no zlib or gzip header), as a zip archive stores
/// its members (APPNOTE.TXT 4.4.5, method 8), into at most `maximumByteCount` bytes.
///
/// Written here rather than through ZIPFoundation: its zlib module is named `CZlib`, as this
/// package's is, and two module maps of one name fail the build ("redefinition of module
/// 'CZlib'"); renaming this package's module would break the iOS SDK check that compiles
/// ReleaseFormat against it by that name.
enum RawInflate {
  /// Why a stream did not inflate.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The inflated bytes of `deflated`.
  /// - Throws: ``Failure`` when the stream is corrupt or ends early, or inflates past
  ///   `maximumByteCount` (counted as it inflates: a zip's stated sizes may lie).
  static func inflate(_ deflated: ArraySlice<UInt8>, maximumByteCount: Int) throws(Failure)
    -> [UInt8]
  {
    var stream = unsafe z_stream()
    // Safe: zlib reads `input` and writes `window` only inside the closures that lend them,
    // told their exact sizes; the stream is ended before they are let go.
    guard
      unsafe inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        == Z_OK
    else { throw Failure(description: "zlib's inflate cannot start") }
    defer { unsafe inflateEnd(&stream) }
    var input = Array(deflated)
    var output: [UInt8] = []
    var window = [UInt8](repeating: 0, count: 64 * 1024)
    var status = Z_OK
    // Safe: as above; next_in and next_out point into the lent buffers for one call each.
    try unsafe input.withUnsafeMutableBufferPointer { inputBuffer throws(Failure) in
      unsafe stream.next_in = inputBuffer.baseAddress
      unsafe stream.avail_in = uInt(inputBuffer.count)
      while status != Z_STREAM_END {
        let produced = unsafe window.withUnsafeMutableBufferPointer { windowBuffer in
          unsafe stream.next_out = windowBuffer.baseAddress
          unsafe stream.avail_out = uInt(windowBuffer.count)
          status = unsafe CZlib.inflate(&stream, Z_NO_FLUSH)
          return windowBuffer.count - Int(unsafe stream.avail_out)
        }
        guard status == Z_OK || status == Z_STREAM_END else {
          throw Failure(
            description: status == Z_BUF_ERROR
              ? "the stream ends early" : "corrupt (zlib \(status))")
        }
        guard output.count + produced <= maximumByteCount else {
          throw Failure(description: "it inflates past \(maximumByteCount >> 20) MiB")
        }
        output += window[..<produced]
        if produced == 0, unsafe stream.avail_in == 0, status != Z_STREAM_END {
          throw Failure(description: "the stream ends early")
        }
      }
      unsafe stream.next_in = nil
      unsafe stream.next_out = nil
    }
    return output
  }

  /// zlib's CRC-32 of `bytes` (the checksum a zip stores for each member).
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    // Safe: zlib reads the lent buffer inside the closure, told its exact size.
    unsafe bytes.withUnsafeBufferPointer { buffer in
      UInt32(unsafe CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
    }
  }
}
