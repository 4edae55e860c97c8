import CallDirectoryLoader
import CallKit
import CallKitAdapter
import Foundation

/// The extension's principal class (NSExtensionPrincipalClass in its Info.plist): the README's,
/// as it stands there. The loader reads the App Group container the app syncs into; no
/// Foundation beyond the container's path.
final class CallDirectoryHandler: CXCallDirectoryProvider {
  override func beginRequest(with context: CXCallDirectoryExtensionContext) {
    guard
      let container = FileManager.default.containerURL(
        forSecurityApplicationGroupIdentifier: "group.com.example.callerid")?.path
    else {
      context.cancelRequest(withError: CocoaError(.fileNoSuchFile))
      return
    }
    do {
      // Phase one, phase two or the next chunk: the container's manifest decides.
      let summary = try DirectoryLoader(container: container)
        .load(into: CallKitExtensionContext(context))
      context.completeRequest { expired in
        // The journal says "committed" only once iOS kept the request; a pending one makes
        // the app reload rather than believe it.
        if !expired { try? DirectoryLoader(container: container).recordCommitted(summary) }
      }
    } catch {
      context.cancelRequest(withError: error)
    }
  }
}
