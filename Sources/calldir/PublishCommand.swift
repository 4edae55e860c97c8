import ArgumentParser
import Foundation
import ReleaseFormat
import SystemCalls

/// `calldir publish`: a compiled container as the next version of a release folder.
struct PublishCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "publish",
    abstract: "Publish a compiled container as the next version of a release folder.",
    discussion: """
      Run after each compile. Writes RELEASES/bases/ (each version's bases, content-addressed \
      as in the container), RELEASES/patches/ (semantic patches to the newest version from \
      each of the last --keep versions, each checked by applying it; one not smaller than the \
      base is not kept, and none is made from an old file that is missing or no longer hashes \
      to the index's SHA-256) and RELEASES/index.json (versions, files, sizes, SHA-256, \
      patches), written last and atomically: a client never reads an index naming a file not \
      yet there. Any static HTTP server can serve the folder; apps fetch it with `calldir app \
      update`. A container that holds what the newest version holds publishes nothing.
      Exit statuses: 0 done; 1 usage, input or output error (the index is left as it was); 5 \
      the new version would hold fewer than half the newest's entries, without --allow-shrink \
      (nothing written).
      """)

  @Argument(help: "The compiled container (calldir compile --out).", transform: nonEmptyPath)
  var container: String
  @Option(name: .long, help: "The release folder.", completion: .directory, transform: nonEmptyPath)
  var out: String
  @Option(
    name: .long, parsing: .unconditional,
    help:
      "Earlier versions patched from, and kept in the index (1 to \(ReleasePublisher.maximumKeep)).",
    transform: wholeNumber(in: 1...OptionBounds.count.upperBound))
  var keep: Int = ReleasePublisher.defaultKeep
  @Flag(
    name: .long,
    help:
      "Publish even when the new version holds fewer than half the newest's entries (else exit 5, nothing written)."
  )
  var allowShrink = false
  @OptionGroup var progressOptions: ProgressOptions

  func validate() throws {
    guard (1...ReleasePublisher.maximumKeep).contains(keep) else {
      throw ValidationError("--keep must be 1 to \(ReleasePublisher.maximumKeep), got \(keep)")
    }
  }

  func run() throws {
    // A patch is made beside its final name (`patches/NAME.cdp.tmp-PID`), and checked in
    // `.publish-PID/`: both are this run's scratch.
    Interruption.watch([out, out + "/bases", out + "/patches"])
    LockWaitNotice.waitIfBusy(out)
    // A shrink refusal leaves through `Calldir.main` with exit status 5.
    var publisher = ReleasePublisher(releases: out, keep: keep, allowShrink: allowShrink)
    let display = progressOptions.display(command: "publish")
    publisher.progress = { phase, done, total in
      display.update(phase: phase.rawValue, done: done, total: total, unit: "bases")
    }
    let summary = try display.finishing { try publisher.publish(container: container) }
    for file in summary.oldFilesUnusable {
      StandardError.write(
        "calldir: \(out)/\(file) is missing or does not hash to the index's SHA-256: no patch made from it (its clients fetch the base whole)\n"
      )
    }
    guard summary.isNew else {
      print("version \(summary.version) already holds these bases: nothing published")
      return
    }
    print(
      "version \(summary.version): \(summary.basesCopied) base\(summary.basesCopied == 1 ? "" : "s") copied, \(summary.patchesMade) patch\(summary.patchesMade == 1 ? "" : "es") made (\(summary.patchesSkipped) not kept), \(out)/\(ReleaseIndex.fileName) written"
    )
  }
}
