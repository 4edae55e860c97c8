/// The frames an extension sends the simulated system over a pipe, standing in for CallKit's
/// XPC calls. Little-endian: `[UInt8 kind][UInt32 count][UInt32 payload bytes][payload]`.
///
/// Payloads: identification additions `count × [Int64][UInt16 label bytes][label]`; blocking
/// additions and both removals `count × [Int64]`; remove-all, complete: empty; cancel: the UTF-8
/// reason. The system answers every frame with an ``ChannelAck``.
public enum ChannelFrameKind: UInt8, Sendable {
  case addIdentification = 1
  case addBlocking = 2
  case removeIdentification = 3
  case removeBlocking = 4
  case removeAllIdentification = 5
  case removeAllBlocking = 6
  case complete = 7
  case cancel = 8
}

/// Sizes of the channel's fixed parts.
public enum ChannelLayout {
  /// `[UInt8 kind][UInt32 count][UInt32 payload bytes]`.
  public static let frameHeaderByteCount = 9
  /// `[UInt8 status][Int32 code]`.
  public static let ackByteCount = 5
  /// The descriptor the extension writes frames to.
  public static let frameDescriptor: Int32 = 3
  /// The descriptor the extension reads acks from.
  public static let ackDescriptor: Int32 = 4
  /// The largest payload a frame may carry: a full batch of the longest records, with room.
  public static let maximumPayloadByteCount = 10_000 * (10 + 1024) + 4096
}

/// The system's answer to a frame.
public struct ChannelAck: Equatable, Sendable {
  /// 0: accepted so far; 1: the request failed with `code`.
  public var failed: Bool
  /// iOS's error code when failed.
  public var code: Int32

  public init(failed: Bool, code: Int32) {
    self.failed = failed
    self.code = code
  }

  /// The five bytes on the wire.
  public var encoded: [UInt8] {
    var bytes: [UInt8] = [failed ? 1 : 0]
    withUnsafeBytes(of: code.littleEndian) { bytes.append(contentsOf: $0) }
    return bytes
  }

  /// Decodes five bytes.
  public init(decoding bytes: UnsafeRawBufferPointer) {
    failed = bytes[0] != 0
    code = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 1, as: Int32.self))
  }
}
