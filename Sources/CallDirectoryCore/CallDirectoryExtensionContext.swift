/// The surface of CallKit's `CXCallDirectoryExtensionContext`: what an extension's request handler
/// calls to hand the system its entries.
///
/// As on iOS, the add and remove calls do not throw: a violation of the contract is recorded and
/// surfaces when the request completes (see `CheckingContext` in the simulated host).
public protocol CallDirectoryExtensionContext: AnyObject {
  /// True when the system asks only for changes since the last successful load (iOS 11). When
  /// false, the extension must send its complete set, and removals are errors.
  var isIncremental: Bool { get }

  /// Adds an identification entry. Numbers must be strictly ascending within this list.
  func addIdentificationEntry(withNextSequentialPhoneNumber phoneNumber: PhoneNumber, label: String)

  /// Adds a blocking entry. Numbers must be strictly ascending within this list.
  func addBlockingEntry(withNextSequentialPhoneNumber phoneNumber: PhoneNumber)

  /// Removes one identification entry (incremental requests only).
  func removeIdentificationEntry(withPhoneNumber phoneNumber: PhoneNumber)

  /// Removes every identification entry of this extension (incremental requests only).
  func removeAllIdentificationEntries()

  /// Removes one blocking entry (incremental requests only).
  func removeBlockingEntry(withPhoneNumber phoneNumber: PhoneNumber)

  /// Removes every blocking entry of this extension (incremental requests only).
  func removeAllBlockingEntries()

  /// Ends the request. The handler receives `expired == true` when nothing from this request was
  /// kept by the system.
  func completeRequest(completionHandler: ((_ expired: Bool) -> Void)?)

  /// Abandons the request; the system keeps what it had before.
  func cancelRequest(withError error: any Error)
}
