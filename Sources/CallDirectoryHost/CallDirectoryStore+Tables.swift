extension CallDirectoryStore {
  /// Every row of the store's entry tables, by value rather than by row id, so two stores can
  /// be compared table by table: a store after any sequence of requests must equal one that
  /// installed the same set fresh, orphaned numbers and labels included (issue 52, item 4).
  public struct Tables: Equatable, Sendable {
    /// `PhoneNumber`: every number, ascending.
    public var numbers: [Int64]
    /// `Label`: every label, sorted.
    public var labels: [String]
    /// `PhoneNumberIdentificationEntry`: bundle ID, number and label, sorted.
    public var identification: [String]
    /// `PhoneNumberBlockingEntry`: bundle ID and number, sorted.
    public var blocking: [String]
  }

  /// The store's entry tables as values.
  /// - Throws: `HostError.store` when the database cannot be read.
  public func tables() throws -> Tables {
    func rows(_ sql: String, _ row: (SQLiteStatement) -> String) throws -> [String] {
      let select = try database.prepare(sql)
      var result: [String] = []
      while try select.step() { result.append(row(select)) }
      return result
    }
    var numbers: [Int64] = []
    let selectNumbers = try database.prepare("SELECT number FROM PhoneNumber ORDER BY number")
    while try selectNumbers.step() { numbers.append(selectNumbers.int64(at: 0)) }
    let labels = try rows("SELECT localized_label FROM Label") { $0.text(at: 0) ?? "" }.sorted()
    let identification = try rows(
      """
      SELECT x.bundle_id, p.number, l.localized_label FROM PhoneNumberIdentificationEntry e
      JOIN Extension x ON x.id = e.extension_id JOIN PhoneNumber p ON p.id = e.phone_number_id
      JOIN Label l ON l.id = e.label_id
      """
    ) { "\($0.text(at: 0) ?? "") \($0.int64(at: 1)) \($0.text(at: 2) ?? "")" }.sorted()
    let blocking = try rows(
      """
      SELECT x.bundle_id, p.number FROM PhoneNumberBlockingEntry b
      JOIN Extension x ON x.id = b.extension_id JOIN PhoneNumber p ON p.id = b.phone_number_id
      """
    ) { "\($0.text(at: 0) ?? "") \($0.int64(at: 1))" }.sorted()
    return Tables(
      numbers: numbers, labels: labels, identification: identification, blocking: blocking)
  }
}
