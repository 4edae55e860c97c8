import ArgumentParser
import BaseFormat
import CallDirectoryApp
import DirectoryContainer
import Foundation
import SystemCalls

/// The options every edit of the user's lists takes.
struct UserListsTarget: ParsableArguments {
  @Option(
    name: .long, help: "The App Group container.", completion: .directory, transform: nonEmptyPath)
  var container: String
  @Option(
    name: .long,
    help:
      "Read national numbers as this country's (ISO code, e.g. FR); default: international only.")
  var country: String?

  var editor: UserListsEditor { ContainerApp(container: container).userLists(country: country) }

  /// Prints what the next sync sends after an edit.
  func reportPending() async throws {
    let pending = try await editor.pending()
    print(
      pending.isEmpty
        ? "the user's lists: nothing pending"
        : "the user's lists: pending at the next sync (calldir app sync): \(pending.summary)")
  }
}

/// Exit statuses of the edits.
private let editExitStatuses = """
  The edit is written to the container atomically and reaches the system at the next \
  calldir app sync, as one incremental request of what it changes; until a request that sent \
  it commits, it is pending (calldir app lists). Nothing else (update, compile, choose) \
  changes the lists.
  Exit statuses: 0 done; 1 usage or input error (a number that does not read, a label over \
  the limit, a prefix covering a whole country code without --force): the lists are left as \
  they were.
  """

extension AppCommand {
  struct Block: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Block a number, or a prefix, in the user's own list.",
      discussion: editExitStatuses)
    @Argument(
      help:
        "The number, in any written form (+33 6 12 34 56 78; national with --country), or with --prefix a prefix (+33 1 62 ## ## ##) or range (A..B)."
    )
    var number: String
    @Option(name: .long, help: "A label shown for the number on calls.") var label: String?
    @Flag(name: .long, help: "NUMBER is a prefix written with trailing '#', or a range A..B.")
    var prefix = false
    @Flag(name: .long, help: "With --prefix: allow a prefix that is a whole country code.")
    var force = false
    @OptionGroup var target: UserListsTarget

    func validate() throws {
      if prefix, label != nil { throw ValidationError("--label names one number, not a prefix") }
      if force, !prefix { throw ValidationError("--force goes with --prefix") }
    }

    func run() async throws {
      if prefix {
        try await target.editor.blockPrefix(number, force: force)
      } else {
        try await target.editor.block(number, label: label)
      }
      try await target.reportPending()
    }
  }

  struct Allow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Allow a number: never blocked, whatever blocks it (a list, a pattern, a block).",
      discussion: editExitStatuses)
    @Argument(help: "The number, in any written form.") var number: String
    @OptionGroup var target: UserListsTarget

    func run() async throws {
      try await target.editor.allow(number)
      try await target.reportPending()
    }
  }

  struct Unblock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Take a number (or with --prefix a prefix) off the user's blocked and allowed lists.",
      discussion: editExitStatuses)
    @Argument(help: "The number, in any written form, or with --prefix the prefix as blocked.")
    var number: String
    @Flag(name: .long, help: "NUMBER is a prefix or range blocked with block --prefix.")
    var prefix = false
    @OptionGroup var target: UserListsTarget

    func run() async throws {
      if prefix {
        try await target.editor.unblockPrefix(number)
      } else {
        try await target.editor.unblock(number)
      }
      try await target.reportPending()
    }
  }

  struct Label: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Name a number: the user's label wins over the directory's.",
      discussion: editExitStatuses)
    @Argument(help: "The number, in any written form.") var number: String
    @Argument(help: "The label (omit with --remove).") var text: String?
    @Flag(name: .long, help: "Remove the user's label.") var remove = false
    @OptionGroup var target: UserListsTarget

    func validate() throws {
      if remove == (text != nil) { throw ValidationError("give a label, or --remove, not both") }
    }

    func run() async throws {
      try await target.editor.label(number, remove ? nil : text)
      try await target.reportPending()
    }
  }

  struct Pause: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Pause blocking: the next sync removes every blocking entry in one call.",
      discussion: "Labels stay. " + editExitStatuses)
    @Option(
      name: .long, help: "Pause for this many minutes (the sync after that resumes).",
      transform: wholeNumber(in: 1...525_600))
    var minutes: Int?
    @OptionGroup var target: UserListsTarget

    func run() async throws {
      let end = minutes.map { WallClock.secondsSinceEpoch() + Int64($0) * 60 }
      try await target.editor.pause(until: end)
      try await target.reportPending()
    }
  }

  struct Resume: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "End a pause: the next sync brings the blocking entries back.",
      discussion: editExitStatuses)
    @OptionGroup var target: UserListsTarget

    func run() async throws {
      try await target.editor.resume()
      try await target.reportPending()
    }
  }

  struct Lists: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show, export, import or clear the user's own lists.",
      discussion: """
        Without options, prints the lists and what is pending. --export writes them as a file \
        (the app's backup), --import replaces them with one, --clear empties them (sign-out).
        Exit statuses: 0 done; 1 usage, input or output error (a file from a newer calldir, \
        a line that does not read): the lists are left as they were.
        """)
    @Option(name: .long, help: "Write the lists to this file.", transform: nonEmptyPath)
    var export: String?
    @Option(
      name: .customLong("import"), help: "Replace the lists with this file's.",
      transform: nonEmptyPath)
    var importFile: String?
    @Flag(name: .long, help: "Empty every list and end a pause.") var clear = false
    @OptionGroup var target: UserListsTarget

    func validate() throws {
      if [export != nil, importFile != nil, clear].filter({ $0 }).count > 1 {
        throw ValidationError("give one of --export, --import and --clear")
      }
    }

    func run() async throws {
      let editor = target.editor
      if let export {
        let text = try await editor.exported()
        let writer = try AtomicFileWriter(path: export)
        try writer.write(text.utf8)
        try writer.commit()
        return
      }
      if let importFile {
        let text = try readSmallTextFile(
          importFile, maximumByteCount: UserListsFile.maximumByteCount)
        try await editor.importing(text)
      } else if clear {
        try await editor.clear()
      } else {
        let lists = try await editor.entries()
        switch lists.pause {
        case nil: break
        case .untilResumed: print("paused until resumed")
        case .until(let end): print("paused until \(end) (seconds since 1970 UTC)")
        }
        for number in lists.blockedNumbers { print("block\t+\(number)") }
        for range in lists.blockedRanges {
          print("block\t+\(range.lowerBound)..+\(range.upperBound)")
        }
        for number in lists.allowedNumbers { print("allow\t+\(number)") }
        for label in lists.labels { print("label\t+\(label.number)\t\(label.text)") }
      }
      try await target.reportPending()
    }
  }
}
