import Datasets
import Foundation
import TestSupport
import Testing

@testable import BenchHarness

/// The built executables sit beside the test runner in SwiftPM's build folder.
func builtExecutable(_ name: String) throws -> String {
  let path = builtExecutablePath(name)
  try #require(FileManager.default.isExecutableFile(atPath: path), "build \(name) first")
  return path
}

/// Runs a process to completion, returning its status, stdout and stderr.
func runProcess(_ executable: String, _ arguments: [String], directory: URL? = nil) throws
  -> (status: Int32, stdout: String, stderr: String)
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = directory }
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  try process.run()
  // Read before waiting so a chatty child never blocks on a full pipe.
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  let errorData = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (
    process.terminationStatus, String(decoding: outputData, as: UTF8.self),
    String(decoding: errorData, as: UTF8.self)
  )
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
