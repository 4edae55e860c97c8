import ByteCoding
import CallDirectoryCore
import SystemCalls
import SystemPackage

/// The system's side of the channel: collects bytes as they arrive (from a non-blocking pipe, in
/// whatever pieces the kernel hands over) and cuts them into ``ChannelFrame``s. A frame whose
/// header is impossible (an unknown kind, more than a batch) stops the decoder for good: the
/// bytes after it cannot be trusted to start a frame.
public struct ChannelFrameDecoder {
  private var buffer: [UInt8] = []
  private var start = 0
  private var chunk = [UInt8](repeating: 0, count: Self.readChunkByteCount)
  /// Why decoding stopped, once a frame was malformed.
  public private(set) var malformed: String?

  /// Bytes asked of the pipe per read: a full batch of typical entries in one or two reads.
  static let readChunkByteCount = 256 * 1024
  /// Consumed bytes are dropped from the front of the buffer once they pass this many, so the
  /// buffer holds about one batch however long the request runs.
  static let compactionThreshold = 1 << 20

  /// A decoder with nothing buffered.
  public init() {}

  /// Reads everything `descriptor` has now (it must be non-blocking), retrying interrupted reads;
  /// returns at EAGAIN or end of file.
  public mutating func readAvailable(from descriptor: FileDescriptor) {
    while malformed == nil {
      let count: Int
      do {
        count = try DescriptorIO.readSome(descriptor, into: &chunk)
      } catch {
        return  // EAGAIN (nothing more now) or the pipe is gone
      }
      guard count > 0 else { return }  // end of file
      buffer.append(contentsOf: chunk[..<count])
    }
  }

  /// Adds bytes that arrived some other way (an in-memory transport, a fuzzer's input).
  public mutating func append(_ bytes: ArraySlice<UInt8>) {
    buffer.append(contentsOf: bytes)
  }

  /// The next whole frame, or nil until more bytes arrive (or after a malformed one).
  public mutating func nextFrame() -> ChannelFrame? {
    guard malformed == nil else { return nil }
    let header: (kind: UInt8, count: Int, length: Int)? = buffer.withByteView { view in
      var reader = LittleEndianReader(view, offset: start)
      guard let kind = try? reader.read(UInt8.self), let count = try? reader.read(UInt32.self),
        let length = try? reader.read(UInt32.self)
      else { return nil }
      return (kind, Int(count), Int(length))
    }
    guard let header else { return nil }
    guard let kind = ChannelFrameKind(rawValue: header.kind) else {
      malformed = "unknown kind \(header.kind)"
      return nil
    }
    guard header.length <= ChannelLayout.maximumPayloadByteCount,
      header.count <= SystemLimits.entriesPerBatch
    else {
      malformed = "\(header.count) entries in \(header.length) bytes is over a batch"
      return nil
    }
    let payloadStart = start + ChannelLayout.frameHeaderByteCount
    guard buffer.count - payloadStart >= header.length else { return nil }
    let payload = Array(buffer[payloadStart..<(payloadStart + header.length)])
    start = payloadStart + header.length
    if start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    } else if start > Self.compactionThreshold {
      buffer.removeFirst(start)
      start = 0
    }
    return ChannelFrame(kind: kind, count: header.count, payload: payload)
  }
}
