import BaseFormat
import DirectoryContainer
import Foundation
import TestSupport
import Testing

@testable import ReleaseFormat

/// Many bases' patches applied at once, as an update applies them (issue 27: apply on every
/// core): each chain's steps in order on one thread, the results the same as one at a time, and
/// a failing chain reported once every thread has stopped, the others' results made.
@Suite("Patch chains applied on several threads")
struct PatchChainTests {
  /// `count` bases of different sizes, each with a version two patches on: old → middle → new.
  func releases(_ count: Int, in folder: TemporaryFolder) throws -> [PatchChain] {
    try (0..<count).map { index in
      let size = 2_000 + 700 * index
      let versions: [[(Int64, String)]] = (0..<3).map { (version: Int) in
        (0..<size).map { (entry: Int) -> (Int64, String) in
          let shift = entry % 97 == version ? 1 : 0
          let number = Int64(74_950_000_000 + 10 * entry + shift)
          return (number, "Фирма \((entry * (version + 1)) % 211)")
        }
      }
      let paths = (0..<3).map { folder.path("base-\(index)-v\($0).cdb") }
      for (entries, path) in zip(versions, paths) {
        let writer = try BaseWriter(
          path: path, kind: .identification, compact: true, dictionaryChoice: .firstLabels)
        for (number, label) in entries { try writer.append(number, label: label) }
        try writer.finish()
      }
      let patches = [folder.path("p-\(index)-1.cdp"), folder.path("p-\(index)-2.cdp")]
      try PatchMaker.make(from: paths[0], to: paths[1], patch: patches[0])
      try PatchMaker.make(from: paths[1], to: paths[2], patch: patches[1])
      return PatchChain(
        patches: patches, oldPath: paths[0],
        outputs: [folder.path("made-\(index)-1.cdb"), folder.path("made-\(index)-2.cdb")])
    }
  }

  @Test(arguments: [1, 2, 3, 8])
  func chainsMakeTheNewestBasesOnAnyThreadCount(threads: Int) throws {
    let folder = try TemporaryFolder()
    let chains = try releases(5, in: folder)
    try PatchApplier.apply(chains, threads: threads)
    for (index, chain) in chains.enumerated() {
      let made = try #require(FileManager.default.contents(atPath: chain.madePath))
      let published = try #require(
        FileManager.default.contents(atPath: folder.path("base-\(index)-v2.cdb")))
      #expect(made == published, "base \(index) on \(threads) threads")
      // The step before's base is gone once the next is made (a long chain once filled the
      // disk with them); the chain's old base is the caller's and stays.
      #expect(!FileManager.default.fileExists(atPath: chain.outputs[0]))
      #expect(FileManager.default.fileExists(atPath: chain.oldPath))
    }
  }

  @Test func theSplitIsBalancedAndTheSameEveryTime() throws {
    let folder = try TemporaryFolder()
    let chains = try releases(6, in: folder)
    let lanes = PatchApplier.lanes(for: chains, threads: 2)
    #expect(lanes == PatchApplier.lanes(for: chains, threads: 2))
    #expect(lanes.count == 2)
    #expect(Set(lanes.flatMap { $0 }) == Set(chains.indices))
    // Largest first: the biggest base (the last) starts the first lane, the next the second.
    #expect(lanes[0].first == 5 && lanes[1].first == 4)
    #expect(PatchApplier.lanes(for: chains, threads: 64).count == chains.count)
  }

  @Test func aFailingChainIsReportedAndTheOthersAreMade() throws {
    let folder = try TemporaryFolder()
    var chains = try releases(4, in: folder)
    // Chain 1's second patch applied to the wrong base: chain 3's first, on another thread.
    chains[1].patches[1] = chains[3].patches[0]
    chains[2].oldPath = folder.path("base-0-v0.cdb")
    #expect {
      try PatchApplier.apply(chains, threads: 2)
    } throws: { error in
      // The first failing chain in the order given, though chain 2 also failed.
      (error as? ReleaseError)?.description.contains("p-3-1.cdp") == true
    }
    for index in [0, 3] {
      let made = try #require(FileManager.default.contents(atPath: chains[index].madePath))
      #expect(made == FileManager.default.contents(atPath: folder.path("base-\(index)-v2.cdb")))
    }
    #expect(!FileManager.default.fileExists(atPath: chains[1].outputs[1]))
    #expect(!FileManager.default.fileExists(atPath: chains[2].outputs[0]))
    // The failed chain's first step made its base; the failure removed it.
    #expect(!FileManager.default.fileExists(atPath: chains[1].outputs[0]))
    #expect(FileManager.default.fileExists(atPath: chains[1].oldPath))
  }

  /// A stop asked for mid-apply (an app's background time expiring) is heard inside a base's
  /// apply, not only between patches: the apply ends with a cancellation, its output gone, and
  /// the same apply unasked makes the published base.
  @Test func aStopIsHeardInsideAnApplyAndLeavesNoOutput() throws {
    let folder = try TemporaryFolder()
    // One base large enough for several stop checks (65,536 entries each).
    let size = PatchApplier.stopCheckEntries * 3
    let paths = [folder.path("old.cdb"), folder.path("new.cdb")]
    for (version, path) in paths.enumerated() {
      let writer = try BaseWriter(
        path: path, kind: .blocking, compact: true, dictionaryChoice: .firstLabels)
      for entry in 0..<size where entry % 1_000 != version {
        try writer.append(Int64(74_950_000_000 + entry), label: "")
      }
      try writer.finish()
    }
    let patch = folder.path("p.cdp")
    try PatchMaker.make(from: paths[0], to: paths[1], patch: patch)
    let output = folder.path("made.cdb")
    var asked = 0
    #expect {
      try PatchApplier.apply(patch: patch, to: paths[0], output: output) {
        asked += 1
        return asked == 2
      }
    } throws: { error in
      (error as? ReleaseError)?.kind == .cancelled
    }
    #expect(asked == 2, "asked twice: at 65,536 and at 131,072 entries written")
    #expect(!FileManager.default.fileExists(atPath: output))
    // A chain told to stop before it starts makes nothing either.
    let chain = PatchChain(patches: [patch], oldPath: paths[0], outputs: [output])
    #expect {
      try PatchApplier.apply([chain], threads: 1, shouldStop: { true })
    } throws: { error in
      (error as? ReleaseError)?.kind == .cancelled
    }
    #expect(!FileManager.default.fileExists(atPath: output))
    try PatchApplier.apply(patch: patch, to: paths[0], output: output)
    #expect(
      FileManager.default.contents(atPath: output) == FileManager.default.contents(atPath: paths[1])
    )
  }
}
