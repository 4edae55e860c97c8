import Foundation

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; the property-list call's format pointer is nil, and nothing
// here keeps a pointer past its call.

/// An App Group's shared `UserDefaults` suite as the extension and the app see it on disk: one
/// property list, read whole and written whole (what `cfprefsd` persists for a suite). Linux's
/// Foundation has no App Group suites, so the file is named in the container: `group.plist`.
final class SharedDefaults {
  static let fileName = "group.plist"
  let path: String
  private var values: [String: Any]

  init(container: String) {
    path = container + "/" + Self.fileName
    let data = FileManager.default.contents(atPath: path) ?? Data()
    values =
      unsafe (try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
      ?? [:]
  }

  func string(forKey key: String) -> String? { values[key] as? String }
  func array(forKey key: String) -> [Any]? { values[key] as? [Any] }

  /// `UserDefaults.set(_:forKey:)`: the whole suite written again, as a binary property list.
  func set(_ value: Any, forKey key: String) throws {
    values[key] = value
    let data = try PropertyListSerialization.data(
      fromPropertyList: values, format: .binary, options: 0)
    try data.write(to: URL(fileURLWithPath: path), options: .atomic)
  }
}
