import CallDirectoryCore
import SystemChannel
import SystemPackage
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The frame decoder fed every split of its input through a real socket pair, as swift-nio's
/// `ByteToMessageDecoderVerifier` feeds a decoder: however the kernel cuts the bytes, the same
/// frames come out.
@Suite("Channel frames, both directions")
struct FrameDecoderTests {
  /// A request's worth of frames: labels with multi-byte characters and an empty one, blocking
  /// additions, a removal, remove-all, complete.
  static let frames: [ChannelFrame] = {
    var identification: [UInt8] = []
    for (number, label) in [
      (Int64(74_951_234_567), "Такси"), (74_951_234_568, ""), (861_012_345, "快递"),
    ] {
      identification.appendLittleEndian(number)
      identification.appendLittleEndian(UInt16(label.utf8.count))
      identification.append(contentsOf: label.utf8)
    }
    var blocking: [UInt8] = []
    for number in [Int64(10), 11, 12] { blocking.appendLittleEndian(number) }
    var removal: [UInt8] = []
    removal.appendLittleEndian(Int64(99))
    return [
      ChannelFrame(kind: .addIdentification, count: 3, payload: identification),
      ChannelFrame(kind: .addBlocking, count: 3, payload: blocking),
      ChannelFrame(kind: .removeBlocking, count: 1, payload: removal),
      ChannelFrame(kind: .removeAllIdentification, count: 0, payload: []),
      ChannelFrame(kind: .complete, count: 0, payload: []),
    ]
  }()

  /// A non-blocking socket pair: (read end, write end).
  func socketPair() throws -> (FileDescriptor, FileDescriptor) {
    var pair: [Int32] = [-1, -1]
    #if canImport(Glibc)
      let streamType = Int32(SOCK_STREAM.rawValue)
    #else
      let streamType = SOCK_STREAM
    #endif
    try #require(socketpair(AF_UNIX, streamType, 0, &pair) == 0)
    _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
    return (FileDescriptor(rawValue: pair[0]), FileDescriptor(rawValue: pair[1]))
  }

  /// Writes `pieces` one at a time, decoding after each, and returns every frame decoded.
  func decode(_ pieces: [ArraySlice<UInt8>]) throws -> (frames: [ChannelFrame], malformed: String?)
  {
    let (readEnd, writeEnd) = try socketPair()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    var decoder = ChannelFrameDecoder()
    var decoded: [ChannelFrame] = []
    for piece in pieces {
      _ = try writeEnd.writeAll(piece)
      decoder.readAvailable(from: readEnd)
      while let frame = decoder.nextFrame() { decoded.append(frame) }
    }
    return (decoded, decoder.malformed)
  }

  @Test func everySplitOfTheInputGivesTheSameFrames() throws {
    let bytes = Self.frames.flatMap(\.encoded)
    for split in 0...bytes.count {
      let result = try decode([bytes[..<split], bytes[split...]])
      #expect(result.frames == Self.frames, "split at \(split)")
      #expect(result.malformed == nil)
    }
    let byteByByte = try decode(bytes.indices.map { bytes[$0...$0] })
    #expect(byteByByte.frames == Self.frames)
  }

  @Test func entriesDecodeWithTheirLabelBytes() throws {
    var seen: [(Int64, String)] = []
    try Self.frames[0].forEachEntry { entry in
      seen.append((entry.number, String(decoding: entry.label, as: UTF8.self)))
      return true
    }
    #expect(seen.map(\.0) == [74_951_234_567, 74_951_234_568, 861_012_345])
    #expect(seen.map(\.1) == ["Такси", "", "快递"])
    var stopped = 0
    try Self.frames[1].forEachEntry { _ in
      stopped += 1
      return false
    }
    #expect(stopped == 1, "returning false stops the walk")
  }

  @Test func aFrameWhosePayloadDisagreesWithItsCountIsMalformed() {
    let identification = Self.frames[0]
    let truncated = ChannelFrame(
      kind: .addIdentification, count: 3, payload: Array(identification.payload.dropLast()))
    #expect(throws: MalformedFrame.self) { try truncated.forEachEntry { _ in true } }
    let trailing = ChannelFrame(
      kind: .addBlocking, count: 2, payload: Self.frames[1].payload)
    #expect(throws: MalformedFrame(description: "malformed frame: 8 bytes after 2 entries")) {
      try trailing.forEachEntry { _ in true }
    }
  }

  @Test func anImpossibleHeaderStopsTheDecoderForGood() throws {
    let unknownKind = try decode([[42, 0, 0, 0, 0, 0, 0, 0, 0]])
    #expect(unknownKind.malformed == "unknown kind 42")
    #expect(unknownKind.frames.isEmpty)
    let overBatch = ChannelFrame.encodedHeader(
      kind: .addBlocking, count: SystemLimits.entriesPerBatch + 1, payloadByteCount: 8)
    let result = try decode([overBatch[...], Self.frames[4].encoded[...]])
    #expect(result.malformed?.contains("over a batch") == true)
    #expect(result.frames.isEmpty, "nothing after a malformed header is trusted")
  }

  @Test func acksRoundTripAndAShortAckIsAnError() throws {
    for ack in [ChannelAck(failed: false, code: 0), ChannelAck(failed: true, code: 5)] {
      let decoded = try ChannelAck(decoding: ack.encoded)
      #expect(decoded == ack)
    }
    #expect(throws: (any Error).self) {
      try ChannelAck(decoding: [UInt8(1), 5])
    }
  }
}
