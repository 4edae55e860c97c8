import DirectoryContainer
import SystemCalls

extension ContainerApp {
  /// The bases whose installed file no longer holds what the system was given (changed in
  /// place, or gone): a difference from them would be wrong, so the sync reloads completely.
  ///
  /// A file whose stamp is the one recorded with its hash under the writers' lock
  /// (`HashStamps`) is taken as checked without reading it; the others are
  /// hashed on the library's own threads (the check stops within a 64 KiB chunk when the task
  /// is cancelled), and those found right are recorded, under the lock, for the next sync. A
  /// sync after an update reads no base it staged: staging hashed each while copying it.
  /// - Returns: the damaged bases' names, and how many files were read to find them.
  func checkInstalledBases(_ manifest: Manifest) async throws(ContainerAppError) -> (
    damaged: [String], filesHashed: Int
  ) {
    let container = self.container
    let installed = manifest.bases.compactMap { base in
      base.installedFile.map { (name: base.name, file: $0, sha256: base.expectedInstalledSHA256) }
    }
    guard !installed.isEmpty else { return ([], 0) }
    return try await BlockingWork.run { signal throws(ContainerAppError) in
      let stamps = HashStamps.read(container: container)
      var damaged: [String] = []
      var hashed: [(file: String, sha256: String, stamp: FileStamp)] = []
      var filesHashed = 0
      for base in installed {
        guard let expected = base.sha256 else {
          damaged.append(base.name)
          continue
        }
        if stamps.trustedSHA256(of: base.file, container: container) == expected { continue }
        let path = container + "/" + base.file
        let before = FileStamp(path: path)
        filesHashed += 1
        let digest = SHA256.hexDigest(ofFile: path, shouldStop: { signal.isStopped })
        try signal.check()
        guard digest == expected else {
          damaged.append(base.name)
          continue
        }
        if let before { hashed.append((base.file, expected, before)) }
      }
      if !hashed.isEmpty, let transaction = try? ContainerTransaction(container: container) {
        transaction.recordHashes(hashed)
      }
      return (damaged, filesHashed)
    }
  }
}
