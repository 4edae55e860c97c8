// CallKit itself, behind calldir's protocols, for a real app and extension. CallKit exists only on
// Apple's platforms: on Linux this module is empty, and it has never been compiled here (no
// Apple toolchain on the machine that wrote it). `.github/workflows/ios.yml` builds it for iOS on
// a macOS runner. Written against CallKit's API as BRIEF.md §1 gives it.
#if canImport(CallKit)
  import CallDirectoryCore
  import CallKit

  /// `CXCallDirectoryExtensionContext` seen through ``CallDirectoryCore/CallDirectoryExtensionContext``,
  /// so calldir's loader (`DirectoryLoader.load(into:)`) hands CallKit its entries directly.
  ///
  /// Every call forwards as it is: CallKit checks the order, the duplicates and the cap itself,
  /// and reports a violation when the request completes, as the simulated system does.
  public final class CallKitExtensionContext: CallDirectoryExtensionContext {
    /// The context iOS passed to `beginRequest(with:)`.
    public let context: CXCallDirectoryExtensionContext

    /// Wraps the context of one request.
    public init(_ context: CXCallDirectoryExtensionContext) { self.context = context }

    public var isIncremental: Bool { context.isIncremental }

    public func addIdentificationEntry(
      withNextSequentialPhoneNumber phoneNumber: PhoneNumber, label: String
    ) {
      context.addIdentificationEntry(withNextSequentialPhoneNumber: phoneNumber, label: label)
    }

    public func addBlockingEntry(withNextSequentialPhoneNumber phoneNumber: PhoneNumber) {
      context.addBlockingEntry(withNextSequentialPhoneNumber: phoneNumber)
    }

    public func removeIdentificationEntry(withPhoneNumber phoneNumber: PhoneNumber) {
      context.removeIdentificationEntry(withPhoneNumber: phoneNumber)
    }

    public func removeAllIdentificationEntries() { context.removeAllIdentificationEntries() }

    public func removeBlockingEntry(withPhoneNumber phoneNumber: PhoneNumber) {
      context.removeBlockingEntry(withPhoneNumber: phoneNumber)
    }

    public func removeAllBlockingEntries() { context.removeAllBlockingEntries() }

    public func completeRequest(completionHandler: ((_ expired: Bool) -> Void)?) {
      context.completeRequest(completionHandler: completionHandler)
    }

    public func cancelRequest(withError error: any Error) {
      context.cancelRequest(withError: error)
    }
  }
#endif
