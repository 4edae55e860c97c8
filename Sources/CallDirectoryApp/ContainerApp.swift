import BaseFormat
import CallDirectoryCore
import CallDirectoryLoader
import DirectoryContainer
import Foundation

/// The app's side of the App Group container (2GIS's steps 1–8, scriptable): stage downloaded
/// bases (copied atomically, SHA-256 recorded, then verified whole → ready), choose regions,
/// request the full set, trigger reloads, and mark bases installed once the system took them.
/// Bases are kept after install: disabling and enabling the extension reinstalls from them.
public struct ContainerApp {
  /// The container folder.
  public let container: String

  public init(container: String) { self.container = container }

  /// The manifest, or an empty one when the container is new.
  public func manifest() throws -> Manifest {
    guard FileManager.default.fileExists(atPath: container + "/" + Manifest.fileName) else {
      return Manifest()
    }
    do {
      return try Manifest.read(container: container)
    } catch {
      throw ContainerAppError(error.description)
    }
  }

  func save(_ manifest: Manifest) throws {
    do {
      try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
      try manifest.write(container: container)
    } catch let error as BaseFormatError {
      throw ContainerAppError(error.description)
    }
  }

  /// Stages a base: copies `file` into `bases/` atomically, records its hash, then reads it whole
  /// to verify it and marks it ready. A new version of an installed base keeps the installed
  /// file, so an incremental load can send the difference.
  /// - Returns: the base's manifest entry.
  /// - Throws: ``ContainerAppError`` naming the file and the problem; the manifest is
  ///   then unchanged.
  @discardableResult
  public func stage(
    file: String, name: String, role: Manifest.Role, region: String? = nil, priority: Int,
    version: Int
  ) throws -> Manifest.Base {
    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) })
    else {
      throw ContainerAppError("base name '\(name)' must be letters, digits, '-', '_' or '.'")
    }
    if role == .region && region == nil { throw ContainerAppError("a region base needs --region") }
    let header: BaseHeader
    do {
      let reader = try MappedBaseReader(path: file, validatesLabels: true)
      header = reader.header
      while try reader.next() != nil {}
    } catch {
      throw ContainerAppError("\(error)")
    }
    if role == .blocking && header.kind != .blocking {
      throw ContainerAppError(
        "\(file): a blocking list must be a blocking base, this one is \(header.kind)")
    }
    let relative = "bases/\(name).v\(version).cdb"
    let destination = container + "/" + relative
    try FileManager.default.createDirectory(
      atPath: container + "/bases", withIntermediateDirectories: true)
    try copyAtomically(from: file, to: destination)
    guard let digest = SHA256.hexDigest(ofFile: destination) else {
      throw ContainerAppError("cannot read \(destination)")
    }
    var manifest = try manifest()
    let previous = manifest.bases.firstIndex { $0.name == name }
    var base = Manifest.Base(
      name: name, role: role, kind: header.kind, region: region, priority: priority,
      version: version, entries: header.entryCount, sha256: digest, state: .staged, file: relative,
      installedFile: previous.flatMap { manifest.bases[$0].installedFile },
      byteCount: (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int)
        ?? nil)
    if let previous { manifest.bases[previous] = base } else { manifest.bases.append(base) }
    try save(manifest)
    // The source was read whole and verified above, and the copy hashed: ready.
    base.state = .ready
    manifest.bases[manifest.bases.firstIndex { $0.name == name }!] = base
    try save(manifest)
    return base
  }

  private func copyAtomically(from source: String, to destination: String) throws {
    guard let input = FileHandle(forReadingAtPath: source) else {
      throw ContainerAppError("cannot read \(source)")
    }
    defer { try? input.close() }
    do {
      let writer = try AtomicFileWriter(path: destination)
      while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
        try writer.write(chunk)
      }
      try writer.commit()
    } catch let error as BaseFormatError {
      throw ContainerAppError(error.description)
    }
  }

  /// Sets the regions the user chose.
  public func choose(regions: [String]) throws {
    var manifest = try manifest()
    let known = Set(manifest.bases.compactMap(\.region))
    for region in regions where !known.contains(region) {
      throw ContainerAppError(
        "no base for region '\(region)' (known: \(known.sorted().joined(separator: ", ")))")
    }
    manifest.chosenRegions = regions
    try save(manifest)
  }

  /// Asks that the next complete load install the full set.
  public func requestFullSet(_ requested: Bool = true) throws {
    var manifest = try manifest()
    manifest.fullSetRequested = requested
    try save(manifest)
  }

  /// Records that the system now holds exactly what a complete load installs now: those bases
  /// become installed (their current file is the installed one); bases no longer selected are no
  /// longer held.
  public func markInstalled() throws {
    var manifest = try manifest()
    let selected = Set(DirectoryLoader.selection(manifest).map(\.name))
    for index in manifest.bases.indices {
      if selected.contains(manifest.bases[index].name) {
        manifest.bases[index].state = .installed
        manifest.bases[index].installedFile = manifest.bases[index].file
      } else {
        manifest.bases[index].installedFile = nil
        if manifest.bases[index].state == .installed { manifest.bases[index].state = .ready }
      }
    }
    try save(manifest)
  }

  /// Brings the system up to date, as the app does after a download or a region change: only when
  /// the extension is enabled. Phase two first (the full set with a complete reload), then an
  /// incremental reload for anything newer than what is installed.
  /// - Returns: the requests made, in order (none when the extension is disabled or up to date).
  /// - Throws: ``ContainerAppError`` when the manifest cannot be read or written; what `manager`
  ///   throws when the system itself fails.
  public func sync<Manager: CallDirectoryManaging>(manager: Manager, bundleID: String) throws
    -> [Manager.ReloadOutcome]
  {
    guard try manager.enabledStatus(ofExtension: bundleID) == .enabled else { return [] }
    var manifest = try manifest()
    if !manifest.fullSetRequested {
      try requestFullSet()
      let result = try manager.reloadExtension(bundleID, incremental: false)
      if result.error == nil { try markInstalled() } else { try requestFullSet(false) }
      return [result]
    }
    manifest = try self.manifest()
    let selected = DirectoryLoader.selection(manifest)
    let upToDate =
      selected.allSatisfy { $0.installedFile == $0.file }
      && manifest.bases.allSatisfy { base in
        base.installedFile == nil || selected.contains { $0.name == base.name }
      }
    if upToDate { return [] }
    let result = try manager.reloadExtension(bundleID, incremental: true)
    if result.error == nil { try markInstalled() }
    return [result]
  }
}

/// Why the app could not change its container: one line naming the file or argument and the
/// problem. The container is as it was before the call.
public struct ContainerAppError: Error, CustomStringConvertible, Equatable {
  /// The line.
  public let description: String

  init(_ description: String) { self.description = description }
}
