import BaseFormat
import SystemCalls
import SystemPackage

/// One change to an App Group container, made as a whole: the only way writers (compile, stage,
/// choose, sync bookkeeping) change a container.
///
/// - Writers serialize on an exclusive `flock` of `.lock` in the container, held from `init`
///   until the transaction ends; readers (the extension) take no lock.
/// - New bases never overwrite a file: `adopt(_:name:)` moves a finished file into `bases/`
///   under a name that holds its SHA-256 (`region-RU-MOW.3f5a…c2.cdb`), so a file a manifest names
///   never changes.
/// - ``commit(_:)`` makes the change live with one atomic rename of `manifest.cdm` (temporary
///   file, fsync, rename, directory fsync). A writer that dies before it leaves the old manifest
///   and every file it names untouched.
/// - After the rename, files that neither the new manifest nor the one it replaced name (the
///   leftovers of killed writers included) are removed. The replaced manifest's files are kept
///   one generation, for a reader that opened it just before the rename.
package final class ContainerTransaction {
  /// The container folder.
  package let container: String
  /// The manifest when the transaction began; nil in a container without one.
  package let current: Manifest?
  /// The writers' lock, held until ``commit(_:)`` or the end of the transaction.
  private var lock: FileDescriptor?
  /// Whether this transaction made the container folder: one that ends without a commit removes
  /// it again, so a failed first run leaves nothing behind.
  private let createdContainer: Bool
  /// Files this change moved into `bases/` where none of that name was: removed again if the
  /// change ends without its manifest, so a failed or refused run leaves the container's files
  /// byte-identical, not just its manifest.
  private var adoptedHere: [String] = []
  /// Every file this change adopted, with the SHA-256 it was adopted under and its stamp once in
  /// place: recorded in ``HashStamps`` when the change commits.
  private var adoptedStamps: [(file: String, sha256: String, stamp: FileStamp)] = []
  /// Whether a commit records what it adopted in ``HashStamps``: set by the app's writers, whose
  /// container a sync checks; off for a compile, whose output is the same bytes on any machine
  /// (its bases are recorded by the first sync that reads them).
  package var recordsHashStamps = false

  /// The lock file's name inside the container.
  package static let lockFileName = ".lock"
  /// The folder, inside the container, that holds the bases.
  package static let basesFolder = "bases"

  /// Creates the container folder (and `bases/`) when missing, takes the writers' lock (waiting
  /// for another writer to finish), and reads the current manifest.
  /// - Throws: ``ContainerError`` when the folder cannot be created or locked, or the manifest
  ///   exists but cannot be read.
  package init(container: String) throws(ContainerError) {
    guard !container.isEmpty else { throw ContainerError("the container path is empty") }
    self.container = container
    createdContainer = !FolderCalls.exists(container, followingLinks: true)
    try ContainerFolder.create(container + "/" + Self.basesFolder)
    let lockPath = container + "/" + Self.lockFileName
    let lock: FileDescriptor
    do {
      lock = try FileDescriptor.open(
        FilePath(lockPath), .readWrite, options: [.create, .closeOnExec],
        permissions: [.ownerReadWrite, .groupRead, .otherRead])
    } catch {
      throw ContainerError("cannot open \(lockPath): \(error)")
    }
    self.lock = lock
    do {
      _ = try FileLock.lockExclusively(lock, waiting: true)
    } catch {
      try? lock.close()
      throw ContainerError("cannot lock \(lockPath): \(error)")
    }
    if FolderCalls.exists(container + "/" + Manifest.fileName, followingLinks: true) {
      do {
        current = try Manifest.read(container: container)
      } catch {
        try? lock.close()
        throw ContainerError(error.description)
      }
    } else {
      current = nil
    }
  }

  deinit {
    guard let lock else { return }
    removeAdoptedHere()  // Not committed: what this change adopted is named by no manifest.
    if createdContainer {
      // Only what init made, and only if still empty (rmdir refuses otherwise).
      FolderCalls.removeFile(container + "/" + Self.lockFileName)
      FolderCalls.removeFolder(container + "/" + Self.basesFolder)
      FolderCalls.removeFolder(container)
    }
    try? lock.close()  // Closing the descriptor releases the flock.
  }

  /// A base file moved into `bases/`: its name relative to the container, hash and size.
  package struct AdoptedFile: Sendable {
    /// `bases/NAME.HASH16.cdb`, relative to the container.
    package let file: String
    /// SHA-256 of the bytes, 64 lowercase hex digits.
    package let sha256: String
    /// Size in bytes.
    package let byteCount: Int
  }

  /// Hashes a finished (fsynced) file and moves it into `bases/` under its content-addressed
  /// name. A file of that name already holds the same bytes; it is replaced by an identical one.
  /// - Parameters:
  ///   - temporaryPath: the file, on the container's file system (the move is a rename).
  ///   - name: the base's name in the manifest: letters, digits, `-`, `_` and `.`.
  ///   - sha256: the file's hex digest when the caller has just read it back (several files
  ///     hashed at once); nil to have it read here.
  /// - Throws: ``ContainerError`` when the file cannot be read or moved.
  package func adopt(_ temporaryPath: String, name: String, sha256: String? = nil)
    throws(ContainerError) -> AdoptedFile
  {
    guard let digest = sha256 ?? SHA256.hexDigest(ofFile: temporaryPath) else {
      throw ContainerError("cannot read back \(temporaryPath)")
    }
    let byteCount: Int
    do {
      byteCount = Int(try FilePath(temporaryPath).stat().size)
    } catch {
      throw ContainerError("cannot stat \(temporaryPath): \(error)")
    }
    let file = Self.basesFolder + "/" + name + "." + digest.prefix(16) + ".cdb"
    let wasThere = FolderCalls.exists(container + "/" + file)
    do {
      try AtomicFileWriter.moveDurably(temporaryPath, to: container + "/" + file)
    } catch {
      throw ContainerError(error.description)
    }
    if !wasThere { adoptedHere.append(file) }
    if let stamp = FileStamp(path: container + "/" + file) {
      adoptedStamps.append((file, digest, stamp))
    }
    return AdoptedFile(file: file, sha256: digest, byteCount: byteCount)
  }

  /// Makes `manifest` the container's, with one atomic rename, then removes the files no
  /// manifest names any more. Every file `manifest` names must already be in place.
  /// - Throws: ``ContainerError`` when the manifest cannot be written; the container is then as
  ///   it was.
  package func commit(_ manifest: Manifest) throws(ContainerError) {
    guard let lock else { throw ContainerError("\(container): this change was already committed") }
    defer {
      try? lock.close()
      self.lock = nil
    }
    var manifest = manifest
    // One more than the manifest replaced: a writer that planned against the old one can tell.
    let (next, overflowed) = (current?.generation ?? 0).addingReportingOverflow(1)
    manifest.generation = overflowed ? Int.max : next
    do {
      try manifest.write(container: container)
    } catch {
      // The manifest's rename is its last step that can fail: the old one is still the
      // container's, so what this change adopted is named by none.
      removeAdoptedHere()
      throw ContainerError(error.description)
    }
    adoptedHere = []
    let named = removeUnnamedFiles(keeping: [manifest, current].compactMap { $0 })
    if recordsHashStamps { recordAdoptedHashes(keeping: named) }
  }

  /// Records what this change adopted in ``HashStamps``, and forgets the files no manifest names
  /// any more: the next sync then trusts these hashes instead of reading the files again.
  private func recordAdoptedHashes(keeping named: Set<String>) {
    var stamps = HashStamps.read(container: container)
    let recorded = stamps.records.count
    stamps.keepOnly(named)
    guard !adoptedStamps.isEmpty || stamps.records.count != recorded else { return }
    for adopted in adoptedStamps {
      stamps.record(
        adopted.file, sha256: adopted.sha256, hashedAs: adopted.stamp, container: container)
    }
    adoptedStamps = []
    stamps.write(container: container)
  }

  /// Records files a writer hashed and found as the manifest says (a sync's check of what the
  /// system holds), each with the stamp it had when the hash began, while this change holds the
  /// lock. Nothing else changes: the transaction may end without a commit.
  package func recordHashes(_ hashed: [(file: String, sha256: String, stamp: FileStamp)]) {
    guard lock != nil, !hashed.isEmpty else { return }
    var stamps = HashStamps.read(container: container)
    for file in hashed {
      stamps.record(file.file, sha256: file.sha256, hashedAs: file.stamp, container: container)
    }
    stamps.write(container: container)
  }

  /// Removes the files this change adopted (best effort, as ``removeUnnamedFiles(keeping:)``).
  private func removeAdoptedHere() {
    for file in adoptedHere { FolderCalls.removeFile(container + "/" + file) }
    adoptedHere = []
  }

  /// Removes from `bases/` every file the manifests do not name, and writers' leftovers (temporary
  /// files and scratch folders of killed runs) from the container. Best effort: a file that
  /// cannot be removed now is removed by a later writer.
  /// - Returns: the files the manifests (and the journal) name.
  @discardableResult
  private func removeUnnamedFiles(keeping manifests: [Manifest]) -> Set<String> {
    var named = Set<String>()
    for manifest in manifests {
      for base in manifest.bases {
        named.insert(base.file)
        if let installed = base.installedFile { named.insert(installed) }
      }
    }
    // Files the system may hold after a request iOS made itself: the app adopts them next.
    if let journal = try? ExtensionJournal.read(container: container) {
      for file in journal.files { named.insert(file.file) }
    }
    for entry in ContainerFolder.entries(of: container + "/" + Self.basesFolder) {
      let relative = Self.basesFolder + "/" + entry.name
      // A base's block index (`NAME.cdb.idx`) goes with its base.
      let owner =
        relative.hasSuffix(BlockIndex.fileSuffix)
        ? String(relative.dropLast(BlockIndex.fileSuffix.count)) : relative
      if !named.contains(owner) { ContainerFolder.remove(container + "/" + relative, entry) }
    }
    for entry in ContainerFolder.entries(of: container) where Self.isLeftover(entry.name) {
      ContainerFolder.remove(container + "/" + entry.name, entry)
    }
    return named
  }

  /// Scratch folders and temporary files writers make in the container root. The lock is held,
  /// so no writer that made one is still running; the caller's own scratch is removed by the
  /// caller after the commit.
  static func isLeftover(_ name: String) -> Bool {
    // Not the journal's: the extension writes it without the writers' lock, so one may be in
    // flight.
    // The stamps are written under the lock too, so a temporary of theirs is a dead writer's.
    if name.hasPrefix(Manifest.fileName + ".tmp-") || name.hasPrefix(".stage-")
      || name.hasPrefix(HashStamps.fileName + ".tmp-")
    {
      return true
    }
    // Copies a writer makes before it takes the lock (``stagingPrefix``), and a compile's
    // scratch (it reads and writes its bases before it locks, to adopt them): a leftover only
    // once the process that named it has ended.
    guard let prefix = [stagingPrefix, compileScratchPrefix].first(where: name.hasPrefix) else {
      return false
    }
    let digits = name.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
    guard let processID = Int32(digits) else { return true }
    return !ProcessEnvironment.isRunning(processID)
  }

  /// What a compile's scratch folder in the container is named: `.compile-` and its process ID.
  package static let compileScratchPrefix = ".compile-"

  /// What the names of copies made outside the lock start with, followed by the writer's
  /// process ID and `-`: `ContainerApp.stage` copies and verifies a base before it locks.
  package static let stagingPrefix = ".staging-"

  /// A path in the container for a copy made outside the lock by this process: on the
  /// container's file system (``adopt(_:name:sha256:)`` renames it), and never taken for a
  /// leftover while this process runs.
  package static func stagingPath(in container: String, _ tag: String) -> String {
    container + "/" + stagingPrefix + String(ProcessEnvironment.processID) + "-" + tag + ".cdb"
  }
}

/// Why a container could not be changed: one line. The container is as it was.
package struct ContainerError: Error, CustomStringConvertible, Equatable {
  /// The line.
  package let description: String

  /// An error saying `description`.
  package init(_ description: String) { self.description = description }
}
