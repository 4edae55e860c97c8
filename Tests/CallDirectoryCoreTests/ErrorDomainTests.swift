import CallDirectoryCore
import Testing

/// How the CallKit adapter reads an `NSError` (issue 39, item 14): only CallKit's call
/// directory manager domain maps to calldir's errors; the extension cancelling with
/// `CocoaError(.fileNoSuchFile)` (NSCocoaErrorDomain, code 4) is not "duplicate entries".
@Suite("CallKit's error domain only is mapped")
struct ErrorDomainTests {
  static let callKit = "com.apple.CallKit.error.calldirectorymanager"

  @Test func callKitsCodesMapAndOtherDomainsStayAsTheyCame() {
    #expect(
      CallDirectoryError(domain: Self.callKit, code: 4, callDirectoryDomain: Self.callKit)
        == .duplicateEntries(number: 0))
    #expect(
      CallDirectoryError(domain: Self.callKit, code: 102, callDirectoryDomain: Self.callKit)
        == .other(code: 102))
    let cocoa = CallDirectoryError(
      domain: "NSCocoaErrorDomain", code: 4, callDirectoryDomain: Self.callKit)
    #expect(cocoa == .foreign(code: 4))
    #expect(cocoa.description == "error 4 from outside CallKit's call directory domain")
    #expect(_isPOD(CallDirectoryError.self), "no reference counting on the extension's path")
    let five = CallDirectoryError(
      domain: "NSPOSIXErrorDomain", code: 5, callDirectoryDomain: Self.callKit)
    #expect(!five.isMaximumEntriesExceeded)
    #expect(CallDirectoryError(code: 5).isMaximumEntriesExceeded)
    #expect(CallDirectoryError(code: 2).isLoadingInterrupted)
  }

  /// Codes CallKit does not document, reported from the field (11, 102), are typed and
  /// retryable, never a trap; what the user or the data must fix is not retryable (issue 56,
  /// item 5).
  @Test(arguments: [11, 102, 9, 65_535, -1])
  func anUndocumentedCodeIsTypedAndRetryable(code: Int) {
    let error = CallDirectoryError(
      domain: Self.callKit, code: code, callDirectoryDomain: Self.callKit)
    #expect(error == .other(code: code))
    #expect(error.code == code)
    #expect(error.isRetryable)
    #expect(error.description == "call directory error (code \(code))")
  }

  @Test func onlyWhatTheSystemMaySettleIsRetryable() {
    let retryable = (0...8).filter { CallDirectoryError(code: $0).isRetryable }
    #expect(retryable == [0, 2, 7], "unknown, interrupted, currently loading")
    #expect(!CallDirectoryError.foreign(code: 4).isRetryable)
  }
}
