import ArgumentParser
import CallDirectoryApp
import Foundation
import ReleaseDownload
import ReleaseFormat

extension AppCommand {
  /// `calldir app update`: the container to the newest version of a release.
  struct Update: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Bring the container to the newest version of a release (patches or bases).",
      discussion: """
        Reads the release's index.json (calldir publish), and for each base that changed \
        fetches the smallest download: a chain of patches from the base the container holds, \
        or the whole base. Each file's size and SHA-256 are checked; patches are applied in \
        bounded memory; every new base is staged in one transaction, all or nothing. Downloads \
        wait in the container's .downloads/ until then: an interrupted update resumes (HTTP \
        Range). The next `app sync` sends the incremental request. --from is an http(s) URL \
        (loopback or not) or a folder.
        """)

    @Option(name: .long, help: "The release: an http:// or https:// URL, or a folder.")
    var from: String
    @Option(
      name: .long, help: "The App Group container.", completion: .directory, transform: nonEmptyPath
    ) var container: String
    @Option(name: .long, help: "Seconds without a byte before a download gives up.")
    var timeout: Double = 30

    func validate() throws {
      _ = try nonEmptyPath(from)
      guard timeout > 0 else { throw ValidationError("--timeout must be above 0, got \(timeout)") }
    }

    func run() throws {
      let app = ContainerApp(container: container)
      let progress: (String) -> Void = { print($0) }
      let summary: ContainerApp.UpdateSummary
      if from.hasPrefix("http://") || from.hasPrefix("https://") {
        guard let url = URL(string: from) else {
          throw ValidationError("--from: not a URL: \(from)")
        }
        summary = try app.update(
          from: HTTPReleaseSource(base: url, idleTimeout: timeout, totalTimeout: timeout * 20),
          progress: progress)
      } else {
        summary = try app.update(from: FolderReleaseSource(folder: from), progress: progress)
      }
      print(
        "version \(summary.version): \(summary.patched) patched, \(summary.fetchedWhole) fetched whole, \(summary.unchanged) unchanged; \(summary.downloadedBytes) bytes downloaded"
      )
    }
  }
}
