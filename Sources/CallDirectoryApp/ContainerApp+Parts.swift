import BaseFormat
import CallDirectoryCore
import CallDirectoryLoader
import DirectoryContainer
import Foundation

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
  public func split(into count: Int) throws -> [ContainerApp] {
    guard count >= 2 else {
      throw ContainerAppError("--extensions must be at least 2 to split, got \(count)")
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

  /// In a part (a manifest with a number range) that the system already holds, takes as
  /// installed, without a request, every change that cannot touch the part: a chosen base whose
  /// current file and installed file (if any) hold no number in the range, and an installed base
  /// no longer chosen whose file holds none. The system holds the same entries for the part
  /// before and after, so an update of one region reloads only the extension whose part holds it
  /// (the others would each be reloaded for nothing: an extension launch on a device). Only the
  /// files' headers are read (their lowest and highest numbers); a file that cannot be read is
  /// left to the next request, whose loader reports it.
  /// - Returns: how many bases were taken as installed or as no longer held.
  /// - Throws: ``ContainerAppError`` when the manifest cannot be written.
  @discardableResult
  func recordChangesOutsideRange() throws -> Int {
    func changes(_ manifest: Manifest) -> [(index: Int, installs: Bool)] {
      guard let range = manifest.numberRange, manifest.fullSetRequested,
        manifest.bases.contains(where: { $0.installedFile != nil })
      else { return [] }
      func outside(_ file: String) -> Bool {
        guard let header = try? MappedBaseReader(path: container + "/" + file).header else {
          return false
        }
        return !DirectoryLoader.mayHold(header, numbersIn: range)
      }
      let chosen = Set(DirectoryLoader.selection(manifest).map(\.name))
      return manifest.bases.indices.compactMap { index in
        let base = manifest.bases[index]
        if chosen.contains(base.name) {
          guard base.installedFile != base.file, outside(base.file),
            base.installedFile.map(outside) ?? true
          else { return nil }
          return (index, true)
        }
        guard let installed = base.installedFile, outside(installed) else { return nil }
        return (index, false)
      }
    }
    // Most syncs find nothing to take: they leave the manifest untouched, not rewritten.
    guard !changes(try manifest()).isEmpty else { return 0 }
    return try change { manifest, _ in
      let found = changes(manifest)
      for (index, installs) in found {
        if installs {
          manifest.bases[index].installedFile = manifest.bases[index].file
          manifest.bases[index].installedSHA256 = manifest.bases[index].sha256
          manifest.bases[index].state = .installed
        } else {
          manifest.bases[index].installedFile = nil
          manifest.bases[index].installedSHA256 = nil
          if manifest.bases[index].state == .installed { manifest.bases[index].state = .ready }
        }
      }
      manifest.bases.removeAll { $0.state == .retired && $0.installedFile == nil }
      return found.count
    }
  }

  /// Hard-links this container's base file into a part's container under the same relative
  /// path (bases are named by their hash, so an existing link holds the same bytes).
  private func linkBase(_ file: String, into partContainer: String) throws {
    let source = container + "/" + file
    let target = partContainer + "/" + file
    guard !FileManager.default.fileExists(atPath: target) else { return }
    try? FileManager.default.createDirectory(
      atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    guard link(source, target) == 0 else {
      throw ContainerAppError(
        "cannot link \(source) into \(partContainer): \(String(cString: strerror(errno)))")
    }
  }
}
