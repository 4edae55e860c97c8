import CallDirectoryCore
import SystemChannel

/// Applies what an extension sends to one request's store transaction, checking the contract as
/// entries arrive with the same ``CallDirectoryCore/CheckingContext`` the harness uses, so a
/// violation gets iOS's code and nothing of the request is kept.
final class RequestIngest {
  let checker: CheckingContext
  let transaction: StoreTransaction
  /// Entries written to the transaction.
  private(set) var entryCount = 0

  init(transaction: StoreTransaction, configuration: CheckingContext.Configuration) {
    self.transaction = transaction
    self.checker = CheckingContext(
      isIncremental: transaction.incremental, configuration: configuration)
  }

  var failure: CallDirectoryError? { checker.failure }

  func addIdentification(_ number: Int64, label: String) throws {
    var copy = label
    try copy.withUTF8 { try addIdentification(number, labelUTF8: UnsafeRawBufferPointer($0)) }
  }

  /// An identification entry whose label is valid UTF-8 bytes (checked by the caller).
  func addIdentification(_ number: Int64, labelUTF8: UnsafeRawBufferPointer) throws {
    guard checker.admitIdentificationEntry(number, labelByteCount: labelUTF8.count) else { return }
    try transaction.addIdentification(number, labelUTF8: labelUTF8)
    entryCount += 1
  }

  func addBlocking(_ number: Int64) throws {
    checker.addBlockingEntry(withNextSequentialPhoneNumber: number)
    guard checker.failure == nil else { return }
    try transaction.addBlocking(number)
    entryCount += 1
  }

  func removeIdentification(_ number: Int64) throws {
    checker.removeIdentificationEntry(withPhoneNumber: number)
    guard checker.failure == nil else { return }
    try transaction.removeIdentification(number)
  }

  func removeBlocking(_ number: Int64) throws {
    checker.removeBlockingEntry(withPhoneNumber: number)
    guard checker.failure == nil else { return }
    try transaction.removeBlocking(number)
  }

  func removeAllIdentification() throws {
    checker.removeAllIdentificationEntries()
    guard checker.failure == nil else { return }
    try transaction.removeAllIdentificationEntries()
  }

  func removeAllBlocking() throws {
    checker.removeAllBlockingEntries()
    guard checker.failure == nil else { return }
    try transaction.removeAllBlockingEntries()
  }

  /// Applies one batch frame (not complete or cancel).
  /// - Throws: ``HostError`` for a malformed frame or a store failure.
  func apply(_ kind: ChannelFrameKind, count: Int, payload: UnsafeRawBufferPointer) throws {
    var offset = 0
    func number() throws -> Int64 {
      guard offset + 8 <= payload.count else {
        throw HostError.input("malformed frame: truncated number")
      }
      defer { offset += 8 }
      return Int64(littleEndian: payload.loadUnaligned(fromByteOffset: offset, as: Int64.self))
    }
    for _ in 0..<count {
      if failure != nil { return }
      switch kind {
      case .addIdentification:
        let value = try number()
        guard offset + 2 <= payload.count else {
          throw HostError.input("malformed frame: truncated label")
        }
        let length = Int(
          UInt16(littleEndian: payload.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        offset += 2
        guard offset + length <= payload.count else {
          throw HostError.input("malformed frame: truncated label")
        }
        let label = String(
          decoding: UnsafeRawBufferPointer(rebasing: payload[offset..<(offset + length)]),
          as: UTF8.self)
        offset += length
        try addIdentification(value, label: label)
      case .addBlocking: try addBlocking(try number())
      case .removeIdentification: try removeIdentification(try number())
      case .removeBlocking: try removeBlocking(try number())
      case .removeAllIdentification, .removeAllBlocking, .complete, .cancel: break
      }
    }
    switch kind {
    case .removeAllIdentification: try removeAllIdentification()
    case .removeAllBlocking: try removeAllBlocking()
    default: break
    }
    guard offset == payload.count || kind == .cancel || failure != nil else {
      throw HostError.input(
        "malformed frame: \(payload.count - offset) bytes after \(count) entries")
    }
  }
}
