import BaseFormat
import CallDirectoryLoader
import DirectoryContainer

/// Changes one extension's part of a split set takes without a request: with K extensions, an
/// update of one region (or a seed set whose changes lie elsewhere) would otherwise reload all
/// K, each an extension launch on a device that ends with nothing to send.
extension ContainerApp {
  /// In a part (a manifest with a number range) that the system already holds, takes as
  /// installed, without a request, every change that leaves the part's entries as they are: a
  /// chosen base whose current file holds the same entries in the range as its installed file
  /// (or none, when nothing was installed), and an installed base no longer chosen whose file
  /// holds none. The system then holds the same entries for the part before and after.
  ///
  /// A file's header (its lowest and highest numbers) settles most cases; otherwise the two
  /// versions are read side by side over the range and the first difference ends the
  /// comparison. A file that cannot be read counts as a difference, left to the next request,
  /// whose loader reports it.
  /// - Returns: how many bases were taken as installed or as no longer held.
  /// - Throws: ``ContainerAppError`` when the manifest cannot be written.
  @discardableResult
  func recordChangesThePartDoesNotSee() throws -> Int {
    func changes(_ manifest: Manifest) -> [(index: Int, installs: Bool)] {
      guard let range = manifest.numberRange, manifest.fullSetRequested,
        manifest.bases.contains(where: { $0.installedFile != nil })
      else { return [] }
      let chosen = Set(manifest.selection.map(\.name))
      return manifest.bases.indices.compactMap { index in
        let base = manifest.bases[index]
        if chosen.contains(base.name) {
          guard base.installedFile != base.file,
            sameEntries(base.installedFile, base.file, in: range)
          else { return nil }
          return (index, true)
        }
        guard let installed = base.installedFile, sameEntries(installed, nil, in: range)
        else { return nil }
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

  /// Whether two base files (nil: no file) hold the same entries, labels included, in `range`.
  /// False when either cannot be read.
  func sameEntries(_ first: String?, _ second: String?, in range: Range<Int64>) -> Bool {
    do {
      let (left, right) = (try entries(first, in: range), try entries(second, in: range))
      while true {
        let (a, b) = (try left.next()?.entry, try right.next()?.entry)
        guard a == b else { return false }
        if a == nil { return true }
      }
    } catch {
      return false
    }
  }

  /// One base file's entries in `range`, through the loader's own merge (which skips to the
  /// range and stops at its end); none for no file or one whose header bounds lie outside it
  /// (nothing of it is read then).
  private func entries(_ file: String?, in range: Range<Int64>) throws -> MergedList {
    var readers: [(reader: any BaseReader, priority: Int)] = []
    if let file {
      let reader = try BaseFile.reader(path: container + "/" + file)
      if reader.header.mayHold(numbersIn: range) { readers.append((reader, 0)) }
    }
    let list = try MergedList(readers)
    list.range = range
    return list
  }
}
