import BaseFormat
import CallDirectoryApp
import CallDirectoryHost
import CallDirectoryLoader
import Foundation
import ProcessSpawning
import SystemPackage
import TestSupport

/// A host folder, a container and the executables, for one test.
public struct HostFixture {
  public let folder: TemporaryFolder
  public let system: SimulatedSystem
  public let app: ContainerApp
  public let bundleID = "com.example.callerid.directory"

  public init() throws {
    folder = try TemporaryFolder()
    system = try SimulatedSystem(hostDirectory: folder.path("host"))
    app = ContainerApp(container: folder.path("container"))
  }

  public var extensionPath: String { builtExecutablePath("calldir-extension") }

  /// The misbehaving extension, doing `steps`.
  public func misbehaving(_ steps: [String]) -> SimulatedSystem.Runner {
    .process(
      executable: builtExecutablePath("calldir-misbehaving-extension"),
      container: folder.path("none"),
      extraArguments: steps)
  }

  public var realExtension: SimulatedSystem.Runner {
    .process(executable: extensionPath, container: app.container)
  }

  /// Writes a base from entries into the fixture folder and returns its path.
  public func writeBase(
    _ name: String, kind: BaseKind = .identification, _ entries: [(Int64, String)]
  )
    throws -> String
  {
    let path = folder.path(name + ".cdb")
    let writer = try BaseWriter(path: path, kind: kind)
    for (number, label) in entries.sorted(by: { $0.0 < $1.0 }) {
      try writer.append(number, label: label)
    }
    try writer.finish()
    return path
  }

  /// Everything the store holds for the extension, comparable.
  public func contents() throws -> [String] {
    let (identification, blocking) = try system.store.contents(of: bundleID)
    return identification.map { "id \($0.0) \($0.1)" } + blocking.map { "block \($0)" }
  }
}

/// Numbers of one made-up region: `count` numbers from `first`, step `step`, labelled `label N`.
public func regionEntries(first: Int64, count: Int, step: Int64 = 3, label: String) -> [(
  Int64, String
)] {
  (0..<count).map { (first + Int64($0) * step, "\(label) \($0 % 50)") }
}

/// A named pipe one process waits on and another signals through, one byte at a time. The test's
/// end is opened read-write, so neither side's `open` waits for the other.
public struct Rendezvous: Sendable {
  public let path: String
  private let descriptor: FileDescriptor

  public init(_ path: String) throws {
    guard mkfifo(path, 0o600) == 0 else { throw Errno(rawValue: errno) }
    self.path = path
    descriptor = try FileDescriptor.open(FilePath(path), .readWrite, options: [.closeOnExec])
  }

  /// Blocks until the other side writes a byte.
  public func awaitByte() throws {
    var byte: UInt8 = 0
    let count = try withUnsafeMutableBytes(of: &byte) { try descriptor.read(into: $0) }
    guard count == 1 else { throw Errno.ioError }
  }

  /// Suspends until the other side writes a byte. The read blocks a Dispatch thread, not one of
  /// Swift's cooperative pool: the task that makes the other side write may need that thread
  /// (two cores, two pool threads: two tests blocking them held a whole `swift test` run).
  public func byteArrival() async throws {
    try await withCheckedThrowingContinuation { (arrived: CheckedContinuation<Void, any Error>) in
      DispatchQueue.global().async { arrived.resume(with: Result { try awaitByte() }) }
    }
  }

  /// Lets the other side, blocked in its read, go on.
  public func sendByte() throws {
    _ = try descriptor.writeAll([1 as UInt8])
  }
}
