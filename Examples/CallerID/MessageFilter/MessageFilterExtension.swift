import CallDirectoryLoader
import Foundation
import IdentityLookup
import PhoneNormalization

/// The SMS filter extension (IdentityLookup's `ILMessageFilterExtension`, NSExtensionPrincipalClass
/// of its Info.plist): a message from a number the phone blocks (the directory's lists, a
/// pattern, the user's own block, and not allowed by the user or paused) is filed as junk. It
/// reads the App Group container through `DirectoryLookup`, with no network and no copy of the
/// directory: a block read per blocking list, a few microseconds a message, and no label made.
final class MessageFilterExtension: ILMessageFilterExtension {
  /// One lookup for the process, made at the first message (its index is one pass per base).
  private let lookups = LookupCache()
}

extension MessageFilterExtension: ILMessageFilterQueryHandling {
  func handle(
    _ queryRequest: ILMessageFilterQueryRequest, context: ILMessageFilterExtensionContext,
    completion: @escaping (ILMessageFilterQueryResponse) -> Void
  ) {
    let response = ILMessageFilterQueryResponse()
    response.action = lookups.isBlocked(sender: queryRequest.sender) ? .junk : .none
    completion(response)
  }
}

/// The process's `DirectoryLookup`, made once and used under a lock (a lookup is for one thread
/// at a time, and IdentityLookup may call from any).
final class LookupCache: @unchecked Sendable {
  private let lock = NSLock()
  private var lookup: DirectoryLookup?

  func isBlocked(sender: String?) -> Bool {
    guard let sender,
      let number = try? PhoneNormalizer(country: Locale.current.region?.identifier)
        .normalize(sender)
    else { return false }
    lock.lock()
    defer { lock.unlock() }
    if lookup == nil {
      guard
        let container = FileManager.default.containerURL(
          forSecurityApplicationGroupIdentifier: "group.com.example.callerid")?.path
      else { return false }
      lookup = try? DirectoryLookup(container: container)
    }
    return (try? lookup?.isBlocked(number)) ?? false
  }
}
