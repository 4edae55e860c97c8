import Foundation
import TestSupport
import Testing

/// `calldir app block|allow|unblock|label|pause|resume|lists` on the simulated device, as a user
/// runs them: an edit, a sync that sends it as one incremental request, the lookup's answer, and
/// bad input refused in one line with the lists unchanged.
@Suite("The user's lists from the command line")
struct UserListsCommandTests {
  let calldir = builtExecutablePath("calldir")

  @Test func editsSyncAndLookUp() throws {
    let folder = try TemporaryFolder()
    let (box, host) = (folder.path("box"), folder.path("host"))
    let dump = folder.path("d.tsv")
    try "number\tlabel\tcategory\n+79161234567\tA\t\n+79161234570\tJunk\tspam\n".write(
      toFile: dump, atomically: true, encoding: .utf8)
    func run(_ arguments: [String]) throws -> ProcessRun {
      let run = try runProcess(calldir, arguments)
      #expect(run.status == 0, "\(arguments): \(run.stderr)")
      return run
    }
    _ = try run(["compile", dump, "--out", box, "--quiet"])
    let flags = ["--container", box, "--host-dir", host]
    _ = try run(["host", "enable", "x.y"] + flags)
    _ = try run(["app", "sync", "x.y"] + flags)
    let allowed = try run(["app", "allow", "+7 916 123-45-70", "--container", box])
    #expect(allowed.stdout.contains("pending at the next sync (calldir app sync): 1 to allow"))
    _ = try run([
      "app", "block", "8 916 123 45 99", "--country", "RU", "--label", "Plumber", "--container",
      box,
    ])
    let status = try run(["app", "status", "x.y"] + flags)
    #expect(
      status.stdout.contains(
        "the user's lists: pending at the next sync: 1 to block, 1 to allow, 1 label to change"),
      "\(status.stdout)")
    let synced = try run(["app", "sync", "x.y"] + flags)
    #expect(
      synced.stdout.contains("3 entries changed incrementally (2 added, 1 removed)"),
      "\(synced.stdout)")
    let lookup = try run(["lookup", "+79161234570", "--container", box, "--json"])
    #expect(
      lookup.stdout.contains("\"blocked\":false")
        && lookup.stdout.contains("\"allowed_by_user\":true"))
    let hostLookup = try run(["host", "lookup", "79161234599", "--host-dir", host])
    #expect(hostLookup.stdout.contains("blocked"), "\(hostLookup.stdout)")
    let named = try run(["lookup", "+79161234599", "--container", box])
    #expect(named.stdout == "79161234599: Plumber (user); blocked by user\n", "\(named.stdout)")
    let lists = try run(["app", "lists", "--container", box])
    #expect(
      lists.stdout.contains("block\t+79161234599") && lists.stdout.contains("nothing pending"))
    // A backup, cleared, then imported: the same lists, and only the difference goes out.
    let backup = folder.path("backup.txt")
    _ = try run(["app", "lists", "--export", backup, "--container", box])
    _ = try run(["app", "lists", "--clear", "--container", box])
    _ = try run(["app", "lists", "--import", backup, "--container", box])
    let after = try run(["app", "lists", "--container", box])
    #expect(after.stdout.contains("nothing pending"), "\(after.stdout)")
  }

  @Test func badInputIsOneLineAndChangesNothing() throws {
    let folder = try TemporaryFolder()
    let box = folder.path("box")
    _ = try runProcess(calldir, ["app", "block", "+79161234567", "--container", box])
    let lists = box + "/user-lists.txt"
    let before = FileManager.default.contents(atPath: lists)
    let newer = folder.path("newer.txt")
    try "calldir-user-lists\t9\n".write(toFile: newer, atomically: true, encoding: .utf8)
    for (arguments, words) in [
      (["app", "block", "not a number"], "is not a phone number"),
      (["app", "block", "+33 #########", "--prefix"], "covers the whole country code +33"),
      (
        ["app", "label", "+79161234567", String(repeating: "x", count: 1_025)],
        "over the limit of 1024"
      ),
      (["app", "lists", "--import", newer], "written by a newer calldir (version 9"),
    ] {
      let run = try runProcess(calldir, arguments + ["--container", box])
      #expect(run.status == 1, "\(arguments): \(run.status)")
      #expect(run.stderr.contains(words), "\(arguments): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
      #expect(FileManager.default.contents(atPath: lists) == before, "\(arguments) left the lists")
    }
  }
}
