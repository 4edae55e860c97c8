import BaseFormat
import CallDirectoryCore
import CallDirectoryLoader
import DirectoryContainer
import SystemCalls

/// The app's side of the App Group container (2GIS's steps 1–8, scriptable): stage downloaded
/// bases (copied atomically, SHA-256 recorded, then verified whole → ready), choose regions,
/// request the full set, trigger reloads, and mark bases installed once the system took them.
/// Bases are kept after install: disabling and enabling the extension reinstalls from them.
public struct ContainerApp {
  /// The container folder.
  public let container: String

  public init(container: String) { self.container = container }

  /// The manifest, or an empty one when the container is new.
  /// - Throws: ``ContainerAppError`` when a manifest exists but cannot be read.
  public func manifest() throws -> Manifest {
    guard ContainerFolder.exists(container + "/" + Manifest.fileName) else {
      return Manifest()
    }
    do {
      return try Manifest.read(container: container)
    } catch {
      throw ContainerAppError(error.description)
    }
  }

  /// Changes the manifest as one transaction (``DirectoryContainer/ContainerTransaction``): other
  /// writers wait, and the change is live only once `body` returns and the manifest is renamed
  /// into place. A container without a manifest is an error unless `creating`.
  /// - Throws: ``ContainerAppError``; what `body` throws. The container is then as it was.
  @discardableResult
  func change<Result>(
    creating: Bool = false, _ body: (inout Manifest, ContainerTransaction) throws -> Result
  ) throws -> Result {
    let transaction: ContainerTransaction
    do {
      transaction = try ContainerTransaction(container: container)
    } catch {
      throw ContainerAppError(error.description)
    }
    guard var manifest = transaction.current ?? (creating ? Manifest() : nil) else {
      throw ContainerAppError(
        "\(container) has no \(Manifest.fileName): no bases have been staged, updated or compiled into it yet"
      )
    }
    let result = try body(&manifest, transaction)
    do {
      try transaction.commit(manifest)
    } catch {
      throw ContainerAppError(error.description)
    }
    return result
  }

  /// Stages a base: copies `file` into the container, reads the copy whole to verify it (what is
  /// verified is what is installed: the source may change meanwhile), moves it into `bases/`
  /// under its hash and records it ready, in one transaction. A new version of an installed base
  /// keeps the installed file, so an incremental load can send the difference.
  /// - Returns: the base's manifest entry.
  /// - Throws: ``ContainerAppError`` naming the file and the problem; the container is then as
  ///   it was.
  @discardableResult
  public func stage(
    file: String, name: String, role: Manifest.Role, region: String? = nil, priority: Int,
    version: Int
  ) throws -> Manifest.Base {
    guard BaseNaming.isValidName(name) else {
      throw ContainerAppError("base name '\(name)' must be \(BaseNaming.nameRule)")
    }
    if role == .region && region == nil {
      throw ContainerAppError("a region base needs its region")
    }
    if let region, !BaseNaming.isValidRegion(region) {
      throw ContainerAppError("region '\(region)' must not hold a tab, a comma or a line break")
    }
    return try change(creating: true) { manifest, transaction in
      let copy = container + "/.stage-\(ProcessEnvironment.processID).cdb"
      defer { FolderCalls.removeFile(copy) }
      try Self.copy(from: file, to: copy)
      let header: BaseHeader
      do throws(BaseFormatError) {
        let reader = try MappedBaseReader(path: copy, validatesLabels: true)
        header = reader.header
        while try reader.next() != nil {}
      } catch {
        throw ContainerAppError("\(file): \(error.problemDescription)")
      }
      if role == .blocking && header.kind != .blocking {
        throw ContainerAppError(
          "\(file): a blocking list must be a blocking base, this one is \(header.kind)")
      }
      let adopted: ContainerTransaction.AdoptedFile
      do throws(ContainerError) {
        adopted = try transaction.adopt(copy, name: name)
      } catch {
        throw ContainerAppError(error.description)
      }
      let previous = manifest.bases.firstIndex { $0.name == name }
      let installed = previous.flatMap { manifest.bases[$0].installedFile }
      let base = Manifest.Base(
        name: name, role: role, kind: header.kind, region: region, priority: priority,
        version: version, entries: header.entryCount, sha256: adopted.sha256,
        state: installed == adopted.file ? .installed : .ready, file: adopted.file,
        installedFile: installed, byteCount: adopted.byteCount,
        installedSHA256: previous.flatMap { manifest.bases[$0].expectedInstalledSHA256 })
      if let previous { manifest.bases[previous] = base } else { manifest.bases.append(base) }
      return base
    }
  }

  /// Copies `source` to `destination` atomically (temporary file, fsync, rename).
  private static func copy(from source: String, to destination: String) throws {
    do {
      try ContainerFolder.copyFile(from: source, to: destination)
    } catch {
      throw ContainerAppError(error.description)
    }
  }

  /// Sets the regions the user chose.
  /// - Throws: ``ContainerAppError`` for a region no base has, or a container without manifest.
  public func choose(regions: [String]) throws {
    try change { manifest, _ in
      let known = Set(manifest.bases.filter { $0.state != .retired }.compactMap(\.region))
      for region in regions where !known.contains(region) {
        throw ContainerAppError(
          "no base for region '\(region)' (known: \(known.sorted().joined(separator: ", ")))")
      }
      manifest.chosenRegions = regions
    }
  }

  /// Asks that the next complete load install the full set.
  public func requestFullSet(_ requested: Bool = true) throws {
    try change { manifest, _ in manifest.fullSetRequested = requested }
  }
}

/// Why the app could not change its container: one line naming the file or argument and the
/// problem. The container is as it was before the call.
public struct ContainerAppError: Error, CustomStringConvertible, Equatable {
  /// What kind of refusal it is, for a caller that answers each differently.
  public enum Kind: Sendable, Equatable {
    /// A file, a release, a server or an argument that cannot be used.
    case failed
    /// An update that would leave fewer than half the entries the container publishes (or
    /// none): refused unless shrinking is allowed (``DirectoryContainer/ShrinkRule``).
    case shrink
    /// The system knows no such extension: the user has not turned it on in Settings.
    case extensionNotEnabled
  }

  /// The line.
  public let description: String
  /// What kind of refusal it is.
  public let kind: Kind

  init(_ description: String, kind: Kind = .failed) {
    self.description = description
    self.kind = kind
  }
}
