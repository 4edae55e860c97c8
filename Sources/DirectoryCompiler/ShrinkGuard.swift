import DirectoryContainer

/// Refuses a compile that would empty a live container or lose most of its entries: an empty
/// dump, a header without rows, or a dump whose every row was rejected used to retire every base,
/// and the next sync removed every entry from the phone. `--allow-shrink` publishes it anyway.
enum ShrinkGuard {
  /// A compile must keep at least this share of the entries the container publishes (its region
  /// and blocking bases; the seed set repeats region entries): half, the "set share".
  static let keptShare = 0.5

  /// - Parameters:
  ///   - current: the container's manifest before this compile.
  ///   - newEntries: the entries this compile's region and blocking bases hold.
  /// - Throws: ``CompileError/shrink(_:)`` when the container held entries and the compile keeps
  ///   none, or fewer than ``keptShare`` of them.
  static func check(current: Manifest, newEntries: Int, report: CompileReport) throws {
    let published = current.bases.filter { $0.state != .retired && $0.role != .seed }
    let oldEntries = published.reduce(0) { $0 + $1.entries }
    guard oldEntries > 0 else { return }
    let kept = Double(newEntries) / Double(oldEntries)
    guard newEntries == 0 || kept < keptShare else { return }
    let why =
      newEntries == 0
      ? "would leave the container with no entries"
      : "would keep \(newEntries) of its \(oldEntries) entries (under \(Int(keptShare * 100))%)"
    throw CompileError.shrink(
      "refusing to publish: this compile (\(report.accepted) rows accepted, \(report.rejectedCount) rejected) \(why); nothing was written. Pass --allow-shrink if that is meant"
    )
  }
}
