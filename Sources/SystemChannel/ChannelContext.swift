import ByteCoding
import CallDirectoryCore
import SystemPackage

/// The extension's side of the simulated system: a `CallDirectoryCore.CallDirectoryExtensionContext` that
/// collects entries in a batch of 10,000 (CallKit's buffer) and flushes it, as one frame, when it
/// fills, when the kind of change switches, and at completion. Each flush waits for the system's
/// answer, like CallKit's synchronous XPC call.
///
/// Entries are encoded straight into the frame's bytes: no string is kept. A batch also flushes
/// once its payload reaches ``flushPayloadByteCount``, so the buffer does not grow with label
/// length: 10,000 labels of 200 bytes would be a 2 MiB buffer (grown by doubling, with the old
/// copies still counted by the allocator), and passed the 5 MiB limit on their own.
public final class ChannelContext: CallDirectoryExtensionContext {
  public let isIncremental: Bool
  private let transport: any ChannelTransport
  private var payload: [UInt8] = []
  /// A batch flushes early when its payload reaches this many bytes: 128 KiB is about 3,500
  /// entries with 27-byte labels (the field's average), about three frames per CallKit batch of
  /// 10,000, and long labels never cost more than this. The buffer is the extension's largest
  /// allocation and all of it is touched, so it is footprint: 256 KiB put an incremental update
  /// over 108 regions at 2.1 MiB (jemalloc), 128 KiB takes 100-180 KiB off every request, and
  /// the extra round trips cost nothing measurable (bench two-phase, directory-4m).
  public static let flushPayloadByteCount = 128 * 1024
  private var pendingKind: ChannelFrameKind?
  private var pendingCount = 0
  /// The system's error, once it failed the request.
  public private(set) var failure: CallDirectoryError? {
    didSet { accepting = false }
  }
  /// Set when a write to the system failed (it went away).
  public private(set) var disconnected = false {
    didSet { accepting = false }
  }
  /// How the request ended.
  package private(set) var outcome: RequestOutcome = .pending {
    didSet { accepting = false }
  }
  /// Entries handed to this context.
  public private(set) var handedCount = 0

  /// A context writing frames to `output` and reading answers from `input` (the extension's
  /// descriptors by default).
  public convenience init(
    isIncremental: Bool, output: Int32 = ChannelLayout.frameDescriptor,
    input: Int32 = ChannelLayout.ackDescriptor
  ) {
    self.init(
      isIncremental: isIncremental, transport: DescriptorTransport(output: output, input: input))
  }

  /// A context sending its frames through `transport`.
  public init(isIncremental: Bool, transport: any ChannelTransport) {
    self.isIncremental = isIncremental
    self.transport = transport
    // Room for a full batch plus the longest label the wire carries: the buffer never grows.
    payload.reserveCapacity(Self.flushPayloadByteCount + 10 + Int(UInt16.max))
  }

  /// False once the system failed the request, went away, or the request ended: one flag for
  /// the per-entry check instead of comparing `outcome`, an enum with payloads, every time.
  private var accepting = true

  @inline(__always)
  private func begin(_ kind: ChannelFrameKind) {
    if pendingKind != kind || pendingCount == SystemLimits.entriesPerBatch
      || payload.count >= Self.flushPayloadByteCount
    {
      flush()
    }
    pendingKind = kind
    pendingCount += 1
    handedCount += 1
  }

  public func addIdentificationEntry(
    withNextSequentialPhoneNumber phoneNumber: PhoneNumber, label: String
  ) {
    guard accepting else { return }
    begin(.addIdentification)
    payload.appendLittleEndian(phoneNumber)
    // CallKit takes any label; the wire carries up to 64 KiB, longer ones are cut at a
    // character boundary.
    let bytes = label.utf8
    var count = min(bytes.count, Int(UInt16.max))
    while count < bytes.count && count > 0
      && (bytes[bytes.index(bytes.startIndex, offsetBy: count)] & 0xC0) == 0x80
    {
      count -= 1
    }
    payload.appendLittleEndian(UInt16(count))
    if count == bytes.count {
      // The whole label (every label in practice): one copy from the string's storage.
      payload.append(contentsOf: bytes)
    } else {
      payload.append(contentsOf: bytes.prefix(count))
    }
  }

  public func addBlockingEntry(withNextSequentialPhoneNumber phoneNumber: PhoneNumber) {
    guard accepting else { return }
    begin(.addBlocking)
    payload.appendLittleEndian(phoneNumber)
  }

  public func removeIdentificationEntry(withPhoneNumber phoneNumber: PhoneNumber) {
    guard accepting else { return }
    begin(.removeIdentification)
    payload.appendLittleEndian(phoneNumber)
  }

  public func removeBlockingEntry(withPhoneNumber phoneNumber: PhoneNumber) {
    guard accepting else { return }
    begin(.removeBlocking)
    payload.appendLittleEndian(phoneNumber)
  }

  public func removeAllIdentificationEntries() {
    guard accepting else { return }
    flush()
    send(.removeAllIdentification, count: 0)
  }

  public func removeAllBlockingEntries() {
    guard accepting else { return }
    flush()
    send(.removeAllBlocking, count: 0)
  }

  public func completeRequest(completionHandler: ((_ expired: Bool) -> Void)?) {
    guard outcome == .pending else { return }
    if accepting {
      flush()
      if accepting { send(.complete, count: 0) }
    }
    if let failure {
      outcome = .failed(failure)
    } else if disconnected {
      outcome = .failed(.loadingInterrupted)
    } else {
      outcome = .completed
    }
    completionHandler?(outcome != .completed)
  }

  public func cancelRequest(withError error: any Error) {
    guard outcome == .pending else { return }
    let reason = "\(error)"
    outcome = .cancelled(reason: reason)
    guard !disconnected else { return }
    payload.removeAll(keepingCapacity: true)
    pendingKind = nil
    pendingCount = 0
    payload.append(contentsOf: reason.utf8.prefix(4096))
    send(.cancel, count: 0)
  }

  /// Sends the pending batch, if any.
  private func flush() {
    guard let kind = pendingKind, pendingCount > 0 else { return }
    send(kind, count: pendingCount)
  }

  /// Writes one frame with the current payload and waits for the answer.
  private func send(_ kind: ChannelFrameKind, count: Int) {
    let header = ChannelFrame.encodedHeader(
      kind: kind, count: count, payloadByteCount: payload.count)
    let answer = transport.exchange(header: header, payload: payload)
    payload.removeAll(keepingCapacity: true)
    pendingKind = nil
    pendingCount = 0
    guard let ack = answer else {
      disconnected = true
      return
    }
    if ack.failed { failure = CallDirectoryError(code: Int(ack.code)) }
  }
}
