import DirectoryContainer
import SystemCalls

/// One update's own downloads folder, `.downloads/update-PID-TAG` in the container (issue 52,
/// item 7: two updates shared `.downloads/`, and each one's preparation removed the other's
/// files).
///
/// An update claims what earlier updates left for it to resume: the folders of processes that
/// are gone (killed), folders an update in this process gave up (`idle-TAG`: failed or
/// cancelled), and loose files from before the folders were per update. Each is taken by
/// `rename`, so when two updates start together each file goes to exactly one of them. A
/// running update's folder is never touched. No lock is held while it downloads: iOS ends a
/// suspended app that holds a file lock in a shared container (0xDEAD10CC).
struct UpdateDownloads {
  /// `.downloads` in the container.
  let root: String
  /// This update's folder inside it.
  let folder: String
  /// The tag that names the folder apart from other updates of this process.
  private let tag: String

  /// The prefix of a running update's folder: `update-PID-TAG`.
  static let runningPrefix = "update-"
  /// The prefix of a folder an update gave up, for the next one to resume: `idle-TAG`.
  static let idlePrefix = "idle-"

  /// Makes this update's folder under `root` and moves into it what earlier updates left.
  /// - Throws: ``ContainerAppError`` when the folder cannot be made.
  init(root: String) throws {
    self.root = root
    tag = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    folder = root + "/" + Self.runningPrefix + "\(ProcessEnvironment.processID)-" + tag
    do { try ContainerFolder.create(folder) } catch {
      throw ContainerAppError(error.description)
    }
    for entry in FolderCalls.entries(of: root) where root + "/" + entry.name != folder {
      let path = root + "/" + entry.name
      if !entry.isFolder {
        take(path, named: entry.name)
      } else if Self.isLeftOver(entry.name) {
        for file in FolderCalls.entries(of: path) where !file.isFolder {
          take(path + "/" + file.name, named: file.name)
        }
        ContainerFolder.removeTree(path)
      }
    }
  }

  /// Whether the folder `name` is one no running update owns: an idle one, or a running one's
  /// whose process is gone.
  static func isLeftOver(_ name: String) -> Bool {
    if name.hasPrefix(idlePrefix) { return true }
    guard name.hasPrefix(runningPrefix) else { return false }
    let owner = name.dropFirst(runningPrefix.count).prefix { $0 != "-" }
    guard let processID = Int32(owner) else { return true }
    return processID != ProcessEnvironment.processID && !ProcessEnvironment.isRunning(processID)
  }

  /// Moves a left file into this update's folder; one of that name already here wins.
  private func take(_ path: String, named name: String) {
    if FolderCalls.exists(folder + "/" + name) || !FolderCalls.move(path, to: folder + "/" + name) {
      FolderCalls.removeFile(path)
    }
  }

  /// Ends the update's use of its folder: removed after a success; after a failure kept as
  /// `idle-TAG` for the next update to resume, or removed when empty. `.downloads` itself goes
  /// when nothing else is in it.
  func finish(succeeded: Bool) {
    if succeeded || FolderCalls.entries(of: folder).isEmpty {
      ContainerFolder.removeTree(folder)
    } else {
      FolderCalls.move(folder, to: root + "/" + Self.idlePrefix + tag)
    }
    FolderCalls.removeFolder(root)
  }
}
