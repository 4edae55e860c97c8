import BaseFormat
import Foundation
import SystemCalls

extension LiveLookupExporter {
  /// The use-case list's file name, written last: when it is there, the rest is.
  public static let useCasesFileName = "usecases.json"

  /// Writes the whole export into `folder` (made if missing): `block.binpb`, `identity.binpb`,
  /// `block-config.json`, `identity-config.json` and, last, `usecases.json`. Each file is
  /// written under a temporary name and renamed into place once complete, so a failed export
  /// leaves the folder as it was.
  /// - Throws: ``ExportError`` naming the base or file and the problem.
  public func export(to folder: String) throws(ExportError) -> Report {
    if !FolderCalls.exists(folder, followingLinks: true) {
      do {
        try FolderCalls.makeFolder(folder)
      } catch {
        throw ExportError("\(folder): cannot make the folder: \(error)")
      }
    }
    // The previous export's parameters, read before anything is replaced: kept while the
    // data fits them, so devices need not fetch new PIR configurations.
    let previous = ["block", "identity"].map {
      ProcessingConfig.previous(
        stem: $0, bundleID: options.bundleID, file: folder + "/\($0)-config.json")
    }
    var configs: [ProcessingConfig] = []
    var texts: [Data] = []
    // The configurations are checked against what the processor will refuse before either
    // database replaces the last: a team learns it here, not from a 20-minute run.
    // Pre-sharded inputs are split from the complete databases before either replaces the
    // last, in a folder of their own: a shard the processor would refuse fails the export with
    // nothing replaced.
    var preSharded: (building: String, shards: [PreShardedDatasets.Shard])?
    defer { if let preSharded { try? FileManager.default.removeItem(atPath: preSharded.building) } }
    var report = try writeDatabases(into: folder) { report, written throws(ExportError) in
      let planned = ProcessingConfig.plan(
        bundleID: options.bundleID, block: report.blockData, identity: report.identityData,
        sharding: options.sharding, previous: (previous[0], previous[1]))
      configs = [planned.block, planned.identity]
      for (config, data) in zip(configs, [report.blockData, report.identityData]) {
        let text = try config.checkedJSON(named: "\(config.stem)-config.json", for: data)
        texts.append(text)
      }
      if options.preSharded {
        preSharded = try buildPreSharded(
          configs, from: [written.block, written.identity], into: folder)
      }
    }
    do {
      for (config, text) in zip(configs, texts) {
        try Self.write(text, to: folder + "/\(config.stem)-config.json")
      }
      if let built = preSharded {
        try installPreSharded(built.building, into: folder)
        report.preShardedShards = built.shards
      }
      try Self.write(
        try ProcessingConfig.useCases(configs), to: folder + "/" + Self.useCasesFileName)
    } catch let error as ExportError {
      throw error
    } catch {
      throw ExportError("\(folder): \(error)")
    }
    report.configs = configs
    report.parameterChanges = zip(previous, configs).compactMap { old, new in
      old.flatMap { Self.parameterChange(from: $0, to: new) }
    }
    return report
  }

  /// Splits each configuration's database (`databases`, in the same order) into
  /// ``PreShardedDatasets/folderName``'s files, in a folder of its own inside `folder`.
  /// - Returns: that folder and the shards written.
  func buildPreSharded(_ configs: [ProcessingConfig], from databases: [String], into folder: String)
    throws(ExportError) -> (building: String, shards: [PreShardedDatasets.Shard])
  {
    let building = folder + "/.\(PreShardedDatasets.folderName)-\(getpid())"
    try? FileManager.default.removeItem(atPath: building)
    do {
      try FolderCalls.makeFolder(building)
    } catch {
      throw ExportError("\(building): cannot make the folder: \(error)")
    }
    var shards: [PreShardedDatasets.Shard] = []
    do {
      for (config, database) in zip(configs, databases) {
        shards += try PreShardedDatasets.split(database: database, config: config, into: building)
      }
      try Self.write(
        try ProcessingConfig.useCases(configs), to: building + "/" + Self.useCasesFileName)
    } catch {
      try? FileManager.default.removeItem(atPath: building)
      throw (error as? ExportError) ?? ExportError("\(building): \(error)")
    }
    AtomicFileWriter.syncDirectory(building)
    return (building, shards)
  }

  /// Renames the built folder over the last ``PreShardedDatasets/folderName``, as a whole.
  func installPreSharded(_ building: String, into folder: String) throws(ExportError) {
    let final = folder + "/" + PreShardedDatasets.folderName
    let retired = building + "-old"
    do {
      if FolderCalls.exists(final) {
        try FileManager.default.moveItem(atPath: final, toPath: retired)
      }
      try FileManager.default.moveItem(atPath: building, toPath: final)
    } catch {
      if !FolderCalls.exists(final), FolderCalls.exists(retired) {
        try? FileManager.default.moveItem(atPath: retired, toPath: final)
      }
      throw ExportError("\(final): \(error)")
    }
    AtomicFileWriter.syncDirectory(folder)
    try? FileManager.default.removeItem(atPath: retired)
  }

  /// The PIR parameters a device holds that changed between two exports, as one line; nil
  /// when none did. Apple's documentation of `refreshPIRParameters()` lists what changes them:
  /// the shard count, the encryption parameters, the per-shard cuckoo table's size and its
  /// hashing parameters (the entries per shard may change while the table stays the same).
  static func parameterChange(from old: ProcessingConfig, to new: ProcessingConfig) -> String? {
    var changed: [String] = []
    if old.shardCount != new.shardCount {
      changed.append("shards \(old.shardCount) → \(new.shardCount)")
    }
    if old.bucketCount != new.bucketCount {
      changed.append("cuckoo buckets \(old.bucketCount) → \(new.bucketCount)")
    }
    if old.bucketByteCount != new.bucketByteCount {
      changed.append("bucket bytes \(old.bucketByteCount) → \(new.bucketByteCount)")
    }
    if old.shardingFunction != new.shardingFunction {
      changed.append("sharding function changed")
    }
    guard !changed.isEmpty else { return nil }
    return
      "\(new.stem)-config.json: \(changed.joined(separator: ", ")): devices hold the old PIR parameters; once the service serves this export, the app calls LiveCallerIDLookupManager.refreshPIRParameters(forExtensionWithIdentifier:)"
  }

  static func write(_ data: Data, to path: String) throws(ExportError) {
    do {
      let file = try AtomicFileWriter(
        path: path, bufferByteCount: AtomicFileWriter.textBufferByteCount)
      do {
        try file.write(Array(data) + [0x0a])
        try file.commit()
      } catch {
        file.discard()
        throw error
      }
    } catch {
      throw ExportError("\(error)")
    }
  }
}
