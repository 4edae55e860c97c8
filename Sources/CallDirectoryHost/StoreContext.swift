import CallDirectoryCore

/// The in-process stand-in for the system's side: a ``CallDirectoryExtensionContext`` that checks
/// and stores entries directly, with the same checks and the same store as a spawned request, so
/// tests can drive a request step by step without a child process.
public final class StoreContext: CallDirectoryExtensionContext {
  let ingest: RequestIngest
  /// The first store error, if any (the request then fails).
  public private(set) var storeError: Error?
  /// How the request ended.
  public private(set) var outcome: RequestOutcome = .pending

  init(ingest: RequestIngest) { self.ingest = ingest }

  public var isIncremental: Bool { ingest.transaction.incremental }

  private func attempt(_ body: () throws -> Void) {
    guard outcome == .pending, storeError == nil else { return }
    do { try body() } catch { storeError = error }
  }

  public func addIdentificationEntry(
    withNextSequentialPhoneNumber phoneNumber: PhoneNumber, label: String
  ) { attempt { try ingest.addIdentification(phoneNumber, label: label) } }

  public func addBlockingEntry(withNextSequentialPhoneNumber phoneNumber: PhoneNumber) {
    attempt { try ingest.addBlocking(phoneNumber) }
  }

  public func removeIdentificationEntry(withPhoneNumber phoneNumber: PhoneNumber) {
    attempt { try ingest.removeIdentification(phoneNumber) }
  }

  public func removeAllIdentificationEntries() { attempt { try ingest.removeAllIdentification() } }

  public func removeBlockingEntry(withPhoneNumber phoneNumber: PhoneNumber) {
    attempt { try ingest.removeBlocking(phoneNumber) }
  }

  public func removeAllBlockingEntries() { attempt { try ingest.removeAllBlocking() } }

  public func completeRequest(completionHandler: ((_ expired: Bool) -> Void)?) {
    guard outcome == .pending else { return }
    if let failure = ingest.failure {
      ingest.transaction.rollback()
      outcome = .failed(failure)
    } else if storeError != nil {
      ingest.transaction.rollback()
      outcome = .failed(.unknown)
    } else {
      do {
        try ingest.transaction.commit()
        outcome = .completed
      } catch {
        storeError = error
        outcome = .failed(.unknown)
      }
    }
    completionHandler?(outcome != .completed)
  }

  public func cancelRequest(withError error: any Error) {
    guard outcome == .pending else { return }
    ingest.transaction.rollback()
    outcome = .cancelled(reason: "\(error)")
  }
}
