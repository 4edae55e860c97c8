import DirectoryContainer
import PhoneNormalization
import SystemCalls

/// The user's own lists, as the app edits them: block, allow, unblock, label, block a prefix,
/// pause and resume, clear, export and import (see `DirectoryContainer.UserLists` for what
/// wins). Each edit is written to the container atomically and durably, under a lock of its
/// own (never the writers' lock a compile or an update holds, so an edit never waits for one),
/// and reaches the system at the next ``ContainerApp/sync(manager:bundleID:maximumRequests:events:)``:
/// it stays pending (``pending()``) until a request that sent it commits, and a request that
/// fails, expires or is killed is sent again, the same difference. Nothing the directory does
/// (an update, a compile, a choice of regions, a restore) reads or writes these files.
///
/// Numbers are read in any written form, as the compiler reads them (`+33 6 12 34 56 78`,
/// `06 12 34 56 78` with country FR), through `PhoneNormalization.PhoneNormalizer`.
public struct UserListsEditor: Sendable {
  /// The App Group container.
  public let container: String
  /// The country national numbers are read in (ISO code), nil for international ones only.
  public let country: String?

  /// An editor of `container`'s lists reading national numbers as `country`'s.
  public init(container: String, country: String? = nil) {
    (self.container, self.country) = (container, country)
  }

  // MARK: Edits

  /// Blocks the number written `written`, with `label` shown for it when given; takes it off
  /// the allowed list.
  /// - Throws: ``ContainerAppError/Kind/badArgument`` for a number that does not read or a label
  ///   over the limit; the lists are then unchanged.
  public func block(_ written: String, label: String? = nil) async throws(ContainerAppError) {
    let number = try normalized(written)
    if let label { try Self.check(label) }
    try await edit { lists in
      let blocked = lists.block(number)
      let labelled = label.map { lists.setLabel($0, for: number) } ?? false
      return blocked || labelled
    }
  }

  /// Allows the number written `written`: never blocked, whatever blocks it.
  /// - Throws: ``ContainerAppError/Kind/badArgument`` for a number that does not read.
  public func allow(_ written: String) async throws(ContainerAppError) {
    let number = try normalized(written)
    try await edit { $0.allow(number) }
  }

  /// Takes the number off the user's blocked and allowed lists (the directory decides again).
  /// - Throws: ``ContainerAppError/Kind/badArgument`` for a number that does not read.
  public func unblock(_ written: String) async throws(ContainerAppError) {
    let number = try normalized(written)
    try await edit { $0.unblock(number) }
  }

  /// Gives the number `label`, or removes the user's label when `label` is nil.
  /// - Throws: ``ContainerAppError/Kind/badArgument`` for a number that does not read or a
  ///   label that is empty, over `UserLists.maximumLabelBytes` or holds a control character.
  public func label(_ written: String, _ label: String?) async throws(ContainerAppError) {
    let number = try normalized(written)
    if let label { try Self.check(label) }
    try await edit { $0.setLabel(label, for: number) }
  }

  /// Blocks every number a prefix covers, written as a national plan writes it: `+33 162` with
  /// the length its numbers have (`+33 1 62 ## ## ##`, each `#` any digit, trailing only), or a
  /// range `+33162000000..+33162999999`.
  /// - Parameters:
  ///   - written: the prefix or range, as written.
  ///   - force: allow a prefix that is a whole country calling code (`+33 #########`).
  /// - Throws: ``ContainerAppError/Kind/badArgument`` for a prefix that does not read, that
  ///   covers a whole country code without `force`, or that would take the lists past
  ///   `UserLists.maximumNumbers`.
  public func blockPrefix(_ written: String, force: Bool = false) async throws(ContainerAppError) {
    let range = try UserPrefix.range(written, force: force)
    try await edit { $0.block(range) }
  }

  /// Removes a blocked prefix, written as ``blockPrefix(_:force:)`` takes it.
  /// - Throws: ``ContainerAppError/Kind/badArgument`` for a prefix that does not read.
  public func unblockPrefix(_ written: String) async throws(ContainerAppError) {
    let range = try UserPrefix.range(written, force: true)
    try await edit { $0.unblock(range) }
  }

  /// Pauses blocking until `end` (seconds since 1970 UTC), or until ``resume()`` when nil.
  /// Labels stay; the next sync removes every blocking entry in one call.
  public func pause(until end: Int64? = nil) async throws(ContainerAppError) {
    try await edit { lists in
      let pause: UserLists.Pause = end.map { .until(secondsSinceEpoch: $0) } ?? .untilResumed
      guard lists.pause != pause else { return false }
      lists.pause = pause
      return true
    }
  }

