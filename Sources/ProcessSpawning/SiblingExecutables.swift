import Foundation

/// Where the running program's sibling executables are: SwiftPM builds `calldir`,
/// `calldir-extension`, `calldir-baselines` and `calldir-patch` into one folder, and whoever
/// spawns one of them (the bench, the simulated system) looks there first.
public enum SiblingExecutables {
  /// The folder of the running executable (`/proc/self/exe`, else `argv[0]`).
  public static func directory() -> String {
    let path =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: path).deletingLastPathComponent().path
  }
}
