import DirectoryContainer

/// Refuses a compile that would empty a live container or lose most of its entries
/// (`DirectoryContainer.ShrinkRule`): an empty dump, a header without rows, or a dump whose
/// every row was rejected used to retire every base, and the next sync removed every entry from
/// the phone. `--allow-shrink` publishes it anyway.
enum ShrinkGuard {
  /// - Parameters:
  ///   - current: the container's manifest before this compile.
  ///   - newEntries: the entries this compile's region and blocking bases hold.
  /// - Throws: ``CompileError/shrink(_:)`` when the container held entries and the compile keeps
  ///   none, or fewer than `DirectoryContainer.ShrinkRule.keptShare` of them.
  static func check(current: Manifest, newEntries: Int, report: CompileReport) throws {
    let oldEntries = ShrinkRule.publishedEntries(current)
    guard let why = ShrinkRule.refusal(oldEntries: oldEntries, newEntries: newEntries) else {
      return
    }
    throw CompileError.shrink(
      "refusing to publish: this compile (\(report.accepted) rows accepted, \(report.rejectedCount) rejected) \(why); nothing was written. Pass --allow-shrink if that is meant"
    )
  }
}
