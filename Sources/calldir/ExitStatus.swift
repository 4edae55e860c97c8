import ArgumentParser

/// Every exit status `calldir` uses, documented in `calldir --help`: scripts and CI read these.
enum ExitStatus: Int32, CaseIterable {
  /// Done.
  case success = 0
  /// A usage, input or output error (a file that cannot be read or written): one line on
  /// stderr; what was being changed is left as it was. A stdout that cannot be written once
  /// the work is committed (full, or closed by `1>&-`) is 1 too, and its line says so.
  case usageOrInput = 1
  /// A `--gate` check failed: one line per failure on stderr (package-benchmark's regression code).
  case gateFailed = 2
  /// A request to the simulated system failed: iOS's code is printed.
  case requestFailed = 3
  /// `compile --strict` rejected at least one line: nothing was written.
  case strictRejected = 4
  /// `compile`, `publish` or `app update` would have left a live container (or a release) with
  /// no entries or lost more than half of them, without `--allow-shrink`: nothing was written.
  case shrinkRefused = 5
  /// `app update` was offered a release older than the version the container holds, without
  /// `--allow-downgrade`: nothing was written.
  case downgradeRefused = 6
  /// Standard output's reader went away (`| head`): the command stops quietly, as a process
  /// `SIGPIPE` ended would (128 + 13); what it had committed stays committed, what it had not
  /// begun is left as it was.
  case outputClosed = 141

  /// The value to throw from `run()`.
  var exitCode: ExitCode { ExitCode(rawValue) }

  /// The line `calldir --help` prints.
  static let summary = """
    Exit statuses: 0 success; 1 usage, input or output error (one line on stderr; a container \
    being changed is left as it was, unless the line says only stdout failed after the work); 2 a --gate check \
    failed (one line per failure); 3 a request to the simulated system failed (iOS code \
    printed); 4 compile --strict rejected a line (nothing written); 5 compile, publish or app \
    update would empty a container or a release or lose over half its entries, without \
    --allow-shrink (nothing written); 6 app update was offered an older release than the \
    container holds, without --allow-downgrade (nothing written); 141 standard output's \
    reader went away (a closed pipe, as `| head`): stopped quietly, as SIGPIPE would.
    """
}
