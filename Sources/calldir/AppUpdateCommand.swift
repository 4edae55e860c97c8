import ArgumentParser
import CallDirectoryApp
import Foundation
import ReleaseDownload
import ReleaseFormat

extension AppCommand {
  /// `calldir app update`: the container to the newest version of a release.
  struct Update: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Bring the container to the newest version of a release (patches or bases).",
      discussion: """
        Reads the release's index.json (calldir publish), and for each base that changed \
        fetches the smallest download: a chain of patches from the base the container holds, \
        or the whole base. Each file's size and SHA-256 are checked; patches are applied in \
        bounded memory; every new base is staged in one transaction, all or nothing. Downloads \
        wait in the container's .downloads/ until then: an interrupted update resumes (HTTP \
        Range; a server that ignores it sends the whole file again). Before fetching anything, \
        the volume must have room for the downloads, the patched bases and their staged \
        copies. A new container chooses every region, as compile does; an existing one keeps \
        the user's choice. The next `app sync` sends the incremental request. --from is an \
        http(s) URL (loopback or not) or a folder of regular files.
        Exit statuses: 0 done; 1 usage, input, server or output error (the container is left as \
        it was; parts fetched wait for the next update); 5 the new version would keep fewer \
        than half the container's entries, without --allow-shrink (nothing changed); 6 the \
        release's newest version is older than the one the container holds, without \
        --allow-downgrade (nothing changed: a stale mirror or a replayed index never rolls a \
        container back); 130 or 143 interrupted by SIGINT or SIGTERM (the update stops between \
        files or mid-download; the container is left as it was, and parts fetched wait for the \
        next update; a second signal ends it at once). A compile or another update that changes the container meanwhile \
        makes the update plan again (three times at most).
        """)

    @Option(name: .long, help: "The release: an http:// or https:// URL, or a folder.")
    var from: String
    @Option(
      name: .long, help: "The App Group container.", completion: .directory, transform: nonEmptyPath
    ) var container: String
    @Option(
      name: .long, parsing: .unconditional,
      help:
        "Seconds without a byte before a download gives up (above 0, at most \(Int(Self.maximumTimeout)); a whole file may take 20 times as long).",
      transform: finiteNumber(in: OptionBounds.seconds))
    var timeout: Double = 30
    @Flag(
      name: .long,
      help:
        "Apply a version that keeps fewer than half the container's entries (else exit 5, nothing changed)."
    )
    var allowShrink = false
    @Flag(
      name: .long,
      help:
        "Apply a release older than the version the container holds (else exit 6, nothing changed)."
    )
    var allowDowngrade = false

    /// The longest --timeout: a day. URLSession's timers trap on values it cannot schedule
    /// (`inf`, `1e308` died with SIGILL inside FoundationNetworking).
    static let maximumTimeout = 86_400.0

    func validate() throws {
      _ = try nonEmptyPath(from)
      guard timeout.isFinite, timeout > 0, timeout <= Self.maximumTimeout else {
        throw ValidationError(
          "--timeout must be above 0 and at most \(Int(Self.maximumTimeout)) seconds, got \(timeout)"
        )
      }
    }

    @OptionGroup var progressOptions: ProgressOptions

    func run() async throws {
      LockWaitNotice.waitIfBusy(container)
      let app = ContainerApp(container: container)
      // The phases' progress on the display (redrawn on a terminal, JSON lines, or nothing);
      // every other event is a line of the log on stdout, as before.
      let display = SendableProgress(progressOptions.display(command: "app update"))
      defer { display.finish() }
      // --quiet: the summary line only (a 72-base update logged 73 lines).
      let quiet = progressOptions.quiet
      let progress: @Sendable (SyncEvent) -> Void = { event in
        guard case .updateProgress(let step) = event else {
          if !quiet { display.clearingLine { print(event) } }
          return
        }
        display.update(
          phase: step.phase.rawValue, done: step.done, total: step.total, unit: step.unit)
      }
      let summary: ContainerApp.UpdateSummary
      do {
        if from.hasPrefix("http://") || from.hasPrefix("https://") {
          guard let url = URL(string: from) else {
            throw ValidationError("--from: not a URL: \(from)")
          }
          summary = try await cancellableUpdate(
            app, HTTPReleaseSource(base: url, idleTimeout: timeout, totalTimeout: timeout * 20),
            progress)
        } else {
          summary = try await cancellableUpdate(
            app, FolderReleaseSource(folder: from, timeout: timeout * 20), progress)
        }
      } catch {
        display.finish()
        Interruption.exitIfInterrupted(
          saying:
            "the update stopped and the container is as it was; what was fetched waits for the next update"
        )
        throw error
      }
      // The progress line cleared before the summary (the defer covers a throw).
      display.finish()
      print(
        "version \(summary.version): \(summary.patched) patched, \(summary.fetchedWhole) fetched whole, \(summary.unchanged) unchanged\(summary.metadataChanged > 0 ? ", \(summary.metadataChanged) with a new role, priority or region" : ""); \(summary.downloadedBytes) bytes downloaded"
      )
    }

    /// The update in a task of its own that SIGINT and SIGTERM cancel (issue 52, item 9): it
    /// stops between files or mid-download, keeps what arrived for the next update, and leaves
    /// the container as it was. A second signal ends the process at once.
    private func cancellableUpdate(
      _ app: ContainerApp, _ source: some ReleaseSource & Sendable,
      _ progress: @escaping @Sendable (SyncEvent) -> Void
    ) async throws -> ContainerApp.UpdateSummary {
      let (allowShrink, allowDowngrade) = (allowShrink, allowDowngrade)
      let work = Task {
        try await app.update(
          from: source, allowShrink: allowShrink, allowDowngrade: allowDowngrade, events: progress)
      }
      Interruption.cancelOnSignal { work.cancel() }
      return try await work.value
    }
  }
}
