// A stand-in for CallKit, for type-checking only (Scripts/typecheck-callkit-adapter.sh): the
// declarations calldir's adapter and the README's extension example use, with the Swift
// signatures Apple's documentation gives for the iOS 18 SDK (its Swift 6 interface: completion
// handlers are `@Sendable`). No behaviour; never linked. CallKit exists only on Apple's
// platforms, and this machine has none.
import Foundation

/// The domain of the call directory manager's errors (CallKit's CXError.h declares it an
/// NSErrorDomain constant; its value is CallKit's, not the stand-in's concern).
public let CXErrorDomainCallDirectoryManager: String = "com.apple.CallKit.error.calldirectorymanager"

open class CXCallDirectoryManager: NSObject, @unchecked Sendable {
  public enum EnabledStatus: Int, Sendable {
    case unknown = 0
    case disabled = 1
    case enabled = 2
  }

  public static let sharedInstance = CXCallDirectoryManager()

  open func reloadExtension(
    withIdentifier identifier: String,
    completionHandler completion: (@Sendable ((any Error)?) -> Void)? = nil
  ) {}

  open func getEnabledStatusForExtension(
    withIdentifier identifier: String,
    completionHandler completion:
      @escaping @Sendable (CXCallDirectoryManager.EnabledStatus, (any Error)?) -> Void
  ) {}
}

open class CXCallDirectoryExtensionContext: NSObject {
  open var isIncremental: Bool { false }
  open func addIdentificationEntry(
    withNextSequentialPhoneNumber phoneNumber: Int64, label: String
  ) {}
  open func addBlockingEntry(withNextSequentialPhoneNumber phoneNumber: Int64) {}
  open func removeIdentificationEntry(withPhoneNumber phoneNumber: Int64) {}
  open func removeAllIdentificationEntries() {}
  open func removeBlockingEntry(withPhoneNumber phoneNumber: Int64) {}
  open func removeAllBlockingEntries() {}
  open func completeRequest(completionHandler completion: (@Sendable (Bool) -> Void)? = nil) {}
  open func cancelRequest(withError error: any Error) {}
}

open class CXCallDirectoryProvider: NSObject {
  open func beginRequest(with context: CXCallDirectoryExtensionContext) {}
}

extension FileManager {
  /// Darwin's App Group container lookup, which Linux's Foundation lacks.
  public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
    nil
  }
}
