import SystemPackage

// Safe: the one global read through this import is C's `stdout` pointer, which the C library
// sets before `main` and never changes; each `FILE` call locks the stream itself.
#if canImport(Glibc)
  @preconcurrency @unsafe import Glibc
#elseif canImport(Darwin)
  @preconcurrency @unsafe import Darwin
#endif

/// The standard descriptors as a command-line tool must treat them (issue 52, item 8): opened
/// on `/dev/null` when the shell closed them, so a file the tool opens never lands on 0, 1 or 2
/// (`compile … 2>&-` wrote its progress into its own lock file); diagnostics written without
/// ever trapping (Foundation's `FileHandle.write` traps on `/dev/full`); a broken pipe on
/// stdout an error rather than a silent death by `SIGPIPE`.
@usableFromInline package enum StandardStreams {
  /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed, ignores `SIGPIPE`
  /// (a write to a closed pipe then fails with `EPIPE`, which the writer reports), and makes
  /// stdout's failures visible to ``finishStandardOutput()``. Call first thing in `main`.
  ///
  /// A closed stdin or stdout is opened the wrong way round (stdin write-only, stdout
  /// read-only), so reading or writing it fails with `EBADF` and the command says so: with
  /// `1>&-` every command's output was lost with status 0, and `<&-` read as an empty input
  /// (issue 65, item 10). A closed stderr takes `/dev/null` for writing: diagnostics are never
  /// fatal.
  @usableFromInline package static func prepare() {
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      let opened = unsafe open("/dev/null", descriptor == 1 ? O_RDONLY : O_WRONLY)
      // `open` returns the lowest free descriptor, which is this one; anything else is closed.
      if opened >= 0 && opened != descriptor { close(opened) }
    }
    signal(SIGPIPE, SIG_IGN)
  }

  /// The width in columns of the terminal descriptor 2 is drawn on (`TIOCGWINSZ`); nil when it
  /// is no terminal or cannot be asked.
  @usableFromInline package static func standardErrorColumns() -> Int? {
    var size = winsize()
    guard unsafe ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
      return nil
    }
    return Int(size.ws_col)
  }

  /// Writes out what stdout holds now (a log line printed before a progress line on stderr is
  /// drawn again), ignoring a failure: ``finishStandardOutput()`` reports it at the end.
  @usableFromInline package static func flushStandardOutput() { _ = unsafe fflush(stdout) }

  /// Flushes stdout; false when it could not be written (a closed pipe, a full disk), so the
  /// caller exits with an error instead of claiming success.
  @usableFromInline package static func finishStandardOutput() -> Bool {
    unsafe fflush(stdout) == 0 && ferror(stdout) == 0
  }

  /// Whether the shell closed stdin (`<&-`): ``prepare()`` put a write-only `/dev/null` there,
  /// which no reader opens on purpose. A command that reads stdin refuses it rather than read
  /// an empty input.
  @usableFromInline package static var standardInputWasClosed: Bool {
    (fcntl(STDIN_FILENO, F_GETFL) & O_ACCMODE) == O_WRONLY
  }

  /// Whether the last failure was a pipe whose reader went away (`EPIPE`).
  @usableFromInline package static var lastFailureWasClosedPipe: Bool { errno == EPIPE }
}

/// Writes a command's bulk output (`normalize`, `inspect --dump`) to descriptor 1, after what
/// `print` buffered, so the two keep their order. Foundation's `FileHandle.write` trapped here
/// on a full stdout or a broken pipe (SIGILL, exit 132; issue 65, item 10).
@usableFromInline package enum StandardOutput {
  /// Writes `bytes`; `EINTR` is retried.
  /// - Throws: `Errno`: `.brokenPipe` when the reader went away, or the write's own failure.
  @usableFromInline package static func write(_ bytes: some Sequence<UInt8>) throws(Errno) {
    if unsafe fflush(stdout) != 0 { throw Errno(rawValue: errno) }
    let array = Array(bytes)
    do {
      _ = unsafe try array.withUnsafeBytes {
        unsafe try FileDescriptor.standardOutput.writeAll($0)
      }
    } catch {
      throw error as? Errno ?? .ioError
    }
  }
}

/// Writes diagnostics to descriptor 2. A diagnostic that cannot be written (stderr closed,
/// full, or a pipe nobody reads) is dropped: it is never fatal, and never blocks for ever.
@usableFromInline package enum StandardError {
  /// Writes `text` as it is (add the line break yourself); `EINTR` is retried, any other
  /// failure drops the rest.
  @usableFromInline package static func write(_ text: String) {
    let bytes = Array(text.utf8)
    _ = unsafe try? bytes.withUnsafeBytes { unsafe try FileDescriptor.standardError.writeAll($0) }
  }
}
