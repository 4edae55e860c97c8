import CallDirectoryApp
import DirectoryContainer
import Foundation
import TestSupport
import Testing

/// Bad input to the user's lists gets one line naming the problem and changes nothing.
@Suite("The user's lists refuse bad input and change nothing")
struct UserListsInputTests {
  func editor() throws -> (UserListsEditor, String, TemporaryFolder) {
    let folder = try TemporaryFolder()
    let container = folder.path("container")
    return (UserListsEditor(container: container, country: "FR"), container, folder)
  }

  func bytes(_ container: String) -> Data? {
    FileManager.default.contents(atPath: container + "/" + UserListsFile.currentName)
  }

  func refused(
    _ editor: UserListsEditor, _ container: String, saying words: String,
    _ edit: (UserListsEditor) async throws -> Void
  ) async {
    let before = bytes(container)
    do {
      try await edit(editor)
      Issue.record("accepted")
    } catch let error as ContainerAppError {
      #expect(error.kind == .badArgument, "\(error)")
      #expect(error.description.contains(words), "\(error)")
      #expect(!error.description.contains("\n"))
    } catch {
      Issue.record("not a ContainerAppError: \(error)")
    }
    #expect(bytes(container) == before, "the lists are unchanged")
  }

  @Test func badEditsAreRefused() async throws {
    let (editor, container, _folder) = try editor()
    _ = _folder
    try await editor.block("06 12 34 56 78", label: "Cousin")
    #expect(try await editor.entries().blockedNumbers == [33_612_345_678], "read as FR's")
    await refused(editor, container, saying: "is not a phone number") {
      try await $0.block("call me maybe")
    }
    await refused(editor, container, saying: "covers the whole country code +33") {
      try await $0.blockPrefix("+33 #########")
    }
    await refused(editor, container, saying: "more than the 1000000") {
      try await $0.blockPrefix("+33 #########", force: true)
    }
    await refused(editor, container, saying: "covers the whole country code +290") {
      try await $0.blockPrefix("+290 #####")
    }
    try await editor.blockPrefix("+290 #####", force: true)
    #expect(try await editor.entries().blockedRanges == [29_000_000...29_099_999])
    await refused(editor, container, saying: "over the limit of 1024") {
      try await $0.label("+33612345679", String(repeating: "é", count: 600))
    }
    await refused(editor, container, saying: "control character") {
      try await $0.label("+33612345679", "two\nlines")
    }
    await refused(editor, container, saying: "a bidirectional control") {
      try await $0.label("+33612345679", "\u{202E}knaB")
    }
    await refused(editor, container, saying: "a character that shows nothing") {
      try await $0.block("+33612345679", label: "Ba\u{200B}nk")
    }
    await refused(editor, container, saying: "'#' stands for the trailing digits only") {
      try await $0.blockPrefix("+33 1 6# 00 00 ##")
    }
    await refused(editor, container, saying: "written by a newer calldir (version 2") {
      try await $0.importing("calldir-user-lists\t2\nblock\t33612345678\n")
    }
    await refused(editor, container, saying: "the imported lists:2: 'x1' is not a number") {
      try await $0.importing("calldir-user-lists\t1\nblock\tx1\n")
    }
  }

  /// An export read back is the same lists; a clear empties them and keeps counting revisions.
  @Test func anExportImportsBackAndAClearEmpties() async throws {
    let (editor, _, _folder) = try editor()
    _ = _folder
    try await editor.block("+33612345678", label: "Cousin")
    try await editor.allow("+33162000005")
    try await editor.blockPrefix("+33 1 62 00 ## ##")
    try await editor.pause(until: 1_900_000_000)
    let exported = try await editor.exported()
    let saved = try await editor.entries()
    try await editor.clear()
    let cleared = try await editor.entries()
    #expect(cleared.isEmpty && cleared.revision == saved.revision + 1)
    try await editor.importing(exported)
    let restored = try await editor.entries()
    #expect(restored.blockedNumbers == saved.blockedNumbers)
    #expect(restored.blockedRanges == saved.blockedRanges)
    #expect(restored.allowedNumbers == saved.allowedNumbers)
    #expect(restored.labels == saved.labels)
    #expect(restored.pause == .until(secondsSinceEpoch: 1_900_000_000))
    #expect(restored.isPaused(at: 1_899_999_999) && !restored.isPaused(at: 1_900_000_000))
  }
}
