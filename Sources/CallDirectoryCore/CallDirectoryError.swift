/// An error of the Call Directory system, carrying iOS's raw code from
/// `CXErrorCodeCallDirectoryManagerError` (0–8) or a raw code seen in the field (102).
public enum CallDirectoryError: Error, Equatable, Hashable, Sendable {
  /// 0: unknown.
  case unknown
  /// 1: no extension with that identifier.
  case noExtensionFound
  /// 2: the load was interrupted (the system killed the extension, or it timed out).
  case loadingInterrupted
  /// 3: a number lower than the previous one of the same list.
  case entriesOutOfOrder(previous: PhoneNumber, number: PhoneNumber)
  /// 4: a number equal to the previous one of the same list (the previous starts at 0).
  case duplicateEntries(number: PhoneNumber)
  /// 5: the load would reach ``SystemLimits/maximumAllowedEntries``.
  case maximumEntriesExceeded(limit: Int)
  /// 6: the extension is disabled in Settings.
  case extensionDisabled
  /// 7: a load of this extension is already running (iOS 10.3).
  case currentlyLoading
  /// 8: a removal was called on a request whose `isIncremental` is false (iOS 11).
  case unexpectedIncrementalRemoval
  /// Any other raw code, such as 102 ("the system failed to load your extension").
  case other(code: Int)
  /// An error from another domain than CallKit's call directory manager (the extension
  /// cancelling with `CocoaError(.fileNoSuchFile)`, code 4, is no duplicate entry): its code as
  /// it came. The domain's name travels beside it (the adapter's reload outcome): a `String`
  /// here would make every error a reference-counted value, and the extension's checks pay for
  /// that on every entry (+41 instructions per entry, measured).
  case foreign(code: Int)

  /// iOS's raw error code.
  public var code: Int {
    switch self {
    case .unknown: 0
    case .noExtensionFound: 1
    case .loadingInterrupted: 2
    case .entriesOutOfOrder: 3
    case .duplicateEntries: 4
    case .maximumEntriesExceeded: 5
    case .extensionDisabled: 6
    case .currentlyLoading: 7
    case .unexpectedIncrementalRemoval: 8
    case .other(let code): code
    case .foreign(let code): code
    }
  }

  /// The error for a raw code, with no details (used when a code crosses a process boundary).
  public init(code: Int) {
    switch code {
    case 0: self = .unknown
    case 1: self = .noExtensionFound
    case 2: self = .loadingInterrupted
    case 3: self = .entriesOutOfOrder(previous: 0, number: 0)
    case 4: self = .duplicateEntries(number: 0)
    case 5: self = .maximumEntriesExceeded(limit: SystemLimits.maximumAllowedEntries)
    case 6: self = .extensionDisabled
    case 7: self = .currentlyLoading
    case 8: self = .unexpectedIncrementalRemoval
    default: self = .other(code: code)
    }
  }

  /// Whether the same request can succeed later, the extension and its data unchanged: a load
  /// the system interrupted or is still running, and codes CallKit does not document but the
  /// field reports (11; 102, "the system failed to load your extension", seen after an update
  /// of iOS or of the app), which pass once the system settles. Not retryable: what the user
  /// must do (turn the extension on), what the data must fix (order, duplicates, the cap, a
  /// removal in a complete request), and another domain's error, the extension's own.
  public var isRetryable: Bool {
    switch self {
    case .unknown, .loadingInterrupted, .currentlyLoading, .other: true
    case .noExtensionFound, .extensionDisabled, .entriesOutOfOrder, .duplicateEntries,
      .maximumEntriesExceeded, .unexpectedIncrementalRemoval, .foreign:
      false
    }
  }

  /// Whether this is CallKit's code 5, the cap reached (not another domain's 5).
  public var isMaximumEntriesExceeded: Bool {
    if case .maximumEntriesExceeded = self { return true }
    return false
  }

  /// Whether this is CallKit's code 2, a load interrupted (the system killed the extension).
  public var isLoadingInterrupted: Bool { self == .loadingInterrupted }

  /// The error for an `NSError`'s domain and code: CallKit's call directory manager domain
  /// (`callDirectoryDomain`, CallKit's `CXErrorDomainCallDirectoryManager`) maps its codes,
  /// any other domain's code is kept as it is (``foreign(code:)``).
  public init(domain: String, code: Int, callDirectoryDomain: String) {
    self = domain == callDirectoryDomain ? Self(code: code) : .foreign(code: code)
  }
}

extension CallDirectoryError: CustomStringConvertible {
  /// A one-line description naming iOS's code.
  public var description: String {
    switch self {
    case .unknown: "unknown error (code 0)"
    case .noExtensionFound: "no extension found (code 1)"
    case .loadingInterrupted: "loading interrupted (code 2)"
    case .entriesOutOfOrder(let previous, let number):
      "entries out of order: \(number) after \(previous) (code 3)"
    case .duplicateEntries(let number): "duplicate entry \(number) (code 4)"
    case .maximumEntriesExceeded(let limit):
      "maximum entries exceeded: the system allows fewer than \(limit) (code 5)"
    case .extensionDisabled: "extension disabled (code 6)"
    case .currentlyLoading: "currently loading (code 7)"
    case .unexpectedIncrementalRemoval:
      "removal called when isIncremental is false is unsupported (code 8)"
    case .other(let code): "call directory error (code \(code))"
    case .foreign(let code): "error \(code) from outside CallKit's call directory domain"
    }
  }
}
