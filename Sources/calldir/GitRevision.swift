import BenchGating
import BenchMeasuring
import Foundation

/// A folder of a git repository as a revision holds it: what `calldir gate --against-rev`
/// compares the head's data with. git does the reading; this only asks it, with no GNU-only
/// tool on the way (the Action runs on macOS runners too).
enum GitRevision {
  /// Writes `folder` as it is at the merge base of HEAD and `revision` into `destination`
  /// (created), and returns the copy's path and the merge base's short hash. The copy is nil
  /// when the merge base has no such folder: the pull request adds the data, so there is no
  /// old side to compare with (issue 65, item 15: this failed the gate).
  /// - Throws: `BenchError` naming what git could not do: not a repository, an unknown
  ///   revision (a shallow clone: fetch-depth 0), no merge base, or a folder the merge base
  ///   does not hold.
  static func extract(folder: String, against revision: String, into destination: String)
    throws -> (copy: String?, mergeBase: String)
  {
    let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
    let top = try git(["-C", absolute, "rev-parse", "--show-toplevel"]) {
      "'\(folder)' is not inside a git repository, so --against-rev has nothing to read"
    }
    // The folder's place in the repository, as git spells it: `rev-parse --show-prefix` from
    // inside it, so no `realpath --relative-to` is needed.
    let prefix = try git(["-C", absolute, "rev-parse", "--show-prefix"]) { "git rev-parse failed" }
    _ = try git(["-C", top, "rev-parse", "--verify", "--quiet", revision + "^{commit}"]) {
      "'\(revision)' is not a commit of \(top) (fetch it: actions/checkout's fetch-depth: 0)"
    }
    let mergeBase = try git(["-C", top, "merge-base", "HEAD", revision]) {
      "HEAD and '\(revision)' have no merge base in \(top)"
    }
    let relative = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
    guard !relative.isEmpty else {
      throw BenchError("--data is the repository's top; give the container's own folder")
    }
    let listed = try git(["-C", top, "ls-tree", "-d", mergeBase, "--", relative]) {
      "cannot list \(relative) at \(mergeBase.prefix(12))"
    }
    if listed.isEmpty { return (nil, String(mergeBase.prefix(12))) }
    try? FileManager.default.removeItem(atPath: destination)
    try FileManager.default.createDirectory(
      atPath: destination, withIntermediateDirectories: true)
    let archive = destination + "/.archive.tar"
    _ = try git(["-C", top, "archive", "--output", archive, mergeBase, relative]) {
      "'\(relative)' is not in the merge base \(mergeBase.prefix(12)) of \(top)"
    }
    _ = try run(["tar", "-x", "-f", archive, "-C", destination]) {
      "cannot unpack \(relative) at \(mergeBase.prefix(12))"
    }
    try? FileManager.default.removeItem(atPath: archive)
    return (destination + "/" + relative, String(mergeBase.prefix(12)))
  }

  /// The commit HEAD is in the repository that holds `folder`: what `calldir gate --history`
  /// records the figures as, with the commit's time.
  /// - Throws: `BenchError` when `folder` is not in a git repository or HEAD has no commit.
  static func head(of folder: String) throws -> GateHistory.Head {
    let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
    let fields = try git(["-C", absolute, "log", "-1", "--format=%H%n%P%n%ct%n%s", "HEAD"]) {
      "'\(folder)' is not inside a git repository with a commit, so --history has no commit to place the figures at"
    }.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard fields.count >= 3, let time = Double(fields[2]) else {
      throw BenchError("git log gave no commit time for HEAD in '\(folder)'")
    }
    let branch = (try? git(["-C", absolute, "rev-parse", "--abbrev-ref", "HEAD"]) { "" }) ?? ""
    return GateHistory.Head(
      sha: fields[0], parent: String(fields[1].prefix { $0 != " " }), branch: branch,
      subject: fields.count > 3 ? fields[3] : "", time: time)
  }

  /// `folder`'s path inside its repository, as git spells it (`directory`, `data/box`): what
  /// the gate's history names a container by, however the command line spelled the folder.
  /// - Throws: `BenchError` when `folder` is not in a git repository.
  static func repositoryPath(of folder: String) throws -> String {
    let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
    let prefix = try git(["-C", absolute, "rev-parse", "--show-prefix"]) {
      "'\(folder)' is not inside a git repository"
    }
    let relative = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
    return relative.isEmpty ? "." : relative
  }

  /// git's output, trimmed.
  private static func git(_ arguments: [String], failure: () -> String) throws -> String {
    try run(["git"] + arguments, failure: failure)
  }

  private static func run(_ arguments: [String], failure: () -> String) throws -> String {
    guard let output = ToolOutput.text(of: arguments) else { throw BenchError(failure()) }
    return output
  }
}
