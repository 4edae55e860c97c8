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
    /// How a reload ended: CallKit's error as calldir's, with iOS's raw code.
    public struct ReloadOutcome: CallDirectoryReloadOutcome {
      public var error: CallDirectoryError?
    }

    /// The system's manager.
    public let manager: CXCallDirectoryManager

    public init(manager: CXCallDirectoryManager = .sharedInstance) { self.manager = manager }

    /// `getEnabledStatusForExtension(withIdentifier:)`, waited for.
    /// - Throws: the error CallKit returned.
    public func enabledStatus(ofExtension identifier: String) throws -> ExtensionEnabledStatus {
      let done = DispatchSemaphore(value: 0)
      var status = CXCallDirectoryManager.EnabledStatus.unknown
      var failure: (any Error)?
      manager.getEnabledStatusForExtension(withIdentifier: identifier) { answer, error in
        (status, failure) = (answer, error)
        done.signal()
      }
      done.wait()
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
      let done = DispatchSemaphore(value: 0)
      var failure: (any Error)?
      manager.reloadExtension(withIdentifier: identifier) { error in
        failure = error
        done.signal()
      }
      done.wait()
      guard let failure else { return ReloadOutcome(error: nil) }
      // CXErrorCodeCallDirectoryManagerError's raw codes are calldir's (0–8); anything else
      // (the 102 seen in the field) keeps its code.
      return ReloadOutcome(error: CallDirectoryError(code: (failure as NSError).code))
    }
  }
#endif
