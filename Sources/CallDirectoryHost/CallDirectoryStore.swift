import CallDirectoryCore
import Foundation

/// The system's call directory database, with the schema iOS's CallDirectory.db holds (`/var/mobile/Library/CallDirectory/`): `Extension`,
/// `PhoneNumber` (filled with `INSERT OR IGNORE`), `Label`, `PhoneNumberBlockingEntry`,
/// `PhoneNumberIdentificationEntry`, `SchemaVersion`; foreign keys on, 120 s busy timeout.
/// One table of our own, `CalldirRequest`, logs requests for `status`.
///
/// It can be opened with the `sqlite3` shell. Storage choices, measured on the ingest path (each
/// halves the B-trees one entry touches): `PhoneNumber.id` is the number itself, so `INSERT OR
/// IGNORE` deduplicates on the primary key and an entry refers to its number without a lookup;
/// the entry tables are `WITHOUT ROWID`, keyed by (extension, number), which is also how a lookup
/// probes them, one enabled extension at a time; a new store has 16 KiB pages (SQLite's default
/// is 4 KiB): a quarter of the write-ahead log's frames and one B-tree level less, 1.2 s of the
/// 10.6 s that directory-4m took to install past the cap (bench two-phase, one run each).
public final class CallDirectoryStore {
  /// The database file.
  public let path: String
  let database: SQLiteDatabase
  /// The schema version this code creates.
  public static let schemaVersion: Int64 = 1
  /// iOS opens the store with a 120 s busy timeout.
  static let busyTimeoutMilliseconds: Int32 = 120_000

  /// Opens or creates the store at `path`.
  /// - Throws: ``HostError/store(_:)``.
  public init(path: String) throws {
    self.path = path
    database = try SQLiteDatabase(path: path)
    try database.execute(
      """
      PRAGMA page_size = 16384;
      PRAGMA foreign_keys = ON;
      PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds);
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      PRAGMA cache_size = -262144;
      PRAGMA temp_store = MEMORY;
      PRAGMA wal_autocheckpoint = 0;
      CREATE TABLE IF NOT EXISTS SchemaVersion (version INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS Extension (
        id INTEGER PRIMARY KEY, bundle_id TEXT NOT NULL UNIQUE,
        priority INTEGER NOT NULL DEFAULT 0, state INTEGER NOT NULL DEFAULT 0,
        state_last_modified REAL);
      CREATE TABLE IF NOT EXISTS PhoneNumber (id INTEGER PRIMARY KEY, number INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS Label (id INTEGER PRIMARY KEY, localized_label TEXT NOT NULL UNIQUE);
      CREATE TABLE IF NOT EXISTS PhoneNumberBlockingEntry (
        extension_id INTEGER NOT NULL REFERENCES Extension(id) ON DELETE CASCADE,
        phone_number_id INTEGER NOT NULL REFERENCES PhoneNumber(id),
        PRIMARY KEY (extension_id, phone_number_id)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS PhoneNumberIdentificationEntry (
        extension_id INTEGER NOT NULL REFERENCES Extension(id) ON DELETE CASCADE,
        phone_number_id INTEGER NOT NULL REFERENCES PhoneNumber(id),
        label_id INTEGER NOT NULL REFERENCES Label(id),
        PRIMARY KEY (extension_id, phone_number_id)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS CalldirRequest (
        id INTEGER PRIMARY KEY, extension_id INTEGER NOT NULL REFERENCES Extension(id),
        started REAL NOT NULL, finished REAL, incremental INTEGER NOT NULL,
        outcome TEXT, error_code INTEGER, entries INTEGER, detail TEXT);
      """)
    if try database.integer("SELECT count(*) FROM SchemaVersion") == 0 {
      try database.execute("INSERT INTO SchemaVersion (version) VALUES (\(Self.schemaVersion))")
    }
  }

  /// Copies the write-ahead log into the database file. A request writes one transaction, and
  /// SQLite's automatic checkpoint would run inside its `COMMIT` (0.4 s of a 1,999,999-entry
  /// request, measured); the system runs it once the request has been answered instead. A
  /// committed request is durable in the log either way.
  public func checkpoint() {
    try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
  }

