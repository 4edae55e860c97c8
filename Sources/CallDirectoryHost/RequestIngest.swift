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
  /// Entries removed one by one from the transaction (incremental requests).
  private(set) var removalCount = 0

  init(
    transaction: StoreTransaction, configuration: CheckingContext.Configuration,
    held: (identification: Int, blocking: Int) = (0, 0)
  ) {
    self.transaction = transaction
    self.checker = CheckingContext(
      isIncremental: transaction.incremental, configuration: configuration, held: held)
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
    removalCount += 1
  }

  func removeBlocking(_ number: Int64) throws {
    checker.removeBlockingEntry(withPhoneNumber: number)
    guard checker.failure == nil else { return }
    try transaction.removeBlocking(number)
    removalCount += 1
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

  /// Applies one batch or remove-all frame (not complete or cancel). Labels go to the store as
  /// the bytes that came: valid UTF-8 as it is; anything else repaired as a `String` would repair
  /// it (U+FFFD for each bad sequence), so the store never holds invalid text.
  /// - Throws: ``HostError`` for a malformed frame or a store failure.
  func apply(_ frame: ChannelFrame) throws {
    do {
      try frame.forEachEntry { entry in
        switch frame.kind {
        case .addIdentification:
          if (try? UTF8Span(validating: entry.label.bindMemory(to: UInt8.self).span)) != nil {
            try addIdentification(entry.number, labelUTF8: entry.label)
          } else {
            try addIdentification(
              entry.number, label: String(decoding: entry.label, as: UTF8.self))
          }
        case .addBlocking: try addBlocking(entry.number)
        case .removeIdentification: try removeIdentification(entry.number)
        case .removeBlocking: try removeBlocking(entry.number)
        case .removeAllIdentification, .removeAllBlocking, .complete, .cancel: break
        }
        return failure == nil
      }
    } catch let error as MalformedFrame {
      throw HostError.input(error.description)
    }
    switch frame.kind {
    case .removeAllIdentification: try removeAllIdentification()
    case .removeAllBlocking: try removeAllBlocking()
    default: break
    }
  }
}
