import ByteCoding
import CallDirectoryCore

/// One entry of a batch frame, its label borrowed from the frame's payload.
public struct ChannelEntry {
  /// The CallKit number.
  public let number: PhoneNumber
  /// The label's UTF-8 bytes, for identification additions; empty otherwise.
  package let label: ByteView
}

/// A batch frame whose payload does not hold the entries its header counts.
public struct MalformedFrame: Error, Equatable, CustomStringConvertible {
  /// What is wrong, with the byte offset in the payload.
  public let description: String

  /// An error with its message.
  public init(description: String) { self.description = description }
}

extension ChannelFrame {
  /// Whether the payload holds `count` entries (additions and removals).
  public var carriesEntries: Bool {
    switch kind {
    case .addIdentification, .addBlocking, .removeIdentification, .removeBlocking: true
    case .removeAllIdentification, .removeAllBlocking, .complete, .cancel: false
    }
  }

  /// Decodes the payload's entries in order and hands each to `body`; `body` returns false to
  /// stop early (the request failed). The payload must hold exactly `count` entries.
  /// - Throws: ``MalformedFrame`` naming the payload offset of a truncated record or of bytes
  ///   left after the last one; whatever `body` throws.
  public func forEachEntry(_ body: (ChannelEntry) throws -> Bool) throws {
    guard carriesEntries else { return }
    try payload.withByteView { view in
      var reader = LittleEndianReader(view)
      do {
        for _ in 0..<count {
          let number = try reader.read(Int64.self)
          var label = ByteView.empty
          if kind == .addIdentification {
            label = try reader.readView(Int(try reader.read(UInt16.self)))
          }
          guard try body(ChannelEntry(number: number, label: label)) else { return }
        }
      } catch let error as ByteCodingError {
        throw MalformedFrame(description: "malformed frame: \(error)")
      }
      guard reader.isAtEnd else {
        throw MalformedFrame(
          description: "malformed frame: \(reader.remainingCount) bytes after \(count) entries")
      }
    }
  }
}