  /// Turns foreign-key enforcement back on after a request's transaction (see
  /// ``StoreTransaction``), as iOS keeps it.
  func enforceForeignKeys() {
    try? database.execute("PRAGMA foreign_keys = ON")
  }

  /// Whether the connection enforces foreign keys now (it does between requests).
  public var enforcesForeignKeys: Bool {
    (try? database.integer("PRAGMA foreign_keys")) == 1
  }

  /// Rows that refer to a row that does not exist (`PRAGMA foreign_key_check`): 0 in a sound
  /// store.
  /// - Throws: ``HostError/store(_:)``.
  public func foreignKeyViolations() throws -> Int {
    let check = try database.prepare("PRAGMA foreign_key_check")
    var count = 0
    while try check.step() { count += 1 }
    return count
  }

  // MARK: Extensions

  /// The row id of the extension `bundleID`, registering it (state unknown) when new.
  public func extensionID(_ bundleID: String, priority: Int64 = 0) throws -> Int64 {
    let insert = try database.prepare(
      "INSERT OR IGNORE INTO Extension (bundle_id, priority, state) VALUES (?, ?, 0)")
    insert.bind(bundleID, at: 1)
    insert.bind(priority, at: 2)
    try insert.run()
    let select = try database.prepare("SELECT id FROM Extension WHERE bundle_id = ?")
    select.bind(bundleID, at: 1)
    guard try select.step() else {
      throw HostError.store("\(path): extension \(bundleID) vanished")
    }
    return select.int64(at: 0)
  }

  /// The extension's enabled status (unknown when it was never registered).
  public func state(of bundleID: String) throws -> ExtensionState {
    let select = try database.prepare("SELECT state FROM Extension WHERE bundle_id = ?")
    select.bind(bundleID, at: 1)
    guard try select.step() else { return .unknown }
    return ExtensionState(rawValue: select.int64(at: 0)) ?? .unknown
  }

  /// Sets the extension's place in the system's order, as the user reorders extensions in
  /// Settings: a lookup answers from the highest priority first.
  public func setPriority(_ priority: Int64, of bundleID: String) throws {
    _ = try extensionID(bundleID)
    let update = try database.prepare("UPDATE Extension SET priority = ? WHERE bundle_id = ?")
    update.bind(priority, at: 1)
    update.bind(bundleID, at: 2)
    try update.run()
  }

  /// Sets the extension's enabled status, as the Settings switch does.
  public func setState(_ state: ExtensionState, of bundleID: String) throws {
    _ = try extensionID(bundleID)
    let update = try database.prepare(
      "UPDATE Extension SET state = ?, state_last_modified = ? WHERE bundle_id = ?")
    update.bind(state.rawValue, at: 1)
    update.bind(Int64(Date().timeIntervalSince1970), at: 2)
    update.bind(bundleID, at: 3)
    try update.run()
  }

  /// Registered extensions' bundle ids, by descending priority then id.
  public func bundleIDs() throws -> [String] {
    let select = try database.prepare("SELECT bundle_id FROM Extension ORDER BY priority DESC, id")
    var result: [String] = []
    while try select.step() { result.append(select.text(at: 0) ?? "") }
    return result
  }

  // MARK: Entries

  /// Installed entries of one extension.
  public struct EntryCounts: Equatable, Sendable {
    public var identification: Int
    public var blocking: Int
  }

  /// How many entries the extension has installed.
  public func counts(of bundleID: String) throws -> EntryCounts {
    let id = try extensionID(bundleID)
    let identification =
      try database.integer(
        "SELECT count(*) FROM PhoneNumberIdentificationEntry WHERE extension_id = ?", [id]) ?? 0
    let blocking =
      try database.integer(
        "SELECT count(*) FROM PhoneNumberBlockingEntry WHERE extension_id = ?", [id]) ?? 0
    return EntryCounts(identification: Int(identification), blocking: Int(blocking))
  }

