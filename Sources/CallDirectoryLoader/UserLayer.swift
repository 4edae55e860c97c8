import DirectoryContainer

/// The user's lists as the loader layers them over the directory (see
/// `DirectoryContainer.UserLists` for what wins): the blocked numbers and ranges joined into one
/// ascending list of disjoint ranges, the allowed numbers, the labels, and whether blocking is
/// paused. A copy the app staged (``UserListsFile/sendingName``) or the system holds
/// (``UserListsFile/installedName``) says "paused" exactly when it holds a pause line: the app
/// drops a pause that has ended when it stages, so the extension never reads the clock.
struct UserLayer: Equatable {
  /// Every number the user blocks, as ascending disjoint ranges.
  let blocked: [ClosedRange<Int64>]
  let allowed: [Int64]
  let labels: [UserLists.Label]
  let paused: Bool

  /// The lists with nothing in them.
  static let empty = UserLayer(UserLists())

  init(_ lists: UserLists) {
    var ranges = lists.blockedRanges
    for number in lists.blockedNumbers { ranges.append(number...number) }
    ranges.sort { $0.lowerBound < $1.lowerBound }
    var joined: [ClosedRange<Int64>] = []
    joined.reserveCapacity(ranges.count)
    for range in ranges {
      if let last = joined.last, range.lowerBound <= last.upperBound &+ 1 {
        joined[joined.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
      } else {
        joined.append(range)
      }
    }
    blocked = joined
    allowed = lists.allowedNumbers
    labels = lists.labels
    paused = lists.pause != nil
  }

  var isEmpty: Bool { blocked.isEmpty && allowed.isEmpty && labels.isEmpty && !paused }

  /// The most entries the layer adds to a request: every number it blocks, and every label.
  var entryBound: Int {
    blocked.reduce(labels.count) { $0 + Int($1.upperBound - $1.lowerBound) + 1 }
  }

  /// Whether the user blocks `number` (paused or not).
  func blocks(_ number: Int64) -> Bool {
    let index = UserLists.firstIndex(in: blocked.count) { blocked[$0].upperBound >= number }
    return index < blocked.count && blocked[index].lowerBound <= number
  }

  func allows(_ number: Int64) -> Bool {
    UserLists.index(of: number, in: allowed) != nil
  }

  func label(of number: Int64) -> String? {
    let index = UserLists.firstIndex(in: labels.count) { labels[$0].number >= number }
    return index < labels.count && labels[index].number == number ? labels[index].text : nil
  }
}
