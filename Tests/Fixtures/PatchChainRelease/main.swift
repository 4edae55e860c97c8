// Writes a release whose newest version is reached from a container's bases only through long
// chains of small patches: the worst case a server can send an update (issue 52, item 11: each
// file fetched over HTTP once leaked 45 KB, and a 12,000-patch update took 544 MB).
// Scripts/update-over-http.py times `calldir app update` on it from a folder and over HTTP, in
// the same run.
//
// usage: calldir-chain-release CONTAINER BASES LINKS RELEASE
//   CONTAINER  a compiled container (calldir compile --out): the app's copy at the chains' start
//   BASES      the manifest's bases to chain: a name, names joined by commas, or "regions" (every
//              region base). Each must be larger than its chain, or the update fetches it whole.
//   LINKS      patches in each base's chain (each version relabels one entry of the last):
//              75 region bases of 160 links make a 12,000-patch update
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
else { fail("usage: calldir-chain-release CONTAINER BASES LINKS RELEASE") }
let container = arguments[arguments.startIndex]
let chained = arguments[arguments.startIndex + 1]
let release = arguments[arguments.startIndex + 3]

/// Writes `version` of the base at `original`: version k relabels entry k % min(5000, entries)
/// (version 0 is the file itself, byte for byte: a chain starts at its hash), so each link
/// k-1 → k changes two entries and every link can be made on its own, on every core.
@Sendable func writeVersion(_ version: Int, of original: String, to path: String) throws {
  if version == 0 {
    try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.copyItem(atPath: original, toPath: path)
    return
  }
  let reader = try MappedBaseReader(path: original)
  let entryCount = reader.header.entryCount
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

/// Writes the release; top-level code runs on the main actor, and the links are made off it.
nonisolated func writeRelease(container: String, chained: String, links: Int, release: String)
  throws
{
  let manifest = try Manifest.read(container: container)
  let names: Set<String> =
    chained == "regions"
    ? Set(manifest.bases.filter { $0.role == .region && $0.state != .retired }.map(\.name))
    : Set(chained.split(separator: ",").map(String.init))
  let starts = manifest.bases.filter { names.contains($0.name) }
  guard starts.count == names.count, !starts.isEmpty else {
    fail("\(container) does not have every base of \(chained)")
  }
  for folder in ["bases", "patches", "scratch"] {
    try FileManager.default.createDirectory(
      atPath: release + "/" + folder, withIntermediateDirectories: true)
  }
  final class Results: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    let lock = NSLock()
    var patches: [ReleaseIndex.Patch?]
    var failure: String?
    init(_ count: Int) { patches = Array(repeating: nil, count: count) }
  }
  let results = Results(starts.count * links)
  let originals = starts.map { container + "/" + $0.file }
  DispatchQueue.concurrentPerform(iterations: starts.count * links) { offset in
    let (chain, link) = (offset / links, offset % links + 1)
    let (name, original) = (starts[chain].name, originals[chain])
    let from = release + "/scratch/\(name).\(link).from.cdb"
    let to = release + "/scratch/\(name).\(link).to.cdb"
    let patchFile = "patches/\(name).\(link).cdp"
    do {
      try writeVersion(link - 1, of: original, to: from)
      try writeVersion(link, of: original, to: to)
      try PatchMaker.make(from: from, to: to, patch: release + "/" + patchFile)
      let bytes =
        (try FileManager.default.attributesOfItem(atPath: release + "/" + patchFile)[.size]
          as? Int) ?? 0
      let patch = ReleaseIndex.Patch(
        name: name, fromSHA256: SHA256.hexDigest(ofFile: from)!,
        toSHA256: SHA256.hexDigest(ofFile: to)!, file: patchFile, byteCount: bytes,
        sha256: SHA256.hexDigest(ofFile: release + "/" + patchFile)!)
      try? FileManager.default.removeItem(atPath: from)
      try? FileManager.default.removeItem(atPath: to)
      results.lock.withLock { results.patches[offset] = patch }
    } catch {
      results.lock.withLock { results.failure = "\(name), link \(link): \(error)" }
    }
  }
  if let failure = results.failure { fail(failure) }
  let patches = results.patches.compactMap { $0 }
  // The newest version: every base of the container, each chained one at its chain's end.
  var bases: [ReleaseIndex.Base] = []
  for base in manifest.bases where base.state != .retired {
    var source = container + "/" + base.file
    if names.contains(base.name) {
      let newest = release + "/scratch/\(base.name).newest.cdb"
      try writeVersion(links, of: source, to: newest)
      source = newest
    }
    let sha256 = SHA256.hexDigest(ofFile: source)!
    let file = "bases/\(base.name).\(sha256.prefix(16)).cdb"
    try? FileManager.default.removeItem(atPath: release + "/" + file)
    try FileManager.default.copyItem(atPath: source, toPath: release + "/" + file)
    let attributes = try FileManager.default.attributesOfItem(atPath: source)
    bases.append(
      ReleaseIndex.Base(
        name: base.name, role: base.role.rawValue, region: base.region, priority: base.priority,
        entries: base.entries, sha256: sha256, byteCount: (attributes[.size] as? Int) ?? 0,
        file: file))
  }
  try? FileManager.default.removeItem(atPath: release + "/scratch")
  let releaseIndex = ReleaseIndex(versions: [.init(number: 2, bases: bases)], patches: patches)
  try Data(releaseIndex.json.utf8).write(to: URL(fileURLWithPath: release + "/index.json"))
  let patchBytes = patches.map(\.byteCount).reduce(0, +)
  let chainedBytes = bases.filter { names.contains($0.name) }.map(\.byteCount)
  print(
    "\(patches.count) patches (\(links) for each of \(starts.count) bases), \(patchBytes) bytes in all; the chained bases are \(chainedBytes.min()!) to \(chainedBytes.max()!) bytes"
  )
}

do {
  try writeRelease(container: container, chained: chained, links: links, release: release)
} catch {
  fail("\(error)")
}
