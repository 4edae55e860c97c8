/// Scratch files and folders named by the process that made them (`manifest.cdm.tmp-4242`,
/// `.compile-4242`, `.publish-4242`, `calldir-two-phase-4242`): the process removes its own when it is
/// interrupted, and the next run removes those of processes that are gone (a SIGKILL leaves
/// them; issue 52, item 9).
@usableFromInline package enum Leftovers {
  /// What comes before the process ID in a scratch name.
  static let markers = [".tmp-", ".compile-", ".publish-", "calldir-two-phase-"]

  /// The process that made the scratch file or folder `name`, or nil when the name is not one.
  @usableFromInline package static func owner(of name: String) -> Int32? {
    guard let dash = name.lastIndex(of: "-") else { return nil }
    let digits = name[name.index(after: dash)...]
    let before = name[...dash]
    guard !digits.isEmpty, digits.count < 11, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      markers.contains(where: { before.hasSuffix($0) })
    else { return nil }
    return Int32(digits)
  }

  /// Removes, from `folder`, the scratch of processes that are no longer running.
  /// - Returns: how many files and folders went.
  @discardableResult
  @usableFromInline package static func removeAbandoned(in folder: String) -> Int {
    remove(in: folder) { owner in
      owner != ProcessEnvironment.processID && !ProcessEnvironment.isRunning(owner)
    }
  }

  /// Removes, from `folder`, this process's own scratch (on an interruption).
  /// - Returns: how many files and folders went.
  @discardableResult
  @usableFromInline package static func removeOwn(in folder: String) -> Int {
    remove(in: folder) { $0 == ProcessEnvironment.processID }
  }

  /// Removes, from `folder` and the folders below it down to `depth` levels, this process's own
  /// scratch: a bench's dataset cache holds one folder per dataset, each with a compile's
  /// container, and `bench two-phase` interrupted left `update.tsv.tmp-PID` and `.compile-PID`
  /// there (issue 65, item 14).
  /// - Returns: how many files and folders went.
  @discardableResult
  @usableFromInline package static func removeOwn(in folder: String, depth: Int) -> Int {
    remove(in: folder, depth: depth) { $0 == ProcessEnvironment.processID }
  }

  /// Removes, from `folder` and the folders below it down to `depth` levels, the scratch of
  /// processes that are no longer running.
  @discardableResult
  @usableFromInline package static func removeAbandoned(in folder: String, depth: Int) -> Int {
    remove(in: folder, depth: depth) { owner in
      owner != ProcessEnvironment.processID && !ProcessEnvironment.isRunning(owner)
    }
  }

  private static func remove(in folder: String, depth: Int = 0, where matches: (Int32) -> Bool)
    -> Int
  {
    var removed = 0
    for entry in FolderCalls.entries(of: folder) {
      guard let owner = owner(of: entry.name) else {
        if depth > 0, entry.isFolder, entry.name != ".", entry.name != ".." {
          removed += remove(in: folder + "/" + entry.name, depth: depth - 1, where: matches)
        }
        continue
      }
      guard matches(owner) else { continue }
      removeTree(folder + "/" + entry.name, isFolder: entry.isFolder)
      removed += 1
    }
    return removed
  }

  /// Removes a file, or a folder and everything under it. Best effort.
  static func removeTree(_ path: String, isFolder: Bool) {
    guard isFolder else {
      FolderCalls.removeFile(path)
      return
    }
    for child in FolderCalls.entries(of: path) {
      removeTree(path + "/" + child.name, isFolder: child.isFolder)
    }
    FolderCalls.removeFolder(path)
  }
}
