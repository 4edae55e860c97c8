// Never compiled here: see CallKitExtensionContext.swift.
#if canImport(CallKit) && !os(macOS)  // macOS has CallKit, but not its call directory
  import CallDirectoryCore
  import CallKit
  import Foundation

  // Safe: it holds only CallKit's manager, which CallKit calls from any thread; the SDK does not
  // mark it `Sendable`.
  /// `CXCallDirectoryManager` through `CallDirectoryCore.CallDirectoryManaging`, so the app's
  /// sync (`ContainerApp.sync(manager:bundleID:maximumRequests:events:)`) drives the real system
  /// as it drives the simulated one.
  ///
  /// Each call suspends its task on CallKit's completion handler (a checked continuation), so no
  /// thread waits while iOS runs the extension's request: call it from any task, the main
  /// actor's included.
  public struct CallKitDirectoryManager: CallDirectoryManaging, @unchecked Sendable {
    // Unchecked: `CXCallDirectoryManager` is not marked Sendable in the SDK's Objective-C
    // headers, but it is a stateless front for the system's service (its one instance is the
    // class's `sharedInstance`, which Apple's samples call from any queue).

    /// How a reload ended: CallKit's error as calldir's, with iOS's raw code, and the error's
    /// domain as it came (CallKit's, or another's: see ``CallDirectoryError/foreign(code:)``).
    public struct ReloadOutcome: CallDirectoryReloadOutcome, Sendable {
      public var error: CallDirectoryError?
      /// The `NSError` domain of ``error``; nil when the reload succeeded.
      public var errorDomain: String?
    }

    /// The system's manager.
    public let manager: CXCallDirectoryManager

    /// A manager driving `manager` (the system's one by default).
    public init(manager: CXCallDirectoryManager = .sharedInstance) { self.manager = manager }

    /// What the calls throw: CallKit's error as calldir's, iOS's raw code kept.
    public typealias Failure = CallDirectoryError

    /// CallKit's `error` as a ``CallDirectoryError``: its codes (0–8) mapped, any other domain's
    /// or code kept as `.foreign(code:)` / `.unknown(code:)`, never a trap.
    static func callDirectoryError(_ error: any Error) -> CallDirectoryError {
      let error = error as NSError
      return CallDirectoryError(
        domain: error.domain, code: error.code,
        callDirectoryDomain: CXErrorDomainCallDirectoryManager)
    }

    /// `enabledStatusForExtension(withIdentifier:)`.
    /// - Throws: ``Failure``: the error CallKit returned.
    public func enabledStatus(ofExtension identifier: String) async throws(CallDirectoryError)
      -> ExtensionEnabledStatus
    {
      let answer: Result<CXCallDirectoryManager.EnabledStatus, CallDirectoryError> =
        await withCheckedContinuation { continuation in
          manager.getEnabledStatusForExtension(withIdentifier: identifier) { status, error in
            if let error {
              continuation.resume(returning: .failure(Self.callDirectoryError(error)))
            } else {
              continuation.resume(returning: .success(status))
            }
          }
        }
      switch try answer.get() {
      case .enabled: return .enabled
      case .disabled: return .disabled
      default: return .unknown
      }
    }

    /// `reloadExtension(withIdentifier:)`. iOS decides whether the request is incremental
    /// (`incremental` is the app's wish; the extension sees `isIncremental`).
    public func reloadExtension(_ identifier: String, incremental: Bool)
      async throws(CallDirectoryError) -> ReloadOutcome
    {
      // The handlers are CallKit's, resumed by hand rather than through the async forms Swift
      // imports for them: the same calls, and Swift 6.3 crashes cross-compiling those imports
      // (SILGen's foreign async completion handler, against the iOS 16.4 SDK).
      let failure: (any Error)? = await withCheckedContinuation { continuation in
        manager.reloadExtension(withIdentifier: identifier) { error in
          continuation.resume(returning: error)
        }
      }
      guard let failure else { return ReloadOutcome(error: nil, errorDomain: nil) }
      // CXErrorCodeCallDirectoryManagerError's raw codes are calldir's (0–8); anything else
      // (the 102 seen in the field) keeps its code. Only CallKit's domain is mapped: the
      // extension cancelling with CocoaError(.fileNoSuchFile), code 4, is no duplicate entry.
      return ReloadOutcome(
        error: Self.callDirectoryError(failure), errorDomain: (failure as NSError).domain)
    }

    /// `openSettings()` (iOS 13.4): Settings, where the user turns the extension on.
    /// - Throws: ``Failure``: the error CallKit returned.
    public func openSettings() async throws(CallDirectoryError) {
      let failure: (any Error)? = await withCheckedContinuation { continuation in
        manager.openSettings { error in continuation.resume(returning: error) }
      }
      if let failure { throw Self.callDirectoryError(failure) }
    }
  }
#endif
