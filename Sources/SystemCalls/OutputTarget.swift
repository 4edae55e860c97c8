import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; what C hands back that points into its own memory
// (realpath's result, freed at once) is copied into Swift values before the next call, and nothing
// here keeps a pointer past its call.

/// What an output path names, so a result file is written the way its path asks: a regular file
/// (or a new one) is replaced atomically; anything else is written through and never replaced.
/// Run as root, `bench --json /dev/stdout` used to rename a temporary file over the system's
/// `/dev/stdout`, and `--save-baseline /dev/full` replaced `/dev/full` (issue 39, item 9).
@usableFromInline package enum OutputTarget: Equatable, Sendable {
  /// A regular file, or nothing yet in a folder that exists: replace it atomically at `path`
  /// (a link to a regular file is replaced at its target, the link kept).
  case replace(path: String)
  /// A FIFO, a device or a socket (or a link to one): open it and write, as `>` does.
  case writeThrough(path: String)
  /// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N`: the descriptor this
  /// process already holds, as a shell treats them.
  case descriptor(Int32)

  /// Why a path cannot be written.
  @usableFromInline package struct Refusal: Error, CustomStringConvertible, Equatable {
    @usableFromInline package let description: String
  }

  /// The target `path` names.
  /// - Parameter creatingFolder: whether a missing parent folder will be made (the tool's own
  ///   working folders); otherwise a missing one is refused.
  /// - Throws: ``Refusal`` for a folder, a dangling link, or a missing parent folder.
  @usableFromInline package static func of(_ path: String, creatingFolder: Bool = false)
    throws(Refusal)
    -> OutputTarget
  {
    if let descriptor = standardDescriptor(path) { return .descriptor(descriptor) }
    let given = FilePath(path)
    guard let status = try? given.stat(followTargetSymlink: false) else {
      let folder = Self.parentFolder(of: path)
      guard creatingFolder || (try? FilePath(folder).stat())?.type == .directory else {
        throw Refusal(description: "\(path): the folder \(folder) does not exist")
      }
      return .replace(path: path)
    }
    switch status.type {
    case .regular: return .replace(path: path)
    case .directory: throw Refusal(description: "\(path) is a folder, not a file")
    case .symbolicLink:
      guard let target = try? given.stat(followTargetSymlink: true) else {
        throw Refusal(description: "\(path) is a link to nothing")
      }
      if target.type == .directory { throw Refusal(description: "\(path) is a link to a folder") }
      guard target.type == .regular, let resolved = resolvedPath(path) else {
        return .writeThrough(path: path)
      }
      return .replace(path: resolved)
    default: return .writeThrough(path: path)
    }
  }

  /// The folder holding `path`: what comes before its last `/` (`/` itself for a file at the
  /// root, `.` for a bare name).
  static func parentFolder(of path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
  }

  /// The descriptor a shell would use for `path`, if it names one of this process's own.
  @usableFromInline package static func standardDescriptor(_ path: String) -> Int32? {
    switch path {
    case "/dev/stdin": return 0
    case "/dev/stdout": return 1
    case "/dev/stderr": return 2
    default:
      for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
        let digits = path.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.count < 10, digits.allSatisfy(\.isASCII),
          digits.allSatisfy(\.isNumber)
        else { return nil }
        return Int32(digits)
      }
      return nil
    }
  }

  /// `path` with every link resolved (`realpath`), or nil.
  static func resolvedPath(_ path: String) -> String? {
    guard let resolved = unsafe realpath(path, nil) else { return nil }
    defer { unsafe free(resolved) }
    return unsafe String(cString: resolved)
  }
}
