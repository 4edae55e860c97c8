import CallDirectoryCore
import CallDirectoryLoader
import DirectoryContainer

/// Several extensions, one number range each: Truecaller ships 4 extensions, Getcontact 3,
/// Whoscall 3. Each part is a container of its own inside this one (`parts/1` … `parts/K`): the
/// same base files, hard-linked (no copy), and a manifest with the part's `range`, its own
/// install progress, journal and installed files. Every part is then synced exactly as one
/// extension is, under its own cap.
extension ContainerApp {
  /// The folder holding the parts' containers.
  public static let partsFolder = "parts"

  /// Part `index`'s container (1-based).
  public func part(_ index: Int) -> ContainerApp {
    ContainerApp(container: container + "/" + Self.partsFolder + "/" + String(index))
  }

  /// Splits the full set into `count` number ranges of about equal size and brings each part's
  /// container up to date with this container's bases, choices and full-set request. Ranges
  /// are kept once made (a part's old and new sides must cover the same numbers), and made
  /// anew only when the number of parts changes.
  /// - Returns: the parts' containers, in order.
  /// - Throws: ``ContainerAppError`` for a count under 2, too few entries to split, or a base
  ///   or manifest that cannot be read or written.
  @discardableResult
  public func split(into count: Int) throws(ContainerAppError) -> [ContainerApp] {
    try ContainerAppError.catching { try splitNow(into: count) }
  }

  /// ``split(into:)``'s work.
  private func splitNow(into count: Int) throws -> [ContainerApp] {
    guard count >= 2 else {
      throw ContainerAppError(
        "a split needs at least 2 extensions, got \(count)", kind: .badArgument)
    }
    let manifest = try self.manifest()
    var ranges = (1...count).compactMap { try? part($0).manifest().numberRange }
    let stale = (try? part(count + 1).manifest().numberRange) != nil
    if ranges.count != count || stale {
      let boundaries: [Int64]
      do {
        boundaries = try DirectoryLoader(container: container).partBoundaries(
          manifest, parts: count)
      } catch {
        throw ContainerAppError(error.description)
      }
      guard boundaries.count == count - 1 else {
        throw ContainerAppError("too few entries to split into \(count) extensions")
      }
      let edges = [0] + boundaries + [Int64.max]
      ranges = (0..<count).map { edges[$0]..<edges[$0 + 1] }
    }
    // What this container's own extension holds is not what a part's holds.
    let shared = manifest.bases.filter { $0.state != .staged && $0.state != .retired }.map {
      var base = $0
      base.installedFile = nil
      base.installedSHA256 = nil
      if base.state == .installed { base.state = .ready }
      return base
    }
    var parts: [ContainerApp] = []
    for (index, range) in ranges.enumerated() {
      let part = part(index + 1)
      try part.change(creating: true) { partManifest, _ in
        for base in shared { try linkBase(base.file, into: part.container) }
        var next = manifest
        next.bases = shared
        next.numberRange = range
        next.installProgress = InstallProgress()
        if partManifest.numberRange == range {
          next.keepAppState(of: partManifest)
          next.chosenRegions = manifest.chosenRegions  // the user's choice, made here
        } else {
          // A new range: the system's part of the set is unknown to this manifest, so the next
          // load of this part is a complete one.
          next.fullSetRequested = false
        }
        partManifest = next
      }
      parts.append(part)
    }
    return parts
  }

  /// Hard-links this container's base file into a part's container under the same relative
  /// path (bases are named by their hash, so an existing link holds the same bytes).
  private func linkBase(_ file: String, into partContainer: String) throws {
    let source = container + "/" + file
    let target = partContainer + "/" + file
    guard !ContainerFolder.exists(target) else { return }
    do {
      if let slash = target.lastIndex(of: "/") {
        try ContainerFolder.create(String(target[..<slash]))
      }
      try ContainerFolder.link(source, at: target)
    } catch {
      // The folder's or the link's own line names the paths and the system's reason.
      throw ContainerAppError(error.description)
    }
  }
}
