import DirectoryContainer
import Foundation
import TestSupport
import Testing

/// Copies a writer makes before it takes the writers' lock (`ContainerApp.stage` and `update`
/// copy, verify and hash outside it: issue 40, item 4) are named by the writer's process ID: a
/// commit removes them only once that process has ended, never while it may still adopt them.
@Suite("Copies made outside the lock are leftovers only once their writer has ended")
struct StagingLeftoverTests {
  @Test func aDeadWritersCopyGoesAndALiveOnesStays() throws {
    let folder = try TemporaryFolder()
    let container = folder.path("box")
    try ContainerTransaction(container: container).commit(Manifest())
    // A process that has ended (run and reaped): its ID names a leftover.
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let dead =
      container + "/" + ContainerTransaction.stagingPrefix
      + "\(ended.processIdentifier)-region.cdb"
    let live = ContainerTransaction.stagingPath(in: container, "region")
    for path in [dead, dead + ".tmp-1", live] {
      try Data("bytes".utf8).write(to: URL(fileURLWithPath: path))
    }
    try ContainerTransaction(container: container).commit(Manifest())
    #expect(!FileManager.default.fileExists(atPath: dead))
    #expect(!FileManager.default.fileExists(atPath: dead + ".tmp-1"))
    #expect(FileManager.default.fileExists(atPath: live), "this process may still adopt it")
    try FileManager.default.removeItem(atPath: live)
  }
}
