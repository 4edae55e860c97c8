import ByteCoding
import SystemChannel

/// Any bytes as the extension → system frame stream, appended in two pieces.
enum FrameProperty {
  static func check(_ input: [UInt8]) {
    var decoder = ChannelFrameDecoder()
    let split = input.isEmpty ? 0 : Int(input[0]) % (input.count + 1)
    decoder.append(input[..<split])
    decoder.append(input[split...])
    var payloadBytes = 0
    while let frame = decoder.nextFrame() {
      precondition(decoder.malformed == nil, "a frame after the stream was found malformed")
      payloadBytes += frame.payload.count
      precondition(payloadBytes <= input.count, "frames hold more bytes than came in")
      guard frame.carriesEntries else { continue }
      var entries = 0
      do {
        try frame.forEachEntry { entry in
          entries += 1
          precondition(entry.label.count <= ChannelLayout.maximumPayloadByteCount)
          return true
        }
        precondition(entries == frame.count, "a decoded frame's entries differ from its count")
      } catch {
        // A malformed payload: an error, as it must be.
      }
    }
  }
}
