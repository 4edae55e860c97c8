import ByteCoding

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
    bytes.appendLittleEndian(code)
    return bytes
  }

  /// Decodes the five bytes on the wire.
  /// - Throws: `ByteCoding.ByteCodingError` when fewer arrived.
  package init(decoding bytes: [UInt8]) throws(ByteCodingError) {
    let decoded = bytes.withByteView { view in
      Result { () throws(ByteCodingError) in
        var reader = LittleEndianReader(view)
        return (try reader.read(UInt8.self) != 0, try reader.read(Int32.self))
      }
    }
    (failed, code) = try decoded.get()
  }
}

/// One frame as it crossed the channel.
public struct ChannelFrame: Equatable, Sendable {
  /// What the frame carries.
  public let kind: ChannelFrameKind
  /// Entries in the payload (0 for remove-all, complete and cancel).
  public let count: Int
  /// The payload's bytes.
  public let payload: [UInt8]

  /// A frame.
  public init(kind: ChannelFrameKind, count: Int, payload: [UInt8]) {
    self.kind = kind
    self.count = count
    self.payload = payload
  }

  /// `[UInt8 kind][UInt32 count][UInt32 payload bytes]`, the header written before a payload.
  public static func encodedHeader(kind: ChannelFrameKind, count: Int, payloadByteCount: Int)
    -> [UInt8]
  {
    var header: [UInt8] = [kind.rawValue]
    header.appendLittleEndian(UInt32(count))
    header.appendLittleEndian(UInt32(payloadByteCount))
    return header
  }

  /// The whole frame's bytes: header, then payload.
  public var encoded: [UInt8] {
    Self.encodedHeader(kind: kind, count: count, payloadByteCount: payload.count) + payload
  }
}