  /// Every installed entry of one extension, ascending: identification (number, label) and
  /// blocking numbers. For tests and `status --dump`; memory grows with the entries.
  public func contents(of bundleID: String) throws -> (
    identification: [(Int64, String)], blocking: [Int64]
  ) {
    let id = try extensionID(bundleID)
    let identification = try database.prepare(
      """
      SELECT PhoneNumber.number, Label.localized_label FROM PhoneNumberIdentificationEntry
      JOIN PhoneNumber ON PhoneNumber.id = phone_number_id JOIN Label ON Label.id = label_id
      WHERE extension_id = ? ORDER BY PhoneNumber.number
      """)
    identification.bind(id, at: 1)
    var labelled: [(Int64, String)] = []
    while try identification.step() {
      labelled.append((identification.int64(at: 0), identification.text(at: 1) ?? ""))
    }
    let blocking = try database.prepare(
      """
      SELECT PhoneNumber.number FROM PhoneNumberBlockingEntry
      JOIN PhoneNumber ON PhoneNumber.id = phone_number_id
      WHERE extension_id = ? ORDER BY PhoneNumber.number
      """)
    blocking.bind(id, at: 1)
    var blocked: [Int64] = []
    while try blocking.step() { blocked.append(blocking.int64(at: 0)) }
    return (labelled, blocked)
  }

  /// What an incoming call from `number` shows: blocked if an enabled extension blocks it, else
  /// the label of the highest-priority enabled extension that identifies it, else unknown.
  public func lookup(_ number: Int64) throws -> LookupResult {
    let blocked = try database.prepare(
      """
      SELECT Extension.bundle_id FROM Extension
      JOIN PhoneNumberBlockingEntry ON extension_id = Extension.id AND phone_number_id = ?
      WHERE Extension.state = 2
      ORDER BY Extension.priority DESC, Extension.id LIMIT 1
      """)
    blocked.bind(number, at: 1)
    if try blocked.step() { return .blocked(bundleID: blocked.text(at: 0) ?? "") }
    let identified = try database.prepare(
      """
      SELECT Label.localized_label, Extension.bundle_id FROM Extension
      JOIN PhoneNumberIdentificationEntry ON extension_id = Extension.id AND phone_number_id = ?
      JOIN Label ON Label.id = label_id
      WHERE Extension.state = 2
      ORDER BY Extension.priority DESC, Extension.id LIMIT 1
      """)
    identified.bind(number, at: 1)
    if try identified.step() {
      return .identified(
        label: identified.text(at: 0) ?? "", bundleID: identified.text(at: 1) ?? "")
    }
    return .unknown
  }

  // MARK: Requests

  /// Opens the transaction of one request. Nothing it writes is visible, and nothing installed
  /// before is touched, until ``StoreTransaction/commit()``.
  public func beginRequest(bundleID: String, incremental: Bool) throws -> StoreTransaction {
    let id = try extensionID(bundleID)
    return try StoreTransaction(store: self, extensionID: id, incremental: incremental)
  }

  /// Logs a finished request for `status`.
  func logRequest(
    extensionID: Int64, started: Date, incremental: Bool, outcome: String, errorCode: Int?,
    entries: Int, detail: String
  ) throws {
    let insert = try database.prepare(
      """
      INSERT INTO CalldirRequest (extension_id, started, finished, incremental, outcome,
        error_code, entries, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """)
    insert.bind(extensionID, at: 1)
    insert.bind(Int64(started.timeIntervalSince1970), at: 2)
    insert.bind(Int64(Date().timeIntervalSince1970), at: 3)
    insert.bind(incremental ? 1 : 0, at: 4)
    insert.bind(outcome, at: 5)
    if let errorCode { insert.bind(Int64(errorCode), at: 6) }
    insert.bind(Int64(entries), at: 7)
    insert.bind(detail, at: 8)
    try insert.run()
  }

  /// The last logged request of an extension: outcome, iOS code, detail.
  public func lastRequest(of bundleID: String) throws -> (
    outcome: String, errorCode: Int?, detail: String
  )? {
    let id = try extensionID(bundleID)
    let select = try database.prepare(
      "SELECT outcome, error_code, detail FROM CalldirRequest WHERE extension_id = ? ORDER BY id DESC LIMIT 1"
    )
    select.bind(id, at: 1)
    guard try select.step() else { return nil }
    return (
      select.text(at: 0) ?? "", select.isNull(at: 1) ? nil : Int(select.int64(at: 1)),
      select.text(at: 2) ?? ""
    )
  }
}
