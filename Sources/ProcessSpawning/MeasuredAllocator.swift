import Foundation

/// The allocator a spawned extension runs on, chosen at run time: jemalloc, preloaded from its
/// shared library (`LD_PRELOAD`) when it is installed, or the system's `malloc`. Nothing is linked
/// at build time, so one build measures either way; the child's `HeapProbe` finds `mallctl` when
/// jemalloc is loaded and reports the heap peak, and the bench CSV's `allocator` column says which
/// one each run used, so figures are compared like with like.
public struct MeasuredAllocator: Sendable, Equatable, CustomStringConvertible {
  /// The two allocators, named as the CSV's `allocator` column names them.
  public enum Kind: String, Sendable, CaseIterable {
    case jemalloc, system
  }

  /// Which allocator.
  public let kind: Kind
  /// The shared library preloaded into the child (jemalloc only).
  public let libraryPath: String?

  /// The system's allocator: the child inherits this process's environment, minus any jemalloc
  /// in `LD_PRELOAD`.
  public static let system = MeasuredAllocator(kind: .system, libraryPath: nil)

  /// jemalloc's shared library as Debian's `libjemalloc2` (and most distributions) name it.
  public static let jemallocLibraryName = "libjemalloc.so.2"
  /// An environment variable naming jemalloc's shared library, for installs outside
  /// ``jemallocSearchDirectories``.
  public static let jemallocPathVariable = "CALLDIR_JEMALLOC"
  /// Where distributions install shared libraries: Debian's multiarch folders, then the others.
  public static let jemallocSearchDirectories = [
    "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
    "/usr/local/lib", "/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
  ]
  /// One line for users without jemalloc: what is missing and how to get it.
  public static let installHint =
    "note: heap_peak_bytes stays empty: jemalloc's shared library is not installed "
    + "(apt-get install libjemalloc2, or set \(jemallocPathVariable)=/path/to/\(jemallocLibraryName))"

  /// jemalloc, preloaded from `libraryPath`.
  public static func jemalloc(libraryPath: String) -> MeasuredAllocator {
    MeasuredAllocator(kind: .jemalloc, libraryPath: libraryPath)
  }

  /// The path of jemalloc's shared library: ``jemallocPathVariable`` when set, else the first
  /// ``jemallocSearchDirectories`` entry that holds ``jemallocLibraryName``; nil when none does.
  public static func installedJemalloc(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    if let path = environment[jemallocPathVariable], !path.isEmpty {
      return FileManager.default.isReadableFile(atPath: path) ? path : nil
    }
    return jemallocSearchDirectories.lazy.map { $0 + "/" + jemallocLibraryName }
      .first { FileManager.default.isReadableFile(atPath: $0) }
  }

  /// jemalloc when its shared library is installed, else the system's allocator.
  public static func automatic() -> MeasuredAllocator {
    installedJemalloc().map(jemalloc(libraryPath:)) ?? .system
  }

  /// What a user may ask for: `auto` (``automatic()``), `jemalloc` or `system`.
  public enum Choice: String, Sendable, CaseIterable {
    case auto, jemalloc, system
  }

  /// The allocator a choice names.
  /// - Throws: ``AllocatorUnavailable`` for `jemalloc` when its library is not installed.
  public static func resolve(_ choice: Choice) throws(AllocatorUnavailable) -> MeasuredAllocator {
    switch choice {
    case .auto: return automatic()
    case .system: return .system
    case .jemalloc:
      guard let path = installedJemalloc() else {
        throw AllocatorUnavailable(
          description: "--allocator jemalloc: \(jemallocLibraryName) is not installed (apt-get "
            + "install libjemalloc2, or set \(jemallocPathVariable))")
      }
      return jemalloc(libraryPath: path)
    }
  }

  /// `jemalloc` or `system`.
  public var description: String { kind.rawValue }

  /// The environment for a child (`KEY=value` strings): this process's, with `LD_PRELOAD`
  /// naming jemalloc first, or with any jemalloc removed from it for the system's allocator.
  public func childEnvironment(
    from environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> [String] {
    var environment = environment
    let others = (environment["LD_PRELOAD"] ?? "").split(whereSeparator: { $0 == ":" || $0 == " " })
      .map(String.init).filter { !$0.contains("jemalloc") }
    let preload = (libraryPath.map { [$0] } ?? []) + others
    environment["LD_PRELOAD"] = preload.isEmpty ? nil : preload.joined(separator: ":")
    return environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
  }
}

/// jemalloc was asked for and is not installed.
public struct AllocatorUnavailable: Error, CustomStringConvertible, Equatable {
  /// The message, naming the flag and how to install the library.
  public let description: String
}
