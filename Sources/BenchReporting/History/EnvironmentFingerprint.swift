import BenchMeasuring
import Foundation

/// What a bench run's figures depend on besides the code: the toolchain, the CPU, the kernel,
/// the allocator and the host. A history keeps it per commit, so a change that coincides with a
/// new fingerprint is reported as such (a runner upgrade, not a regression).
public enum EnvironmentFingerprint {
  /// This machine's fingerprint, with the allocator and host the run's records name.
  public static func current(records: [RunRecord]) -> String {
    let toolchain = BenchBaseline.currentToolchain()
    var system = utsname()
    // Safe: uname fills the struct it is lent; `release` is read inside the closure only, up
    // to its NUL, within the field's bytes.
    unsafe uname(&system)
    let kernel = unsafe withUnsafeBytes(of: &system.release) { raw in
      unsafe String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    let allocator = records.first { !$0.allocator.isEmpty }?.allocator ?? "system"
    let host = records.first?.host ?? ""
    return "\(toolchain); cpu \(cpuModel()); kernel \(kernel); allocator \(allocator); host \(host)"
  }

  /// The CPU's model name (`/proc/cpuinfo`), or "unknown".
  static func cpuModel() -> String {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
      return "unknown"
    }
    for line in text.split(separator: "\n") where line.hasPrefix("model name") {
      if let value = line.split(separator: ":", maxSplits: 1).last {
        return value.trimmingCharacters(in: .whitespaces)
      }
    }
    return "unknown"
  }
}
