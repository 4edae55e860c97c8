// CallKit itself, behind calldir's protocols, for a real app and extension. CallKit exists only on
// Apple's platforms: on Linux this module is empty, and it has never been compiled here (no
// Apple toolchain on the machine that wrote it). `.github/workflows/ios.yml` builds it for iOS on
// a macOS runner. Written against CallKit's API as Apple's CallKit documentation gives it; CI type-checks it under
// Swift 6 against a stand-in with CallKit's documented signatures
// (Scripts/typecheck-callkit-adapter.sh).
#if canImport(CallKit) && !os(macOS)  // macOS has CallKit, but not its call directory
  import CallDirectoryCore
  import CallKit

  /// `CXCallDirectoryExtensionContext` seen through `CallDirectoryCore.CallDirectoryExtensionContext`,
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
      guard let completionHandler else { return context.completeRequest(completionHandler: nil) }
      // CallKit's handler is `@Sendable` (its Swift 6 interface) and calldir's protocol, shared
      // with the simulated system, is not: the handler travels in a box CallKit calls once,
      // after the request has ended and the loader has returned.
      let handler = ExpiryHandler(completionHandler)
      context.completeRequest { expired in handler.body(expired) }
    }

    public func cancelRequest(withError error: any Error) {
      context.cancelRequest(withError: error)
    }
  }

  // Safe: `body` is immutable, set before CallKit gets the handler, and called once by it.
  /// A completion handler carried into CallKit's `@Sendable` one (see `completeRequest`).
  private final class ExpiryHandler: @unchecked Sendable {
    let body: (_ expired: Bool) -> Void
    init(_ body: @escaping (_ expired: Bool) -> Void) { self.body = body }
  }
#endif
