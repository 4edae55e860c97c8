import BaseFormat
import DirectoryContainer

/// One list's runs as the system is to hold them: the directory's merge cut to the cap, with
/// the user's layer over it. Identification: the user's labels replace the directory's for
/// their numbers and add the others. Blocking: the user's ranges joined to the directory's,
/// less the allowed numbers, and nothing while paused. Ascending and disjoint, as a request
/// must send them; blocking runs carry no label (a blocked number has none to compare).
///
/// ``directoryAdmitted`` counts the directory's entries the cap let through (allowed or not):
/// the prefix the install progress records is the directory's, and the user's entries ride
/// above it.
struct LayeredRuns {
  typealias Run = MergedList.Run
  /// The priority of the user's entries: above every base's.
  static let userPriority = Int.max

  private let list: MergedList
  private var filter: CapFilter
  private let kind: BaseKind
  private let layer: UserLayer
  private(set) var directoryAdmitted = 0
  private var directory: Run?
  private var directoryEnded = false
  private var userIndex = 0
  private var userRange: ClosedRange<Int64>?
  private var allowIndex = 0
  private var carried: Run?

  init(_ list: MergedList, filter: CapFilter, kind: BaseKind, layer: UserLayer) {
    (self.list, self.filter, self.kind, self.layer) = (list, filter, kind, layer)
  }

  /// The next run, or nil at the end.
  mutating func next() throws(BaseFormatError) -> Run? {
    if kind == .identification { return try nextIdentification() }
    if layer.paused {
      // Nothing is sent, but the directory's prefix is still counted.
      while try nextDirectoryRun() != nil {}
      return nil
    }
    while true {
      let next: Run?
      if let carried {
        next = carried
        self.carried = nil
      } else {
        next = try nextBlockingUnion()
      }
      guard var run = next else { return nil }
      // Allowed numbers are cut out: the run before one is sent, the rest carried.
      while allowIndex < layer.allowed.count, layer.allowed[allowIndex] < run.first {
        allowIndex += 1
      }
      guard allowIndex < layer.allowed.count, layer.allowed[allowIndex] <= run.last else {
        return run
      }
      let allowed = layer.allowed[allowIndex]
      allowIndex += 1
      if allowed < run.last {
        carried = Run(first: allowed + 1, last: run.last, label: "", priority: run.priority)
      }
      if allowed > run.first {
        run.last = allowed - 1
        return run
      }
    }
  }

  /// The directory's next run the cap admits, cut to what it admits.
  private mutating func nextDirectoryRun() throws(BaseFormatError) -> Run? {
    guard !directoryEnded else { return nil }
    while var run = try list.nextRun() {
      let admitted = filter.admits(priority: run.priority, count: run.count)
      guard admitted > 0 else { continue }
      directoryAdmitted += admitted
      run.last = run.first + Int64(admitted - 1)
      return run
    }
    directoryEnded = true
    return nil
  }

  private mutating func nextIdentification() throws(BaseFormatError) -> Run? {
    if directory == nil { directory = try nextDirectoryRun() }
    let label = userIndex < layer.labels.count ? layer.labels[userIndex] : nil
    switch (directory, label) {
    case (nil, nil):
      return nil
    case (nil, let label?):
      userIndex += 1
      return Self.point(label)
    case (let run?, nil):
      directory = nil
      return run
    case (var run?, let label?):
      if label.number < run.first {
        userIndex += 1
        return Self.point(label)
      }
      if label.number > run.last {
        directory = nil
        return run
      }
      if label.number > run.first {
        // The directory's numbers before the user's label, then the label.
        directory!.first = label.number
        run.last = label.number - 1
        return run
      }
      userIndex += 1
      if run.first == run.last { directory = nil } else { directory!.first += 1 }
      return Self.point(label)
    }
  }

  private static func point(_ label: UserLists.Label) -> Run {
    Run(first: label.number, last: label.number, label: label.text, priority: userPriority)
  }

  /// The next run of the directory's blocking runs joined with the user's ranges.
  private mutating func nextBlockingUnion() throws(BaseFormatError) -> Run? {
    if directory == nil { directory = try nextDirectoryRun() }
    if userRange == nil, userIndex < layer.blocked.count {
      userRange = layer.blocked[userIndex]
      userIndex += 1
    }
    switch (directory, userRange) {
    case (nil, nil):
      return nil
    case (nil, let user?):
      userRange = nil
      return Run(
        first: user.lowerBound, last: user.upperBound, label: "", priority: Self.userPriority)
    case (let run?, nil):
      directory = nil
      return Run(first: run.first, last: run.last, label: "", priority: run.priority)
    case (let run?, let user?):
      if run.last < user.lowerBound {
        directory = nil
        return Run(first: run.first, last: run.last, label: "", priority: run.priority)
      }
      if user.upperBound < run.first {
        userRange = nil
        return Run(
          first: user.lowerBound, last: user.upperBound, label: "", priority: Self.userPriority)
      }
      // They overlap: what starts first goes up to where the other starts, then the shared
      // stretch is sent once.
      if run.first < user.lowerBound {
        directory!.first = user.lowerBound
        return Run(first: run.first, last: user.lowerBound - 1, label: "", priority: run.priority)
      }
      if user.lowerBound < run.first {
        userRange = run.first...user.upperBound
        return Run(
          first: user.lowerBound, last: run.first - 1, label: "", priority: Self.userPriority)
      }
      let end = min(run.last, user.upperBound)
      if end < run.last { directory!.first = end + 1 } else { directory = nil }
      if end < user.upperBound { userRange = (end + 1)...user.upperBound } else { userRange = nil }
      return Run(first: run.first, last: end, label: "", priority: Self.userPriority)
    }
  }
}
