import ByteCoding
import CallDirectoryCore
import SystemChannel

/// Applies what an extension sends to one request's store transaction, checking the contract as
/// entries arrive with the same `CallDirectoryCore.CheckingContext` the harness uses, so a
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

  /// Checks one batch or remove-all frame against the contract, in order, and writes nothing.
  /// The system answers a batch once it is checked and writes it while the extension gathers the
  /// next, so the extension's reading and the store's writing overlap on two cores instead of
  /// taking turns (the answer's contract code is the same either way; a store failure fails the
  /// next answer or the completion, and the request keeps nothing).
  /// - Returns: how many of the frame's changes were admitted (a remove-all counts as one): all
  ///   of them unless the contract failed on one, which fails the request.
  /// - Throws: ``HostError`` for a malformed frame.
  func check(_ frame: ChannelFrame) throws -> Int {
    var admitted = 0
    try forEachEntry(of: frame) { entry in
      switch frame.kind {
      case .addIdentification:
        // iOS takes a label as a string: bytes that are not UTF-8 cannot reach its store, so the
        // simulated system refuses the request rather than store a repaired (U+FFFD) label.
        guard UTF8Validation.isValid(entry.label) else {
          throw HostError.input(
            "the label of \(entry.number) is not UTF-8: the system takes labels as strings")
        }
        guard checker.admitIdentificationEntry(entry.number, labelByteCount: entry.label.count)
        else {
          return false
        }
      case .addBlocking: checker.addBlockingEntry(withNextSequentialPhoneNumber: entry.number)
      case .removeIdentification: checker.removeIdentificationEntry(withPhoneNumber: entry.number)
      case .removeBlocking: checker.removeBlockingEntry(withPhoneNumber: entry.number)
      case .removeAllIdentification, .removeAllBlocking, .complete, .cancel: break
      }
      guard failure == nil else { return false }
      admitted += 1
      return true
    }
    switch frame.kind {
    case .removeAllIdentification: checker.removeAllIdentificationEntries()
    case .removeAllBlocking: checker.removeAllBlockingEntries()
    default: return admitted
    }
    return failure == nil ? 1 : 0
  }

  /// Writes the first `admitted` changes of a frame that ``check(_:)`` admitted (labels checked
  /// as UTF-8 there, so the store never holds invalid text).
  /// - Throws: ``HostError`` for a malformed frame or a store failure.
  func write(_ frame: ChannelFrame, admitted: Int) throws {
    var remaining = admitted
    try forEachEntry(of: frame) { entry in
      guard remaining > 0 else { return false }
      remaining -= 1
      switch frame.kind {
      case .addIdentification:
        try transaction.addIdentification(entry.number, labelUTF8: entry.label)
        entryCount += 1
      case .addBlocking:
        try transaction.addBlocking(entry.number)
        entryCount += 1
      case .removeIdentification:
        try transaction.removeIdentification(entry.number)
        removalCount += 1
      case .removeBlocking:
        try transaction.removeBlocking(entry.number)
        removalCount += 1
      case .removeAllIdentification, .removeAllBlocking, .complete, .cancel: break
      }
      return true
    }
    guard admitted > 0 else { return }
    switch frame.kind {
    case .removeAllIdentification: try transaction.removeAllIdentificationEntries()
    case .removeAllBlocking: try transaction.removeAllBlockingEntries()
    default: break
    }
  }

  private func forEachEntry(
    of frame: ChannelFrame, _ body: (ChannelEntry) throws -> Bool
  ) throws {
    do {
      try frame.forEachEntry(body)
    } catch let error as MalformedFrame {
      throw HostError.input(error.description)
    }
  }
}
