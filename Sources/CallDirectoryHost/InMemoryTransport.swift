import SystemChannel

/// The system's end of an in-process request, in memory: the frames an extension's
/// `SystemChannel.ChannelContext` sends are decoded by the decoder the spawned path reads its
/// pipe with and handed to the request's ``RequestSession``, whose acks are encoded and decoded
/// back. The in-process host is the spawned path without the process (swift-nio's
/// `EmbeddedChannel` is the model).
final class InMemoryTransport: ChannelTransport {
  private let session: RequestSession
  private var decoder = ChannelFrameDecoder()

  init(_ session: RequestSession) { self.session = session }

  func exchange(header: [UInt8], payload: [UInt8]) -> ChannelAck? {
    decoder.append(header[...])
    decoder.append(payload[...])
    // A malformed frame is a broken pipe to the extension: the system stops listening.
    guard let frame = decoder.nextFrame() else { return nil }
    var answer: [UInt8]?
    session.receive(frame) { answer = $0.encoded }
    return answer.flatMap { try? ChannelAck(decoding: $0) }
  }
}
