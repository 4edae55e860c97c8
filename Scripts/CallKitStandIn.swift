// A stand-in for CallKit, for type-checking only (Scripts/typecheck-callkit-adapter.sh): the
// declarations calldir's adapter and the README's extension example use, with the Swift
// signatures Apple's documentation gives for the iOS 18 SDK (its Swift 6 interface: completion
// handlers are `@Sendable`). No behaviour; never linked. CallKit exists only on Apple's
// platforms, and this machine has none.
import Foundation

/// The domain of the call directory manager's errors (CallKit's CXError.h declares it an
/// NSErrorDomain constant; its value is CallKit's, not the stand-in's concern).
public let CXErrorDomainCallDirectoryManager: String = "com.apple.CallKit.error.calldirectorymanager"

// Not Sendable: iOS's Objective-C header does not mark it so (iOS 16.4 SDK).
@available(macOS, unavailable)  // API_UNAVAILABLE(macos) in CallKit's headers
open class CXCallDirectoryManager: NSObject {
  public enum EnabledStatus: Int, Sendable {
    case unknown = 0
    case disabled = 1
    case enabled = 2
  }

  // An Objective-C class property: imported as a computed one.
  open class var sharedInstance: CXCallDirectoryManager { CXCallDirectoryManager() }

  open func reloadExtension(
    withIdentifier identifier: String,
    completionHandler completion: (@Sendable ((any Error)?) -> Void)? = nil
  ) {}

  open func getEnabledStatusForExtension(
    withIdentifier identifier: String,
    completionHandler completion:
      @escaping @Sendable (CXCallDirectoryManager.EnabledStatus, (any Error)?) -> Void
  ) {}

  @available(iOS 13.4, *)
  open func openSettings(completionHandler completion: (@Sendable ((any Error)?) -> Void)? = nil)
  {}

  // The async forms Swift imports for each completion handler above.
  open func reloadExtension(withIdentifier identifier: String) async throws {}
  open func enabledStatusForExtension(withIdentifier identifier: String) async throws
    -> CXCallDirectoryManager.EnabledStatus
  { .unknown }
  @available(iOS 13.4, *)
  open func openSettings() async throws {}
}

@available(macOS, unavailable)  // API_UNAVAILABLE(macos) in CallKit's headers
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

@available(macOS, unavailable)  // API_UNAVAILABLE(macos) in CallKit's headers
open class CXCallDirectoryProvider: NSObject {
  open func beginRequest(with context: CXCallDirectoryExtensionContext) {}
}

#if os(Linux)
extension FileManager {
  /// Darwin's App Group container lookup, which Linux's Foundation lacks.
  public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
    nil
  }
}#endif

