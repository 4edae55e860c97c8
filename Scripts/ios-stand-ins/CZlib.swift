// A stand-in for zlib as Swift imports <zlib.h> on Apple systems (the SDK's libz), for the
// iOS/macOS type-check on Linux, where glibc's headers do not parse under an Apple target: the
// declarations ReleaseFormat uses, with the imported signatures (uInt is UInt32, z_streamp an
// implicitly unwrapped pointer, the version a string macro).
public typealias Bytef = UInt8
public typealias uInt = UInt32
public typealias uLong = UInt

public struct z_stream {
  public var next_in: UnsafeMutablePointer<Bytef>!
  public var avail_in: uInt
  public var total_in: uLong
  public var next_out: UnsafeMutablePointer<Bytef>!
  public var avail_out: uInt
  public var total_out: uLong
  public init() {
    next_in = nil
    avail_in = 0
    total_in = 0
    next_out = nil
    avail_out = 0
    total_out = 0
  }
}
public typealias z_streamp = UnsafeMutablePointer<z_stream>

public let ZLIB_VERSION = "1.2.12"
public var Z_OK: Int32 { 0 }
public var Z_STREAM_END: Int32 { 1 }
public var Z_BUF_ERROR: Int32 { -5 }
public var Z_NO_FLUSH: Int32 { 0 }
public var Z_FINISH: Int32 { 4 }

public func deflateInit_(
  _ strm: z_streamp!, _ level: Int32, _ version: UnsafePointer<CChar>!, _ stream_size: Int32
) -> Int32 { 0 }
public func deflate(_ strm: z_streamp!, _ flush: Int32) -> Int32 { 0 }
public func deflateEnd(_ strm: z_streamp!) -> Int32 { 0 }
public func inflateInit_(_ strm: z_streamp!, _ version: UnsafePointer<CChar>!, _ stream_size: Int32)
  -> Int32
{ 0 }
public func inflate(_ strm: z_streamp!, _ flush: Int32) -> Int32 { 0 }
public func inflateEnd(_ strm: z_streamp!) -> Int32 { 0 }
