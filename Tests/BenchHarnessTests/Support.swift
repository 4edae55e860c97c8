import Datasets
import Foundation
import TestSupport
import Testing

@testable import BenchMeasuring

/// The built executables sit beside the test runner in SwiftPM's build folder.
func builtExecutable(_ name: String) throws -> String {
  let path = builtExecutablePath(name)
  try #require(FileManager.default.isExecutableFile(atPath: path), "build \(name) first")
  return path
}

/// A small dataset generated into `folder`'s cache, in the given formats.
func smallDataset(
  _ folder: TemporaryFolder, entries: Int = 5_000,
  formats: [DatasetFormat] = DatasetFormat.allCases,
  labels: LabelProfile = .cyrillic
) throws -> DatasetCache.Entry {
  let parameters = DatasetParameters(
    entries: entries, kind: "identification", plans: ["RU", "CN"], labels: labels,
    duplicateShare: 0.1, seed: 9)
  return try DatasetCache(root: folder.path("cache")).ensure(parameters, formats: formats)
}
