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
}
