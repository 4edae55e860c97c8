import BaseFormat
import ByteCoding
import CallDirectoryCore
import Foundation
import SystemCalls

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
  private let selectEntryLabel: SQLiteStatement
  /// Numbers whose entries this request removed, and the labels those entries had: at commit,
  /// the `PhoneNumber` and `Label` rows no entry names any more go too, so a store after any
  /// sequence of requests equals a fresh install table by table (issue 52, item 4: an update
  /// that removed 5% of 500 k rows left 25,000 numbers and 3,555 labels behind).
  private var removedNumbers: [Int64] = []
  private var removedLabels: Set<Int64> = []
  /// Whether a whole list was removed while other extensions may share the rows: every
  /// `PhoneNumber` and `Label` row is checked at commit.
  private var sweepsEveryRow = false
  /// Label ids seen in this request, keyed by the label's UTF-8 bytes: labels repeat (three spam
  /// labels, a company's branches), and a dictionary lookup is far cheaper than SQLite's. Bytes,
  /// not `String`: a String key hashes through Unicode normalization, which showed in profiles.
  private var labelIDs = LabelIDCache()
  private var finished = false
  /// The extension's state to set in the same commit as the entries (a Settings switch whose
  /// load succeeded), so a kill can never leave one without the other.
  var stateOnCommit: ExtensionState?
  /// Rows are written 100 per statement: per-statement work (step, reset, binding, the VDBE
  /// program's start) dominated single-row inserts in profiles.
  static let rowsPerStatement = 100
  private let insertNumbers: SQLiteStatement
  private let insertIdentifications: SQLiteStatement
  private let insertBlockings: SQLiteStatement
  private var pendingIdentification: [(number: Int64, labelID: Int64)] = []
  private var pendingBlocking: [Int64] = []
  /// A test hook: the store refuses the write that would take the request past this many entry
  /// rows, as a full disk would (`SimulatedSystem.storeFailsAfterRows`). Nil: never.
  var failsAfterRows: Int?
  private var rowsWritten = 0

  init(store: CallDirectoryStore, extensionID: Int64, incremental: Bool) throws {
    self.store = store
    self.extensionID = extensionID
    self.incremental = incremental
    let database = store.database
    // The foreign keys stay in the schema and are enforced everywhere else, but not on the
    // request's own inserts: this transaction writes each number's PhoneNumber row in the same
    // flush as its entry, takes label ids from the Label table and the extension's id from
    // Extension, so what the three parent lookups an entry would cost check always holds. They
    // were 40% of SQLite's work per entry (measured); `foreignKeyViolations()` is tested empty
    // after every kind of request. (The pragma has no effect inside a transaction.)
    try database.execute("PRAGMA foreign_keys = OFF")
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
      let rows = Self.rowsPerStatement
      insertNumbers = try database.prepare(
        "INSERT OR IGNORE INTO PhoneNumber (id, number) VALUES "
          + Array(repeating: "(?, ?)", count: rows).joined(separator: ", "))
      insertIdentifications = try database.prepare(
        "INSERT OR REPLACE INTO PhoneNumberIdentificationEntry (extension_id, phone_number_id, label_id) VALUES "
          + Array(repeating: "(?, ?, ?)", count: rows).joined(separator: ", "))
      insertBlockings = try database.prepare(
        "INSERT OR IGNORE INTO PhoneNumberBlockingEntry (extension_id, phone_number_id) VALUES "
          + Array(repeating: "(?, ?)", count: rows).joined(separator: ", "))
      deleteIdentification = try database.prepare(
        "DELETE FROM PhoneNumberIdentificationEntry WHERE extension_id = ? AND phone_number_id = ?")
      deleteBlocking = try database.prepare(
        "DELETE FROM PhoneNumberBlockingEntry WHERE extension_id = ? AND phone_number_id = ?")
      selectEntryLabel = try database.prepare(
        "SELECT label_id FROM PhoneNumberIdentificationEntry WHERE extension_id = ? AND phone_number_id = ?"
      )
      if !incremental {
        try removeAllIdentificationEntries()
        try removeAllBlockingEntries()
        // The only extension's complete request: no row is shared, so numbers and labels go
        // whole now (cheaper than checking each at commit) and come back as the entries do.
        if try database.integer("SELECT count(*) FROM Extension") == 1 {
          try database.execute("DELETE FROM PhoneNumber; DELETE FROM Label;")
          sweepsEveryRow = false
        }
      }
    } catch {
      try? database.execute("ROLLBACK")
      throw error
    }
  }

  deinit { rollback() }

  private func labelID(_ label: ByteView) throws -> Int64 {
    if let id = labelIDs[label] { return id }
    insertLabel.bind(utf8: label, at: 1)
    try insertLabel.run()
    selectLabel.bind(utf8: label, at: 1)
    defer { selectLabel.reset() }
    guard try selectLabel.step() else { throw HostError.store("label vanished") }
    let id = selectLabel.int64(at: 0)
    labelIDs.insert(label, id: id)
    return id
  }

  /// Stores an identification entry (replacing the number's label in an incremental request).
  public func addIdentification(_ number: Int64, label: String) throws {
    var copy = label
    try copy.withUTF8 { unsafe try addIdentification(number, labelUTF8: ByteView($0)) }
  }

  /// Stores an identification entry whose label is given as valid UTF-8 bytes.
  package func addIdentification(_ number: Int64, labelUTF8: ByteView) throws {
    pendingIdentification.append((number, try labelID(labelUTF8)))
    if pendingIdentification.count == Self.rowsPerStatement { try flushIdentification() }
  }

  /// Stores a blocking entry.
  public func addBlocking(_ number: Int64) throws {
    pendingBlocking.append(number)
    if pendingBlocking.count == Self.rowsPerStatement { try flushBlocking() }
  }

  private func insertPhoneNumbers(_ numbers: some Collection<Int64>) throws {
    if numbers.count == Self.rowsPerStatement {
      for (index, number) in numbers.enumerated() {
        insertNumbers.bind(number, at: Int32(2 * index + 1))
        insertNumbers.bind(number, at: Int32(2 * index + 2))
      }
      try insertNumbers.run()
    } else {
      for number in numbers {
        insertNumber.bind(number, at: 1)
        try insertNumber.run()
      }
    }
  }

  private func countRows(_ count: Int) throws {
    rowsWritten += count
    if let failsAfterRows, rowsWritten > failsAfterRows {
      throw HostError.store("\(store.path): a write past \(failsAfterRows) rows failed (injected)")
    }
  }

  private func flushIdentification() throws {
    guard !pendingIdentification.isEmpty else { return }
    defer { pendingIdentification.removeAll(keepingCapacity: true) }
    try countRows(pendingIdentification.count)
    try insertPhoneNumbers(pendingIdentification.lazy.map(\.number))
    if pendingIdentification.count == Self.rowsPerStatement {
      for (index, row) in pendingIdentification.enumerated() {
        insertIdentifications.bind(extensionID, at: Int32(3 * index + 1))
        insertIdentifications.bind(row.number, at: Int32(3 * index + 2))
        insertIdentifications.bind(row.labelID, at: Int32(3 * index + 3))
      }
      try insertIdentifications.run()
    } else {
      for row in pendingIdentification {
        insertIdentification.bind(extensionID, at: 1)
        insertIdentification.bind(row.number, at: 2)
        insertIdentification.bind(row.labelID, at: 3)
        try insertIdentification.run()
      }
    }
  }

  private func flushBlocking() throws {
    guard !pendingBlocking.isEmpty else { return }
    defer { pendingBlocking.removeAll(keepingCapacity: true) }
    try countRows(pendingBlocking.count)
    try insertPhoneNumbers(pendingBlocking)
    if pendingBlocking.count == Self.rowsPerStatement {
      for (index, number) in pendingBlocking.enumerated() {
        insertBlockings.bind(extensionID, at: Int32(2 * index + 1))
        insertBlockings.bind(number, at: Int32(2 * index + 2))
      }
      try insertBlockings.run()
    } else {
      for number in pendingBlocking {
        insertBlocking.bind(extensionID, at: 1)
        insertBlocking.bind(number, at: 2)
        try insertBlocking.run()
      }
    }
  }

  /// Writes rows still gathered for a multi-row statement (before removals and the commit, so
  /// the order of changes is kept).
  public func flush() throws {
    try flushIdentification()
    try flushBlocking()
  }

  public func removeIdentification(_ number: Int64) throws {
    try flush()
    selectEntryLabel.bind(extensionID, at: 1)
    selectEntryLabel.bind(number, at: 2)
    if try selectEntryLabel.step() { removedLabels.insert(selectEntryLabel.int64(at: 0)) }
    selectEntryLabel.reset()
    removedNumbers.append(number)
    deleteIdentification.bind(extensionID, at: 1)
    deleteIdentification.bind(number, at: 2)
    try deleteIdentification.run()
  }

  public func removeBlocking(_ number: Int64) throws {
    try flush()
    removedNumbers.append(number)
    deleteBlocking.bind(extensionID, at: 1)
    deleteBlocking.bind(number, at: 2)
    try deleteBlocking.run()
  }

  public func removeAllIdentificationEntries() throws {
    try flush()
    sweepsEveryRow = true
    try store.database.execute(
      "DELETE FROM PhoneNumberIdentificationEntry WHERE extension_id = \(extensionID)")
  }

  public func removeAllBlockingEntries() throws {
    try flush()
    sweepsEveryRow = true
    try store.database.execute(
      "DELETE FROM PhoneNumberBlockingEntry WHERE extension_id = \(extensionID)")
  }

  /// Makes the request's writes visible, atomically.
  public func commit() throws {
    guard !finished else { return }
    do {
      try flush()
    } catch {
      rollback()
      throw error
    }
    finished = true
    do {
      try removeOrphanedRows()
      if let stateOnCommit {
        try store.database.execute(
          "UPDATE Extension SET state = \(stateOnCommit.rawValue), state_last_modified = \(Int64(Date().timeIntervalSince1970)) WHERE id = \(extensionID)"
        )
      }
    } catch {
      try? store.database.execute("ROLLBACK")
      throw error
    }
    // The store's one durable step: SQLite's COMMIT makes the request whole or not at all.
    DurableStep.willTake("commit \(store.path)")
    try store.database.execute("COMMIT")
    store.enforceForeignKeys()
  }

  /// Removes the `PhoneNumber` and `Label` rows that no entry of any extension names any more:
  /// the removed numbers and labels, or every row after a whole list was removed.
  private func removeOrphanedRows() throws {
    let database = store.database
    let unnamedNumber = """
      NOT EXISTS (SELECT 1 FROM PhoneNumberIdentificationEntry e
        WHERE e.extension_id IN (SELECT id FROM Extension) AND e.phone_number_id = PhoneNumber.id)
      AND NOT EXISTS (SELECT 1 FROM PhoneNumberBlockingEntry b
        WHERE b.extension_id IN (SELECT id FROM Extension) AND b.phone_number_id = PhoneNumber.id)
      """
    let unnamedLabel = "id NOT IN (SELECT label_id FROM PhoneNumberIdentificationEntry)"
    if sweepsEveryRow {
      try database.execute("DELETE FROM PhoneNumber WHERE \(unnamedNumber)")
      try database.execute("DELETE FROM Label WHERE \(unnamedLabel)")
      return
    }
    if !removedNumbers.isEmpty {
      let delete = try database.prepare("DELETE FROM PhoneNumber WHERE id = ? AND \(unnamedNumber)")
      for number in removedNumbers {
        delete.bind(number, at: 1)
        try delete.run()
      }
    }
    if !removedLabels.isEmpty {
      // One pass over the entries for all of them (label_id has no index: it would cost every
      // insert more than this costs an update that removed labels).
      try database.execute(
        "DELETE FROM Label WHERE id IN (\(removedLabels.sorted().map(String.init).joined(separator: ","))) AND \(unnamedLabel)"
      )
    }
  }

  /// Discards the request's writes; the previously installed entries stay exactly as they were.
  public func rollback() {
    guard !finished else { return }
    finished = true
    try? store.database.execute("ROLLBACK")
    store.enforceForeignKeys()
  }
}

/// Label → id, looked up by the label's bytes without allocating: a hash of the bytes picks a
/// bucket, and the bytes are compared with what the bucket holds. Only a new label allocates.
struct LabelIDCache {
  private var buckets: [UInt64: [(bytes: [UInt8], id: Int64)]] = [:]

  private static func hash(_ bytes: ByteView) -> UInt64 {
    // FNV-1a, 64-bit: a few cycles a byte, and labels are short.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return hash
  }

  subscript(bytes: ByteView) -> Int64? {
    guard let bucket = buckets[Self.hash(bytes)] else { return nil }
    for candidate in bucket where bytes.equals(candidate.bytes) { return candidate.id }
    return nil
  }

  mutating func insert(_ bytes: ByteView, id: Int64) {
    var copy: [UInt8] = []
    copy.append(contentsOf: bytes)
    buckets[Self.hash(bytes), default: []].append((copy, id))
  }
}
