// Never compiled here: see CallKitExtensionContext.swift.
#if canImport(CallKit)
  import CallDirectoryCore
  import CallKit
  import Foundation

  /// `CXCallDirectoryManager` through ``CallDirectoryCore/CallDirectoryManaging``, so the app's
  /// sync (`ContainerApp.sync(manager:bundleID:)`) drives the real system as it drives the
  /// simulated one.
  ///
  /// CallKit answers through completion handlers; this adapter waits for them, so call it from
  /// a background queue, never the main thread (as a sync after a download runs anyway).
  public struct CallKitDirectoryManager: CallDirectoryManaging {
    /// How a reload ended: CallKit's error as calldir's, with iOS's raw code, and the error's
    /// domain as it came (CallKit's, or another's: see ``CallDirectoryError/foreign(code:)``).
    public struct ReloadOutcome: CallDirectoryReloadOutcome {
      public var error: CallDirectoryError?
      /// The `NSError` domain of ``error``; nil when the reload succeeded.
      public var errorDomain: String?
    }

    /// The system's manager.
    public let manager: CXCallDirectoryManager

    public init(manager: CXCallDirectoryManager = .sharedInstance) { self.manager = manager }

    /// `getEnabledStatusForExtension(withIdentifier:)`, waited for.
    /// - Throws: the error CallKit returned.
    public func enabledStatus(ofExtension identifier: String) throws -> ExtensionEnabledStatus {
      let answer = AwaitedAnswer<(CXCallDirectoryManager.EnabledStatus, (any Error)?)>()
      manager.getEnabledStatusForExtension(withIdentifier: identifier) { status, error in
        answer.deliver((status, error))
      }
      let (status, failure) = answer.wait()
      if let failure { throw failure }
      switch status {
      case .enabled: return .enabled
      case .disabled: return .disabled
      default: return .unknown
      }
    }

    /// `reloadExtension(withIdentifier:)`, waited for. iOS decides whether the request is
    /// incremental (`incremental` is the app's wish; the extension sees `isIncremental`).
    public func reloadExtension(_ identifier: String, incremental: Bool) throws -> ReloadOutcome {
      let answer = AwaitedAnswer<(any Error)?>()
      manager.reloadExtension(withIdentifier: identifier) { error in answer.deliver(error) }
      guard let failure = answer.wait() else { return ReloadOutcome(error: nil, errorDomain: nil) }
      // CXErrorCodeCallDirectoryManagerError's raw codes are calldir's (0–8); anything else
      // (the 102 seen in the field) keeps its code. Only CallKit's domain is mapped: the
      // extension cancelling with CocoaError(.fileNoSuchFile), code 4, is no duplicate entry.
      let error = failure as NSError
      return ReloadOutcome(
        error: CallDirectoryError(
          domain: error.domain, code: error.code,
          callDirectoryDomain: CXErrorDomainCallDirectoryManager),
        errorDomain: error.domain)
    }
  }

  /// One answer of a completion handler, waited for on the calling thread. CallKit's handlers
  /// are `@Sendable` (its Swift 6 interface), so they cannot assign the caller's variables: the
  /// handler hands its answer here and signals; the semaphore orders that write before the
  /// caller's read, which is why the unchecked conformance is sound.
  private final class AwaitedAnswer<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var value: Value?

    /// Called once, by the completion handler.
    func deliver(_ value: Value) {
      self.value = value
      done.signal()
    }

    /// Blocks until the handler has delivered, then returns its answer.
    func wait() -> Value {
      done.wait()
      return value!
    }
  }
#endif
