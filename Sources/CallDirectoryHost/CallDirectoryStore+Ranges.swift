extension CallDirectoryStore {
  /// How many of the numbers `first...last` the extension has installed, in its blocking list
  /// or its identification list: what `app status` shows for each pattern rule's range
  /// (issue 54). A number's row id is the number itself (`StoreTransaction`), so this is one
  /// range scan of the entry table's primary key, not of every number the store holds.
  /// - Throws: `HostError.store` when the database cannot be read.
  public func installedCount(
    of bundleID: String, blocking: Bool, numbersFrom first: Int64, through last: Int64
  ) throws -> Int {
    let id = try extensionID(bundleID)
    let table = blocking ? "PhoneNumberBlockingEntry" : "PhoneNumberIdentificationEntry"
    let count = try database.integer(
      """
      SELECT count(*) FROM \(table) WHERE extension_id = ? AND phone_number_id BETWEEN ? AND ?
      """, [id, first, last])
    return Int(count ?? 0)
  }
}
