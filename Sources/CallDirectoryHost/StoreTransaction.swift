import CallDirectoryCore

/// The writes of one request, in one SQLite transaction. A complete request first removes the
/// extension's installed entries (inside the transaction, so a failure restores them); entries
/// then go in through prepared statements. Callers check the contract before writing.
public final class StoreTransaction {
  let store: CallDirectoryStore
  let extensionID: Int64
  let incremental: Bool
  private let insertNumber: SQLiteStatement
  private let insertLabel: SQLiteStatement
  private let selectLabel: SQLiteStatement
  private let insertIdentification: SQLiteStatement
  private let insertBlocking: SQLiteStatement
  private let deleteIdentification: SQLiteStatement
  private let deleteBlocking: SQLiteStatement
  /// Label ids seen in this request: labels repeat (three spam labels, a company's branches),
  /// and a dictionary lookup is far cheaper than SQLite's.
  private var labelIDs: [String: Int64] = [:]
  private var finished = false

  init(store: CallDirectoryStore, extensionID: Int64, incremental: Bool) throws {
    self.store = store
    self.extensionID = extensionID
    self.incremental = incremental
    let database = store.database
    try database.execute("BEGIN IMMEDIATE")
    do {
      insertNumber = try database.prepare(
        "INSERT OR IGNORE INTO PhoneNumber (id, number) VALUES (?1, ?1)")
      insertLabel = try database.prepare("INSERT OR IGNORE INTO Label (localized_label) VALUES (?)")
      selectLabel = try database.prepare("SELECT id FROM Label WHERE localized_label = ?")
      insertIdentification = try database.prepare(
        """
        INSERT OR REPLACE INTO PhoneNumberIdentificationEntry (extension_id, phone_number_id, label_id)
        VALUES (?, ?, ?)
        """)
      insertBlocking = try database.prepare(
        "INSERT OR IGNORE INTO PhoneNumberBlockingEntry (extension_id, phone_number_id) VALUES (?, ?)"
      )
      deleteIdentification = try database.prepare(
        "DELETE FROM PhoneNumberIdentificationEntry WHERE extension_id = ? AND phone_number_id = ?")
      deleteBlocking = try database.prepare(
        "DELETE FROM PhoneNumberBlockingEntry WHERE extension_id = ? AND phone_number_id = ?")
      if !incremental {
        try removeAllIdentificationEntries()
        try removeAllBlockingEntries()
      }
    } catch {
      try? database.execute("ROLLBACK")
      throw error
    }
  }

  deinit { rollback() }

  private func labelID(_ label: String) throws -> Int64 {
    if let id = labelIDs[label] { return id }
    insertLabel.bind(label, at: 1)
    try insertLabel.run()
    selectLabel.bind(label, at: 1)
    defer { selectLabel.reset() }
    guard try selectLabel.step() else { throw HostError.store("label vanished") }
    let id = selectLabel.int64(at: 0)
    labelIDs[label] = id
    return id
  }

  /// Stores an identification entry (replacing the number's label in an incremental request).
  public func addIdentification(_ number: Int64, label: String) throws {
    insertNumber.bind(number, at: 1)
    try insertNumber.run()
    insertIdentification.bind(extensionID, at: 1)
    insertIdentification.bind(number, at: 2)
    insertIdentification.bind(try labelID(label), at: 3)
    try insertIdentification.run()
  }

  /// Stores a blocking entry.
  public func addBlocking(_ number: Int64) throws {
    insertNumber.bind(number, at: 1)
    try insertNumber.run()
    insertBlocking.bind(extensionID, at: 1)
    insertBlocking.bind(number, at: 2)
    try insertBlocking.run()
  }

  public func removeIdentification(_ number: Int64) throws {
    deleteIdentification.bind(extensionID, at: 1)
    deleteIdentification.bind(number, at: 2)
    try deleteIdentification.run()
  }

  public func removeBlocking(_ number: Int64) throws {
    deleteBlocking.bind(extensionID, at: 1)
    deleteBlocking.bind(number, at: 2)
    try deleteBlocking.run()
  }

  public func removeAllIdentificationEntries() throws {
    try store.database.execute(
      "DELETE FROM PhoneNumberIdentificationEntry WHERE extension_id = \(extensionID)")
  }

  public func removeAllBlockingEntries() throws {
    try store.database.execute(
      "DELETE FROM PhoneNumberBlockingEntry WHERE extension_id = \(extensionID)")
  }

  /// Makes the request's writes visible, atomically.
  public func commit() throws {
    guard !finished else { return }
    finished = true
    try store.database.execute("COMMIT")
  }

  /// Discards the request's writes; the previously installed entries stay exactly as they were.
  public func rollback() {
    guard !finished else { return }
    finished = true
    try? store.database.execute("ROLLBACK")
  }
}
