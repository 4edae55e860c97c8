import SystemCalls
import SystemPackage

/// How the extension's context reaches the system: one frame out, the system's answer back.
/// Between processes it is a pair of pipes (``DescriptorTransport``); the simulated system's
/// in-process requests carry the same bytes in memory, so both paths share every frame.
public protocol ChannelTransport: AnyObject {
  /// Sends one frame as the wire carries it (its header, then its payload) and waits for the
  /// answer; nil when the system is gone or sent none (it ended the request).
  func exchange(header: [UInt8], payload: [UInt8]) -> ChannelAck?
}

/// The wire between the extension and the system: frames written to one descriptor, acks read
/// from another (``ChannelLayout/frameDescriptor`` and ``ChannelLayout/ackDescriptor``).
public final class DescriptorTransport: ChannelTransport {
  private let output: FileDescriptor
  private let input: FileDescriptor

  /// A transport writing frames to `output` and reading answers from `input`.
  public init(output: Int32, input: Int32) {
    self.output = FileDescriptor(rawValue: output)
    self.input = FileDescriptor(rawValue: input)
  }

  public func exchange(header: [UInt8], payload: [UInt8]) -> ChannelAck? {
    guard
      DescriptorIO.writeAll(output, header) && DescriptorIO.writeAll(output, payload)
    else { return nil }
    var answer = [UInt8](repeating: 0, count: ChannelLayout.ackByteCount)
    let received = DescriptorIO.readExactly(input, into: &answer)
    guard received == ChannelLayout.ackByteCount else { return nil }
    return try? ChannelAck(decoding: answer)
  }
}
