// Writes a release whose newest version is reached from a container's base only through a long
// chain of small patches: the worst case a server can send an update (issue 52, item 11: each
// file fetched over HTTP once leaked 45 KB). Scripts/chain-over-http.py times `calldir app
// update` on it from a folder and over HTTP, in the same run.
//
// usage: calldir-chain-release CONTAINER BASE-NAME LINKS RELEASE
//   CONTAINER  a compiled container (calldir compile --out): the app's copy at the chain's start
//   BASE-NAME  the manifest's base to chain (an identification base, larger than the chain)
//   LINKS      patches in the chain (each version relabels one entry of the last)
//   RELEASE    the release folder to write (bases/, patches/, index.json)
// exit: 0 written; 1 usage or a base that cannot be read or patched (one line on stderr)

import BaseFormat
import DirectoryContainer
import Foundation
import ReleaseFormat

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data(("calldir-chain-release: " + message + "\n").utf8))
  exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 4, let links = Int(arguments[arguments.startIndex + 2]), links >= 1
else { fail("usage: calldir-chain-release CONTAINER BASE-NAME LINKS RELEASE") }
let container = arguments[arguments.startIndex]
let chained = arguments[arguments.startIndex + 1]
let release = arguments[arguments.startIndex + 3]

/// Writes the release; top-level code runs on the main actor, and the links are made off it.
nonisolated func writeRelease(container: String, chained: String, links: Int, release: String)
  throws
{
  let manifest = try Manifest.read(container: container)
  guard let start = manifest.bases.first(where: { $0.name == chained }) else {
    fail("\(container) has no base \(chained)")
  }
  for folder in ["bases", "patches", "scratch"] {
    try FileManager.default.createDirectory(
      atPath: release + "/" + folder, withIntermediateDirectories: true)
  }
  // Version k is the start with entry k % 5000 relabelled (version 0: the start itself), so
  // each link k-1 → k changes two entries and every link can be made on its own, on every core.
  let original = container + "/" + start.file
  let entryCount = try MappedBaseReader(path: original).header.entryCount
  @Sendable func writeVersion(_ version: Int, to path: String) throws {
    // Version 0 is the container's own file, byte for byte: the chain starts at its hash.
    if version == 0 {
      try? FileManager.default.removeItem(atPath: path)
      try FileManager.default.copyItem(atPath: original, toPath: path)
      return
    }
    let reader = try MappedBaseReader(path: original)
    // The dictionary chosen as the patch applier chooses it: its output is then this file.
    let writer = try BaseWriter(
      path: path, kind: reader.header.kind, compact: reader.header.isCompact,
      dictionaryChoice: .firstLabels)
    var place = 0
    while let entry = try reader.next() {
      let relabelled = place == version % min(5000, entryCount)
      try writer.append(entry.number, label: relabelled ? "Version \(version)" : entry.label)
      place += 1
    }
    try writer.finish()
  }
  final class Results: @unchecked Sendable {
    let lock = NSLock()
    var patches: [ReleaseIndex.Patch?]
    var failure: String?
    init(_ count: Int) { patches = Array(repeating: nil, count: count) }
  }
  let results = Results(links)
  DispatchQueue.concurrentPerform(iterations: links) { offset in
    let link = offset + 1
    let from = release + "/scratch/\(link).from.cdb"
    let to = release + "/scratch/\(link).to.cdb"
    let patchFile = "patches/\(link).cdp"
    do {
      try writeVersion(link - 1, to: from)
      try writeVersion(link, to: to)
      try PatchMaker.make(from: from, to: to, patch: release + "/" + patchFile)
      let bytes =
        (try FileManager.default.attributesOfItem(atPath: release + "/" + patchFile)[.size]
          as? Int) ?? 0
      let patch = ReleaseIndex.Patch(
        name: chained, fromSHA256: SHA256.hexDigest(ofFile: from)!,
        toSHA256: SHA256.hexDigest(ofFile: to)!, file: patchFile, byteCount: bytes,
        sha256: SHA256.hexDigest(ofFile: release + "/" + patchFile)!)
      try? FileManager.default.removeItem(atPath: from)
      try? FileManager.default.removeItem(atPath: to)
      results.lock.lock()
      results.patches[offset] = patch
      results.lock.unlock()
    } catch {
      results.lock.lock()
      results.failure = "link \(link): \(error)"
      results.lock.unlock()
    }
  }
  if let failure = results.failure { fail(failure) }
  let patches = results.patches.compactMap { $0 }
  let previous = release + "/scratch/newest.cdb"
  try writeVersion(links, to: previous)
  let index = Int(entryCount)
  // The newest version: every base of the container, the chained one at the chain's end.
  var bases: [ReleaseIndex.Base] = []
  for base in manifest.bases where base.state != .retired {
    let source = base.name == chained ? previous : container + "/" + base.file
    let sha256 = SHA256.hexDigest(ofFile: source)!
    let file = "bases/\(base.name).\(sha256.prefix(16)).cdb"
    try? FileManager.default.removeItem(atPath: release + "/" + file)
    try FileManager.default.copyItem(atPath: source, toPath: release + "/" + file)
    let attributes = try FileManager.default.attributesOfItem(atPath: source)
    let entries = base.name == chained ? index : base.entries
    bases.append(
      ReleaseIndex.Base(
        name: base.name, role: base.role.rawValue, region: base.region, priority: base.priority,
        entries: entries, sha256: sha256, byteCount: (attributes[.size] as? Int) ?? 0, file: file))
  }
  try? FileManager.default.removeItem(atPath: release + "/scratch")
  let releaseIndex = ReleaseIndex(versions: [.init(number: 2, bases: bases)], patches: patches)
  try Data(releaseIndex.json.utf8).write(to: URL(fileURLWithPath: release + "/index.json"))
  let patchBytes = patches.map(\.byteCount).reduce(0, +)
  print(
    "\(links) patches, \(patchBytes) bytes in all; the chained base is \(bases.first { $0.name == chained }!.byteCount) bytes"
  )
}

do {
  try writeRelease(container: container, chained: chained, links: links, release: release)
} catch {
  fail("\(error)")
}