  /// Pauses blocking for `seconds` from now ("Pause for an hour": 3,600).
  public func pause(for seconds: Int64) async throws(ContainerAppError) {
    let (end, overflowed) = WallClock.secondsSinceEpoch().addingReportingOverflow(max(0, seconds))
    try await pause(until: overflowed ? Int64.max : end)
  }

  /// Ends a pause.
  public func resume() async throws(ContainerAppError) {
    try await edit { lists in
      guard lists.pause != nil else { return false }
      lists.pause = nil
      return true
    }
  }

  /// Empties every list and ends a pause (a sign-out); the next sync removes what they added.
  public func clear() async throws(ContainerAppError) {
    try await edit { lists in
      guard !lists.isEmpty else { return false }
      let revision = lists.revision
      lists = UserLists()
      lists.revision = revision
      return true
    }
  }

  // MARK: Reading

  /// The lists as last edited.
  /// - Throws: ``ContainerAppError`` when the file cannot be read.
  public func entries() async throws(ContainerAppError) -> UserLists {
    try await BlockingWork.run { _ throws(ContainerAppError) in try read(UserListsFile.currentName)
    }
  }

  /// What the system does not hold yet: the lists as edited (a pause that has ended dropped)
  /// against the copy the last committed request sent.
  /// - Throws: ``ContainerAppError`` when a copy cannot be read.
  public func pending() async throws(ContainerAppError) -> UserListsChanges {
    let app = ContainerApp(container: container)
    return try await BlockingWork.run { _ throws(ContainerAppError) in try app.userListsPendingNow()
    }
  }

  /// The lists as a file for the app's backup (``importing(_:)`` reads it back).
  /// - Throws: ``ContainerAppError`` when the file cannot be read.
  public func exported() async throws(ContainerAppError) -> String {
    UserListsFile.encoded(try await entries())
  }

  /// Replaces the lists with an export's.
  /// - Throws: ``ContainerAppError/Kind/badArgument`` for text that is not a lists file, or is
  ///   one from a newer version; the lists are then unchanged.
  public func importing(_ text: String) async throws(ContainerAppError) {
    let imported: UserLists
    do {
      imported = try UserListsFile.parse(text, source: "the imported lists")
    } catch {
      throw ContainerAppError(error.description, kind: .badArgument)
    }
    try await edit { lists in
      let revision = lists.revision
      guard lists != imported else { return false }
      lists = imported
      lists.revision = revision
      return true
    }
  }

  // MARK: The work

  func read(_ name: String) throws(ContainerAppError) -> UserLists {
    do {
      return try UserListsFile.read(container: container, name: name)
    } catch {
      throw ContainerAppError(error.description, file: container + "/" + name)
    }
  }

  /// Reads the lists, applies `change` and, when it changed them, writes them back with the
  /// next revision: all under the edits' lock, on the library's own threads.
  private func edit(_ change: @escaping @Sendable (inout UserLists) -> Bool)
    async throws(ContainerAppError)
  {
    let container = container
    try await BlockingWork.run { _ throws(ContainerAppError) in
      let lock = try Self.lock(container)
      defer { lock.release() }
      var lists = try read(UserListsFile.currentName)
      guard change(&lists) else { return }
      guard lists.numberCount <= UserLists.maximumNumbers else {
        throw ContainerAppError(
          "the lists would hold \(lists.numberCount) numbers, more than the \(UserLists.maximumNumbers) they may hold",
          kind: .badArgument)
      }
      lists.revision += 1
      do throws(UserListsFile.Failure) {
        try UserListsFile.write(lists, container: container, name: UserListsFile.currentName)
      } catch {
        throw ContainerAppError(
          error.description, file: container + "/" + UserListsFile.currentName)
      }
    }
  }

  /// The edits' lock on `container`.
  static func lock(_ container: String) throws(ContainerAppError) -> UserListsLock {
    do throws(ContainerError) {
      return try UserListsLock(container: container)
    } catch {
      throw ContainerAppError(error.description)
    }
  }

  func normalized(_ written: String) throws(ContainerAppError) -> Int64 {
    do {
      return try PhoneNormalizer(country: country).normalize(written)
    } catch {
      throw ContainerAppError("'\(written)' is not a phone number: \(error)", kind: .badArgument)
    }
  }

  static func check(_ label: String) throws(ContainerAppError) {
    if let problem = UserListsFile.labelProblem(label) {
      throw ContainerAppError(problem, kind: .badArgument)
    }
  }
}

extension ContainerApp {
  /// The user's own lists in this container, national numbers read as `country`'s (ISO code).
  public func userLists(country: String? = nil) -> UserListsEditor {
    UserListsEditor(container: container, country: country)
  }
}
