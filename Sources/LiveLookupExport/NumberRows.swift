import BaseFormat
import CallDirectoryLoader

/// The numbers of the two merges side by side, ascending: each number once, with its winning
/// label (identification) and whether a blocking list holds it, and the onboarding identity
/// slotted in where it belongs unless the data already has that number.
struct NumberRows {
  struct Row: Equatable {
    var number: Int64
    var label: String?
    var blocked: Bool
    /// The label is Apple's onboarding identity, filling a gap in the data.
    var isTestIdentity = false
  }

  private let identification: MergedList
  private let blocking: MergedList
  private var nextIdentified: BaseEntry?
  private var nextBlocked: Int64?
  private var testIdentity: (number: Int64, name: String)?
  private var started = false

  init(
    identification: MergedList, blocking: MergedList,
    testIdentity: (number: Int64, name: String)?
  ) {
    self.identification = identification
    self.blocking = blocking
    self.testIdentity = testIdentity
  }

  /// The next number, or nil at the end (after both merges verified their bases' checksums).
  mutating func next() throws(BaseFormatError) -> Row? {
    if !started {
      started = true
      nextIdentified = try identification.next()?.entry
      nextBlocked = try blocking.next()?.entry.number
    }
    let lowest = [nextIdentified?.number, nextBlocked, testIdentity?.number].compactMap { $0 }
      .min()
    guard let number = lowest else { return nil }
    var row = Row(number: number, label: nil, blocked: false)
    if let entry = nextIdentified, entry.number == number {
      row.label = entry.label
      nextIdentified = try identification.next()?.entry
    }
    if nextBlocked == number {
      row.blocked = true
      nextBlocked = try blocking.next()?.entry.number
    }
    if let test = testIdentity, test.number == number {
      // The data's own entry for the number wins; the test identity fills only a gap.
      if row.label == nil || row.label!.isEmpty {
        row.label = test.name
        row.isTestIdentity = true
      }
      testIdentity = nil
    }
    return row
  }
}
