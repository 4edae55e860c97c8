import CallDirectoryApp
import Testing

/// An app's test doubles throw the library's own error (issue 56, item 5): its initializer is
/// public, so this file imports the module without `@testable`.
@Suite("An app can make a ContainerAppError")
struct ErrorDoubleTests {
  struct FailingSource: Error {}

  @Test func anAppsDoubleThrowsWhatTheLibraryThrows() {
    let download = ContainerAppError(
      "https://example.net/index.json: HTTP 503", kind: .download, file: "index.json", code: 503)
    #expect(download.kind == .download && download.isRetryable && download.code == 503)
    let refused = ContainerAppError("bad release", file: "index.json")
    #expect(refused.kind == .failed && !refused.isRetryable)
    let system = ContainerAppError("store", kind: .system, underlying: FailingSource())
    #expect(system.underlying is FailingSource && system.isRetryable)
    #expect(download != refused)
  }
}
