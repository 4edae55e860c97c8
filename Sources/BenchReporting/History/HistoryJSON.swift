import BenchMeasuring
import Foundation

/// `calldir history changes --json`: the changes as a JSON array.
public enum HistoryJSON {
  /// One object per change: metric, strategy, commit (the likeliest to have made it),
  /// first_commit and last_commit (the range that may have), exact, before, after, change_percent, direction, environment_changed.
  public static func changes(_ changes: [ChangePoint]) -> String {
    let objects = changes.map { change in
      [
        "metric": change.metric, "strategy": change.strategy, "commit": change.commit.sha,
        "first_commit": change.firstCommit.sha, "last_commit": change.lastCommit.sha,
        "exact": change.isExact,
        "before": change.before, "after": change.after,
        "change_percent": (change.relativeChange * 10_000).rounded() / 100,
        "direction": change.isRegression ? "regression" : "improvement",
        "environment_changed": change.environmentChanged,
      ] as [String: Any]
    }
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
    else { return "[]" }
    return String(decoding: data, as: UTF8.self)
  }
}
