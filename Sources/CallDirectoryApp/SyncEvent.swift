import CallDirectoryCore

/// What a sync or an update did, as it happens: a case an app switches on (a progress bar, a
/// log, its own words in its own language), with a ``description`` in English for logs.
public enum SyncEvent: Sendable, Equatable {
  /// Request `number` (1-based, in this sync) asks the system to reload the extension:
  /// a complete load, or an incremental one adding up to `targetEntries` (nil: up to the cap).
  case requestStarted(number: Int, incremental: Bool, targetEntries: Int?)
  /// Request `number` ended: nil when the system took its entries, else iOS's error.
  case requestFinished(number: Int, error: CallDirectoryError?)
  /// iOS made a complete request on its own after the app had installed (the user turned the
  /// extension off and on): the system holds its first chunk again, and the sync goes on from
  /// there. The first switch-on is no event: it is what the app expects.
  case systemRequestAdopted
  /// Mended: these installed bases no longer match what was installed (changed or gone), so a
  /// complete reload replaces what the system holds.
  case installedBasesChanged([String])
  /// Mended: the last request's end was never recorded (the app was killed, or the journal is
  /// unreadable), so a complete reload makes what the system holds known.
  case lastRequestUnknown
  /// In one part of a set split across extensions, `count` changed bases hold nothing new for
  /// the part's numbers: taken as installed without a request.
  case changesTakenWithoutRequest(count: Int)
  /// The system killed a request (error 2): the sync retries with chunks of `entries`.
  case chunkHalved(entries: Int)
  /// The system holds no more (error 5): `held` entries, the top priorities, are in; `pending`
  /// wait.
  case stoppedAtCap(held: Int, pending: Int)
  /// A load of the extension was already running (error 7): the next sync goes on.
  case alreadyLoading
  /// An update step: a base fetched whole (`bytes` downloaded) or made from `patches` patches.
  case baseFetched(name: String, bytes: Int)
  /// An update step: a base made from its patch chain.
  case basePatched(name: String, patches: Int)
  /// An update's progress: the phase and how far into it, at each file fetched, before and
  /// after the patches, and at each base staged.
  case updateProgress(UpdateProgress)
  /// The user ended a pause: a complete reload brings the blocking entries back (then the
  /// chunks past the cap, as the full set goes).
  case blockingResumed

  /// Whether something went wrong and was mended, or stopped the sync early: worth a warning in
  /// a log, never an error.
  public var isWarning: Bool {
    switch self {
    case .installedBasesChanged, .lastRequestUnknown, .chunkHalved, .stoppedAtCap,
      .alreadyLoading:
      true
    default: false
    }
  }
}

extension SyncEvent: CustomStringConvertible {
  /// The event in one English line, for logs and the command line.
  public var description: String {
    switch self {
    case .requestStarted(let number, let incremental, let target):
      let kind = incremental ? "incremental" : "complete"
      return "request \(number): \(kind) load" + (target.map { " up to \($0) entries" } ?? "")
    case .requestFinished(let number, let error):
      return "request \(number): " + (error.map { "ended with code \($0.code) (\($0))" } ?? "done")
    case .systemRequestAdopted:
      return
        "the system reloaded the extension on its own (it was turned off and on in Settings): what that reload installed is counted, and the sync goes on from there"
    case .installedBasesChanged(let names):
      return
        "installed \(names.joined(separator: ", ")) no longer match what was installed: a complete reload replaces what the system holds"
    case .lastRequestUnknown:
      return
        "the last request was never recorded (or the journal is unreadable): a complete reload makes what the system holds known"
    case .changesTakenWithoutRequest(let count):
      return
        "\(count) changed \(count == 1 ? "base holds" : "bases hold") nothing new for this part's numbers: taken as installed without a request"
    case .chunkHalved(let entries):
      return "the system killed the request (error 2): retrying with chunks of \(entries) entries"
    case .stoppedAtCap(let held, let pending):
      return
        "the system holds no more than \(held) entries (error 5): the top priorities are in, \(pending) pending"
    case .alreadyLoading:
      return "the system is loading the extension already (error 7): the next sync goes on"
    case .baseFetched(let name, let bytes):
      return "\(name): fetched whole (\(bytes) bytes)"
    case .basePatched(let name, let patches):
      return "\(name): patched (\(patches) patch\(patches == 1 ? "" : "es"))"
    case .updateProgress(let progress):
      return "\(progress.phase.rawValue): \(progress.done) of \(progress.total) \(progress.unit)"
    case .blockingResumed:
      return "the pause ended: a complete reload brings the blocking entries back"
    }
  }
}
