/// What a ``ReleaseServer`` does wrong on purpose. Every fault touches only the files under
/// `patches/` and `bases/` (the index is always served well, so an update gets as far as its
/// downloads).
public struct ServerFaults: Sendable, Equatable {
  /// The first response of every file sends this many bytes of its body, then the connection
  /// is cut (later requests for that file are served whole).
  public var dropAfter: Int?
  /// The first response for a file sends this many bytes of its body, then the whole server
  /// stops: its listening socket and every connection are closed (killed mid-download).
  public var dieAfter: Int?
  /// A `Range` request is answered 206 from byte 0, its `Content-Range` saying so.
  public var wrongRange = false
  /// Files are served with their last byte changed.
  public var corrupt = false
  /// Files get their headers, then nothing, until the client gives up.
  public var stall = false
  /// Files get their headers and this many bytes of body, then nothing, until the client gives
  /// up or is cancelled.
  public var stallAfter: Int?
  /// Files answer 404.
  public var missing = false
  /// No `ETag` (every file is then fetched whole, as from a server without validators).
  public var noETag = false
  /// Files get their headers, then wait this many milliseconds before the body.
  public var delayMilliseconds: Int?
  /// Files are sent with `Content-Encoding: gzip`: a small body that decodes to this many MiB
  /// more than the file (a decompression bomb).
  public var gzipBombMiB: Int?
  /// Bodies go out in pieces of this many bytes, each written once the one before has been
  /// handed to the kernel (a drip-fed body: the client reads it in many small parts).
  public var dripBytes: Int?
  /// As a stock static server (`python3 -m http.server`) answers: `Range` ignored (200 with the
  /// whole file), no `ETag`, a `Last-Modified` date that `If-Modified-Since` is checked against.
  public var ignoresRange = false

  /// A server that does nothing wrong.
  public init() {}

  /// The first response of each file cut after `bytes` of its body.
  public static func dropping(after bytes: Int) -> Self { with { $0.dropAfter = bytes } }
  /// The whole server stopped after `bytes` of the first file's body.
  public static func dying(after bytes: Int) -> Self { with { $0.dieAfter = bytes } }
  /// Files' headers sent, then nothing.
  public static var stalling: Self { with { $0.stall = true } }
  /// Files' headers and `bytes` of their bodies sent, then nothing.
  public static func stalling(after bytes: Int) -> Self { with { $0.stallAfter = bytes } }
  /// `Range` answered from byte 0.
  public static var wrongRange: Self { with { $0.wrongRange = true } }
  /// Files served with their last byte changed.
  public static var corrupt: Self { with { $0.corrupt = true } }
  /// Files answered 404.
  public static var missing: Self { with { $0.missing = true } }
  /// No `ETag` on any response.
  public static var noETag: Self { with { $0.noETag = true } }
  /// A stock static server: no `Range`, no `ETag`, `Last-Modified` only.
  public static var stock: Self { with { $0.ignoresRange = true } }
  /// Files sent as a gzip body that decodes to `mebibytes` MiB more than the file.
  public static func gzipBomb(mebibytes: Int = 64) -> Self {
    with { $0.gzipBombMiB = mebibytes }
  }
  /// Bodies sent `bytes` at a time.
  public static func drip(bytes: Int) -> Self { with { $0.dripBytes = bytes } }

  private static func with(_ change: (inout Self) -> Void) -> Self {
    var faults = Self()
    change(&faults)
    return faults
  }
}
