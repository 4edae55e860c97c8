import ByteCoding
import CSQLite
import Foundation

// Safe: `handle` is the connection sqlite3_open_v2 made, open for the object's whole life and
// closed only by deinit; every C string SQLite returns is copied into a String before the next
// call on the connection. @safe: no pointer leaves the class.
/// A thin wrapper over the system's SQLite C API: open, execute, prepared statements.
///
/// The C API rather than GRDB: the host's only hot path is inserting up to 1,999,999 rows through
/// two prepared statements inside one transaction, which the C API does with no per-row
/// allocation; GRDB's records and observation would add build time and nothing this path uses.
@safe package final class SQLiteDatabase {
  package let path: String
  private(set) var handle: OpaquePointer?

  /// Opens (creating) the database at `path`. No SQLite mutex: a connection is used from one
  /// thread at a time (other threads or processes open their own).
  /// - Throws: ``HostError/store(_:)`` naming the path and SQLite's message.
  package init(path: String) throws {
    self.path = path
    var handle: OpaquePointer?
    let status = unsafe sqlite3_open_v2(
      path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
    guard status == SQLITE_OK, let handle = unsafe handle else {
      let message =
        unsafe handle.map { unsafe String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      unsafe sqlite3_close(handle)
      throw HostError.store("\(path): \(message)")
    }
    unsafe self.handle = unsafe handle
  }

  deinit { unsafe sqlite3_close_v2(handle) }

  /// Runs one or more statements that return no rows.
  package func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    guard unsafe sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
      let text = unsafe message.map { unsafe String(cString: $0) } ?? "error"
      unsafe sqlite3_free(message)
      throw HostError.store("\(path): \(text) (in: \(sql.prefix(80)))")
    }
  }

  /// Prepares a statement for repeated use.
  package func prepare(_ sql: String) throws -> SQLiteStatement {
    var statement: OpaquePointer?
    guard
      unsafe sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        == SQLITE_OK, let statement = unsafe statement
    else {
      throw HostError.store("\(path): \(lastError) (preparing: \(sql.prefix(80)))")
    }
    return unsafe SQLiteStatement(statement: statement, database: self)
  }

  package var lastError: String { unsafe String(cString: sqlite3_errmsg(handle)) }

  /// The single integer of a query's first row, or nil when it returns no row.
  package func integer(_ sql: String, _ arguments: [Int64] = []) throws -> Int64? {
    let statement = try prepare(sql)
    for (index, argument) in arguments.enumerated() {
      statement.bind(argument, at: Int32(index + 1))
    }
    guard try statement.step() else { return nil }
    return statement.int64(at: 0)
  }
}

// Safe: `statement` is prepared on `database`, which this object keeps alive (the unowned
// reference is its owner's, which outlives its statements), finalized only by deinit; text is
// bound SQLITE_TRANSIENT (copied by SQLite before the bind returns), and column text is copied
// into a String before the next step. @safe: no pointer leaves the class.
/// A prepared statement; reset and rebound for each row.
@safe package final class SQLiteStatement {
  private let statement: OpaquePointer
  private unowned let database: SQLiteDatabase

  init(statement: OpaquePointer, database: SQLiteDatabase) {
    unsafe self.statement = unsafe statement
    self.database = database
  }

  deinit { unsafe sqlite3_finalize(statement) }

  package func bind(_ value: Int64, at index: Int32) {
    unsafe sqlite3_bind_int64(statement, index, value)
  }

  /// Binds UTF-8 bytes as text that SQLite copies.
  package func bind(utf8 view: ByteView, at index: Int32) {
    let transient = unsafe unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    unsafe view.withUnsafeBytes { bytes in
      _ = unsafe sqlite3_bind_text(
        statement, index, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
        Int32(bytes.count), transient)
    }
  }

  /// Binds text that SQLite copies (`SQLITE_TRANSIENT`, a macro Swift does not import).
  package func bind(_ value: String, at index: Int32) {
    let transient = unsafe unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    var copy = value
    copy.withUTF8 { bytes in
      _ = unsafe bytes.withMemoryRebound(to: CChar.self) {
        unsafe sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), transient)
      }
    }
  }

  /// Steps once: true when a row is available, false when done.
  /// - Throws: ``HostError/store(_:)`` with SQLite's message.
  @discardableResult
  package func step() throws -> Bool {
    let status = unsafe sqlite3_step(statement)
    if status == SQLITE_ROW { return true }
    if status == SQLITE_DONE { return false }
    throw HostError.store("\(database.path): \(database.lastError)")
  }

  /// Runs the statement to completion and resets it for the next use.
  package func run() throws {
    defer { reset() }
    try step()
  }

  package func reset() {
    unsafe sqlite3_reset(statement)
    unsafe sqlite3_clear_bindings(statement)
  }

  /// Binds a double.
  package func bind(double value: Double, at index: Int32) {
    unsafe sqlite3_bind_double(statement, index, value)
  }

  package func double(at column: Int32) -> Double {
    unsafe sqlite3_column_double(statement, column)
  }

  package func int64(at column: Int32) -> Int64 { unsafe sqlite3_column_int64(statement, column) }

  package func text(at column: Int32) -> String? {
    guard let pointer = unsafe sqlite3_column_text(statement, column) else { return nil }
    return unsafe String(cString: pointer)
  }

  package func isNull(at column: Int32) -> Bool {
    unsafe sqlite3_column_type(statement, column) == SQLITE_NULL
  }
}
