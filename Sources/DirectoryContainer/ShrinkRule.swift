/// The rule every writer of entries follows before it publishes (a compile, `publish`, an
/// app's update): a new set that holds none of the entries there were, or fewer than half, is
/// refused unless the caller allows it (`--allow-shrink`). An empty dump, or a release version
/// with no bases, used to retire every base, and the next sync removed every entry.
package enum ShrinkRule {
  /// A new set must keep at least this share of the entries published before: half.
  package static let keptShare = 0.5

  /// The entries `manifest` publishes: its region and blocking bases (the seed set repeats
  /// region entries; retired bases are on their way out).
  package static func publishedEntries(_ manifest: Manifest) -> Int {
    manifest.bases.filter { $0.state != .retired && $0.role != .seed }.reduce(0) {
      $0 &+ $1.entries
    }
  }

  /// Why going from `oldEntries` to `newEntries` is refused ("would leave … no entries", "would
  /// keep N of its M entries (under 50%)"), or nil when it is not.
  package static func refusal(oldEntries: Int, newEntries: Int) -> String? {
    guard oldEntries > 0 else { return nil }
    let kept = Double(newEntries) / Double(oldEntries)
    guard newEntries == 0 || kept < keptShare else { return nil }
    return newEntries == 0
      ? "would leave no entries"
      : "would keep \(newEntries) of \(oldEntries) entries (under \(Int(keptShare * 100))%)"
  }
}
