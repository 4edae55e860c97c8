import DirectoryContainer
import SystemCalls

/// How the user's lists stand when a sync begins.
struct UserListsStage: Equatable {
  /// The lists as edited differ from what the system holds.
  var pending = false
  /// The edit ends a pause: every blocking entry comes back, which a complete reload and the
  /// chunks after it send (as the full set goes past the cap), not one incremental request.
  var resuming = false
}

extension UserLists {
  /// Whether both hold the same entries and pause, whatever their revisions.
  func holdsTheSame(as other: UserLists) -> Bool {
    var other = other
    other.revision = revision
    return self == other
  }
}

extension ContainerApp {
  /// Stages the lists as edited for this sync's requests (``UserListsFile/sendingName``, which
  /// the extension reads), with a pause that has ended dropped, and says what is pending. The
  /// copy is rewritten only when its entries change: each request of a sync stages again, so
  /// edits made while it runs go out before it ends.
  func stageUserLists() throws(ContainerAppError) -> UserListsStage {
    let editor = userLists()
    let lock = try UserListsEditor.lock(container)
    defer { lock.release() }
    let current = try editor.read(UserListsFile.currentName)
      .resolvingPause(at: WallClock.secondsSinceEpoch())
    let sending = try editor.read(UserListsFile.sendingName)
    if !current.holdsTheSame(as: sending)
      || !FolderCalls.exists(container + "/" + UserListsFile.sendingName) && !current.isEmpty
    {
      try write(current, UserListsFile.sendingName)
    }
    let installed = try editor.read(UserListsFile.installedName)
    return UserListsStage(
      pending: !current.holdsTheSame(as: installed),
      resuming: installed.pause != nil && current.pause == nil)
  }

  /// The user's edits the system does not hold yet, read now (``UserListsEditor/pending()``'s
  /// work, for the status).
  func userListsPendingNow() throws(ContainerAppError) -> UserListsChanges {
    let editor = userLists()
    let current = try editor.read(UserListsFile.currentName)
      .resolvingPause(at: WallClock.secondsSinceEpoch())
    return UserListsChanges(from: try editor.read(UserListsFile.installedName), to: current)
  }

  /// Records the lists a committed request sent as the ones the system holds: the staged copy
  /// when the journal's digest of it is that copy's, none when the request sent none. Called
  /// before the manifest acknowledges the request, so a kill in between leaves the request
  /// unacknowledged, and the next sync reloads completely rather than trust a stale copy.
  /// - Parameter files: the journal's files, or nil for an extension that keeps no journal
  ///   (the staged copy is then taken as sent).
  /// - Returns: false when the journal names another copy than the one staged (the system
  ///   holds lists the app no longer has): only a complete reload makes them known.
  func recordUserListsSent(_ files: [ExtensionJournal.File]?) throws(ContainerAppError) -> Bool {
    let editor = userLists()
    let lock = try UserListsEditor.lock(container)
    defer { lock.release() }
    let sending = try editor.read(UserListsFile.sendingName)
    let sent = files.map { $0.first { $0.name == UserListsFile.journalName } }
    switch sent {
    case .none:
      try write(sending, UserListsFile.installedName)
    case .some(.none):
      try remove(UserListsFile.installedName)
    case .some(.some(let file)):
      guard file.sha256 == UserListsFile.digest(sending) else { return false }
      try write(sending, UserListsFile.installedName)
    }
    return true
  }

  private func write(_ lists: UserLists, _ name: String) throws(ContainerAppError) {
    do throws(UserListsFile.Failure) {
      try UserListsFile.write(lists, container: container, name: name)
    } catch {
      throw ContainerAppError(error.description, file: container + "/" + name)
    }
  }

  private func remove(_ name: String) throws(ContainerAppError) {
    do throws(UserListsFile.Failure) {
      try UserListsFile.remove(container: container, name: name)
    } catch {
      throw ContainerAppError(error.description, file: container + "/" + name)
    }
  }
}
