/// A context that enforces the system's contract exactly as Apple's CallKit documentation and iOS 26.1's loader state it, and counts what
/// it accepted.
///
/// Rules, each with iOS's error code:
/// - identification and blocking are two separate sequences; within each, a number lower than the
///   previous fails with 3 (``CallDirectoryError/entriesOutOfOrder(previous:number:)``) and one
///   equal to the previous with 4 (``CallDirectoryError/duplicateEntries(number:)``). The previous
///   starts at 0, so an entry 0 is a duplicate and a negative one is out of order;
/// - the cap: an add fails with 5 when `count + 1 >= maximumAllowedEntries`, so with the system's
///   2,000,000 the 1,999,999th entry is the last accepted. Whether both lists share the count is
///   shared by default, as iOS 26.1's loader counts them (iOS 26.1's CDXLoadExtensionDataOperation, in EthanArbuckle/iPhone18-3_26.1_23B85_Restore: one count per load operation,
///   blocking and identification together); ``Configuration/sharesCountAcrossLists`` can split
///   them. The count is this request's additions, as iOS's loader makes each load operation
///   with `maximumAllowedEntries: 2000000` (``Configuration/capScope``, per request by
///   default); the per-extension reading stays as an option;
/// - a removal on a request whose `isIncremental` is false fails with 8.
///
/// As on iOS the calls do not throw: the first violation is kept in ``failure``, later entries are
/// ignored, and ``completeRequest(completionHandler:)`` reports the request as failed.
@usableFromInline package final class CheckingContext: CallDirectoryExtensionContext {
  /// Settings of the simulated system.
  package struct Configuration: Sendable, Equatable {
    /// The loader's `maximumAllowedEntries`; at most one less than this is accepted.
    package var maximumAllowedEntries: Int
    /// Whether identification and blocking entries count against one shared cap.
    package var sharesCountAcrossLists: Bool
    /// What the cap counts.
    package var capScope: CapScope

    /// Creates a configuration; the defaults are iOS 26.1's loader's: a cap per request, shared
    /// by both lists.
    package init(
      maximumAllowedEntries: Int = SystemLimits.maximumAllowedEntries,
      sharesCountAcrossLists: Bool = true, capScope: CapScope = .perRequest
    ) {
      self.maximumAllowedEntries = maximumAllowedEntries
      self.sharesCountAcrossLists = sharesCountAcrossLists
      self.capScope = capScope
    }
  }

  /// What the system's cap counts. iOS 26.1's own loader (in the OS image's CallKit service)
  /// counts each load operation's additions, both lists together, and fails with 5 at
  /// `added + batch >= 2,000,000` (iOS 26.1's CDXLoadExtensionDataOperation, in EthanArbuckle/iPhone18-3_26.1_23B85_Restore): a cap per request, which apps installing 11 M
  /// numbers in 1 M incremental requests rely on. The per-extension reading, which an older
  /// team's note gave, stays as an option. Whether a failed complete load keeps the old entries
  /// is not in the decompiled text: the simulated system keeps a failed request atomic.
  package enum CapScope: String, Sendable, CaseIterable {
    /// This request's additions.
    case perRequest = "per-request"
    /// What the extension holds once the request is applied (held entries, less removals, plus
    /// additions).
    case perExtension = "per-extension"
  }

  @usableFromInline package let isIncremental: Bool
  /// The settings this context enforces.
  package let configuration: Configuration

  // A context serves one request on one thread (as CallKit's does); dynamic exclusivity checks
  // on these per-entry fields cost a fifth of a load's time, so they are off.

  // Safe: a request's context is used by the one thread that serves the request.
  /// Identification entries accepted so far.
  @exclusivity(unchecked) package private(set) var identificationCount = 0
  /// Blocking entries accepted so far.
  @exclusivity(unchecked) package private(set) var blockingCount = 0
  /// Removal calls accepted so far (incremental requests only).
  @exclusivity(unchecked) package private(set) var removalCount = 0
  /// UTF-8 bytes of the labels accepted so far.
  @exclusivity(unchecked) package private(set) var labelByteCount = 0
  /// The first contract violation, if any.
  @exclusivity(unchecked) package private(set) var failure: CallDirectoryError?
  /// How the request ended.
  @exclusivity(unchecked) package private(set) var outcome: RequestOutcome = .pending

  // Safe: a request's context is used by the one thread that serves the request.
  /// False once the request failed, completed or was cancelled: one flag for the per-entry
  /// check instead of comparing ``outcome`` and ``failure``, which are enums with payloads.
  @exclusivity(unchecked) private var acceptsEntries = true
  @exclusivity(unchecked) private var previousIdentification: PhoneNumber = 0
  @exclusivity(unchecked) private var previousBlocking: PhoneNumber = 0
  /// Identification and blocking entries the extension already holds that count against a cap
  /// per extension (an incremental request's starting point; removals lower them).
  @exclusivity(unchecked) private var heldIdentification = 0
  @exclusivity(unchecked) private var heldBlocking = 0

  /// Creates a context for one request.
  /// - Parameters:
  ///   - isIncremental: whether the request asks only for changes.
  ///   - configuration: the system's settings.
  ///   - held: the entries the extension holds before the request, per list; they count only
  ///     with a cap per extension, and only for an incremental request (a complete one replaces
  ///     them).
  package init(
    isIncremental: Bool = false, configuration: Configuration = Configuration(),
    held: (identification: Int, blocking: Int) = (0, 0)
  ) {
    // Safe: the unchecked fields are this request's thread's alone (see them above).
    self.isIncremental = isIncremental
    self.configuration = configuration
    if isIncremental && configuration.capScope == .perExtension {
      unsafe (heldIdentification, heldBlocking) = (
        max(0, held.identification), max(0, held.blocking)
      )
    }
  }

  /// Entries accepted in both lists.
  package var entryCount: Int {
    // Safe: the unchecked fields are this request's thread's alone (see them above).
    unsafe identificationCount + blockingCount
  }

  @inline(__always)
  private func admits(
    _ number: PhoneNumber, after previous: PhoneNumber, listCount: Int, listHeld: Int
  ) -> Bool {
    // Safe: the unchecked fields are this request's thread's alone (see them above).
    guard unsafe _fastPath(acceptsEntries) else { return false }
    if _slowPath(number <= previous) {
      fail(
        number < previous
          ? .entriesOutOfOrder(previous: previous, number: number)
          : .duplicateEntries(number: number))
      return false
    }
    let counted =
      unsafe configuration.sharesCountAcrossLists
      ? entryCount + heldIdentification + heldBlocking
      : listCount + listHeld
    if _slowPath(counted + 1 >= configuration.maximumAllowedEntries) {
      fail(.maximumEntriesExceeded(limit: configuration.maximumAllowedEntries))
      return false
    }
    return true
  }

  private func fail(_ error: CallDirectoryError) {
    // Safe: the unchecked fields are this request's thread's alone (see them above).
    unsafe failure = error
    unsafe acceptsEntries = false
  }

  @inlinable package func addIdentificationEntry(
    withNextSequentialPhoneNumber phoneNumber: PhoneNumber, label: String
  ) {
    admitIdentificationEntry(phoneNumber, labelByteCount: label.utf8.count)
  }

  /// The system's side of ``addIdentificationEntry(withNextSequentialPhoneNumber:label:)``: the
  /// same checks for an entry whose label arrived as bytes and was never made a `String`.
  /// - Returns: whether the entry was accepted.
  @discardableResult
  @usableFromInline package func admitIdentificationEntry(
    _ phoneNumber: PhoneNumber, labelByteCount: Int
  ) -> Bool {
    // Safe: the unchecked fields are this request's thread's alone (see them above).
    guard
      unsafe admits(
        phoneNumber, after: previousIdentification, listCount: identificationCount,
        listHeld: heldIdentification)
    else {
      return false
    }
    unsafe previousIdentification = phoneNumber
    unsafe identificationCount += 1
    unsafe self.labelByteCount += labelByteCount
    return true
  }

  @usableFromInline package func addBlockingEntry(
    withNextSequentialPhoneNumber phoneNumber: PhoneNumber
  ) {
    // Safe: the unchecked fields are this request's thread's alone (see them above).
    guard
      unsafe admits(
        phoneNumber, after: previousBlocking, listCount: blockingCount, listHeld: heldBlocking)
    else { return }
    unsafe previousBlocking = phoneNumber
    unsafe blockingCount += 1
  }

  private func recordRemoval() {
    // Safe: the unchecked fields are this request's thread's alone (see them above).
    guard unsafe acceptsEntries else { return }
    guard isIncremental else {
      fail(.unexpectedIncrementalRemoval)
      return
    }
    unsafe removalCount += 1
  }

  // A removal frees a place under a cap per extension (the loader removes only what is held).
  @usableFromInline package func removeIdentificationEntry(withPhoneNumber phoneNumber: PhoneNumber)
  {
    // Safe: the unchecked fields are this request's thread's alone (see them above).
    recordRemoval()
    if unsafe acceptsEntries { unsafe heldIdentification = unsafe max(0, heldIdentification - 1) }
  }

  @usableFromInline package func removeAllIdentificationEntries() {
    // Safe: the unchecked fields are this request's thread's alone (see them above).
    recordRemoval()
    if unsafe acceptsEntries { unsafe heldIdentification = 0 }
  }

  @usableFromInline package func removeBlockingEntry(withPhoneNumber phoneNumber: PhoneNumber) {
    // Safe: the unchecked fields are this request's thread's alone (see them above).
    recordRemoval()
    if unsafe acceptsEntries { unsafe heldBlocking = unsafe max(0, heldBlocking - 1) }
  }

  @usableFromInline package func removeAllBlockingEntries() {
    // Safe: the unchecked fields are this request's thread's alone (see them above).
    recordRemoval()
    if unsafe acceptsEntries { unsafe heldBlocking = 0 }
  }

  @usableFromInline package func completeRequest(completionHandler: ((_ expired: Bool) -> Void)?) {
    // Safe: the unchecked fields are this request's thread's alone (see them above).
    guard unsafe outcome == .pending else { return }
    unsafe acceptsEntries = false
    if let failure = unsafe failure {
      unsafe outcome = .failed(failure)
      completionHandler?(true)
    } else {
      unsafe outcome = .completed
      completionHandler?(false)
    }
  }

  @usableFromInline package func cancelRequest(withError error: any Error) {
    // Safe: the unchecked fields are this request's thread's alone (see them above).
    guard unsafe outcome == .pending else { return }
    unsafe acceptsEntries = false
    unsafe outcome = .cancelled(reason: "\(error)")
  }
}
