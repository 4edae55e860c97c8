import DirectoryContainer
import Foundation
import TestSupport
import Testing

@Suite("Entry tag files: written in order, read in order in constant memory")
struct EntryTagFileTests {
  @Test func tagsAreAnsweredForNumbersAskedInOrderAndZeroForTheRest() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("tags")
    let writer = try EntryTagFile.Writer(path: path)
    // More records than the reader's 64 KiB buffer holds, so a record straddles a refill.
    for number in stride(from: Int64(1_000), to: 1_000 + 3 * 20_000, by: 3) {
      try writer.append(number, tag: UInt8(number % 2 + 1))
    }
    try writer.finish()
    #expect(writer.count == 20_000)
    let reader = try EntryTagFile.Reader(path: path)
    var asked = 0
    for number in Int64(999)...Int64(1_000 + 3 * 20_000) where number % 5 == 0 || number % 3 == 1 {
      let expected: UInt8 =
        number >= 1_000 && number < 61_000 && (number - 1_000) % 3 == 0
        ? UInt8(number % 2 + 1) : 0
      #expect(try reader.tag(of: number) == expected, "\(number)")
      asked += 1
    }
    #expect(asked > 20_000)
  }

  @Test func aNumberOutOfOrderIsRefusedAndNothingIsWritten() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("tags")
    let writer = try EntryTagFile.Writer(path: path)
    try writer.append(5, tag: 1)
    #expect(throws: ContainerError.self) { try writer.append(5, tag: 2) }
    #expect(!FileManager.default.fileExists(atPath: path), "only finish() puts it in place")
  }

  @Test func aFileThatEndsInsideARecordIsRefusedWithItsPath() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("tags")
    try Data([1, 0, 0, 0, 0, 0, 0, 0, 2, 9, 9]).write(to: URL(fileURLWithPath: path))
    let reader = try EntryTagFile.Reader(path: path)
    #expect(try reader.tag(of: 1) == 2)
    #expect {
      try reader.tag(of: 2)
    } throws: { error in
      "\(error)".contains(path) && "\(error)".contains("ends inside a record")
    }
    #expect(throws: ContainerError.self) { try EntryTagFile.Reader(path: folder.path("none")) }
  }
}
