import BenchMeasuring
import Foundation

/// A run record as a row of the bench CSV (the columns are documented in CSVColumns), and back.
extension RunRecord {
  /// Column names, in order. The first twenty are the documented contract of the CSV.
  public static let columns = [
    "timestamp", "commit", "host", "profile", "entries", "file_bytes", "strategy", "binary",
    "repeat", "wall_s", "load_s", "user_s", "sys_s", "entries_per_s", "peak_rss_bytes",
    "idle_rss_bytes", "footprint_peak_bytes", "heap_peak_bytes", "memory_limit_bytes", "status",
    "run", "rss_over_idle_bytes", "ru_maxrss_bytes", "child_vm_hwm_bytes",
    "sampled_footprint_peak_bytes", "child_footprint_bytes", "rss_file_bytes", "samples",
    "sample_hz", "exit_code", "signal", "error_code", "detail", "phase", "time_to_enabled_s",
    "time_to_full_s", "host_ingest_per_s", "allocator", "allocations", "allocations_per_entry",
    "instructions_per_entry", "base_version", "build", "installed_entries", "requests",
    "time_to_all_s", "cap_scope", "device", "device_projected_s", "device_to_enabled_s",
    "device_to_all_s", "startup_s", "startup_cpu_s",
  ]

  /// The record's fields in ``columns`` order.
  public var fields: [String] {
    [
      timestamp, commit, host, profile, String(entries), String(fileBytes), strategy, binary,
      String(repeatIndex), seconds(wallSeconds), seconds(loadSeconds), seconds(userSeconds),
      seconds(systemSeconds), String(Int(entriesPerSecond.rounded())), String(peakRSSBytes),
      String(idleRSSBytes), String(footprintPeakBytes), heapPeakBytes.map(String.init) ?? "",
      String(memoryLimitBytes), status.rawValue, run.rawValue, String(rssOverIdleBytes),
      String(ruMaxRSSBytes), String(childPeakRSSBytes), String(sampledFootprintPeakBytes),
      String(childFootprintBytes), String(rssFileBytes), String(samples),
      String(Int(sampleHz.rounded())), exitCode.map(String.init) ?? "",
      signal.map(String.init) ?? "", errorCode.map(String.init) ?? "", detail, phase,
      timeToEnabledSeconds.map(seconds) ?? "", timeToFullSeconds.map(seconds) ?? "",
      hostIngestPerSecond.map { String(Int($0.rounded())) } ?? "", allocator,
      allocations.map(String.init) ?? "",
      allocationsPerEntry.map { String(format: "%.6f", $0) } ?? "",
      instructionsPerEntry.map { String(format: "%.3f", $0) } ?? "",
      baseVersion.map(String.init) ?? "", build, installedEntries.map(String.init) ?? "",
      requests.map(String.init) ?? "", timeToAllSeconds.map(seconds) ?? "", capScope, device,
      deviceProjectedSeconds.map(seconds) ?? "", deviceTimeToEnabledSeconds.map(seconds) ?? "",
      deviceTimeToAllSeconds.map(seconds) ?? "", startupSeconds.map(seconds) ?? "",
      startupCPUSeconds.map(seconds) ?? "",
    ]
  }

  /// Reads a record from a CSV row.
  /// - Throws: ``CSVError`` naming the column whose value does not parse, or a missing column.
  public init(row: [String], header: [String], line: Int) throws(CSVError) {
    self.init()
    func value(_ name: String) throws(CSVError) -> String {
      guard let index = header.firstIndex(of: name) else {
        throw CSVError(line: 1, problem: "missing column '\(name)'")
      }
      return row[index]
    }
    func optional(_ name: String) -> String {
      header.firstIndex(of: name).map { row[$0] } ?? ""
    }
    // Every figure is a count, a size or a time: a negative one, NaN or infinity is a broken
    // row, refused with its line (they gave "−5.000 → 1e+308, −inf%" in the history, and
    // `nan` coordinates in charts).
    func integer(_ name: String) throws(CSVError) -> Int {
      let text = try value(name)
      guard let parsed = Int(text), parsed >= 0 else {
        throw CSVError(
          line: line, problem: "column '\(name)': '\(text)' is not a whole number of 0 or more")
      }
      return parsed
    }
    func checkedReal(_ name: String, _ text: String) throws(CSVError) -> Double {
      guard let parsed = Double(text), parsed.isFinite, parsed >= 0 else {
        throw CSVError(
          line: line, problem: "column '\(name)': '\(text)' is not a finite number of 0 or more")
      }
      return parsed
    }
    func real(_ name: String) throws(CSVError) -> Double { try checkedReal(name, try value(name)) }
    func optionalReal(_ name: String) throws(CSVError) -> Double? {
      let text = optional(name)
      return text.isEmpty ? nil : try checkedReal(name, text)
    }
    // Names that become series, labels and keys: a control character (a NUL merged two
    // strategies' series) is refused.
    func name(_ column: String) throws(CSVError) -> String {
      let text = column == "strategy" || column == "profile" ? try value(column) : optional(column)
      guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
        throw CSVError(
          line: line,
          problem: "column '\(column)': \(text.debugDescription) holds a control character")
      }
      return text
    }
    for column in [
      "timestamp", "commit", "host", "binary", "allocator", "build", "device", "cap_scope", "phase",
    ] {
      _ = try name(column)
    }
    timestamp = try value("timestamp")
    commit = try value("commit")
    host = try value("host")
    profile = try name("profile")
    entries = try integer("entries")
    fileBytes = try integer("file_bytes")
    strategy = try name("strategy")
    binary = try value("binary")
    repeatIndex = try integer("repeat")
    wallSeconds = try real("wall_s")
    loadSeconds = try real("load_s")
    userSeconds = try real("user_s")
    systemSeconds = try real("sys_s")
    entriesPerSecond = try real("entries_per_s")
    peakRSSBytes = try integer("peak_rss_bytes")
    idleRSSBytes = try integer("idle_rss_bytes")
    footprintPeakBytes = try integer("footprint_peak_bytes")
    heapPeakBytes = try value("heap_peak_bytes").isEmpty ? nil : try integer("heap_peak_bytes")
    memoryLimitBytes = try integer("memory_limit_bytes")
    let statusText = try value("status")
    guard let parsedStatus = Status(rawValue: statusText) else {
      throw CSVError(line: line, problem: "column 'status': unknown status '\(statusText)'")
    }
    status = parsedStatus
    run = RunKind(rawValue: optional("run")) ?? .load
    ruMaxRSSBytes = Int(optional("ru_maxrss_bytes")) ?? 0
    childPeakRSSBytes = Int(optional("child_vm_hwm_bytes")) ?? 0
    sampledFootprintPeakBytes = Int(optional("sampled_footprint_peak_bytes")) ?? 0
    childFootprintBytes = Int(optional("child_footprint_bytes")) ?? 0
    rssFileBytes = Int(optional("rss_file_bytes")) ?? 0
    samples = Int(optional("samples")) ?? 0
    sampleHz = try optionalReal("sample_hz") ?? 0
    exitCode = Int(optional("exit_code"))
    signal = Int(optional("signal"))
    errorCode = Int(optional("error_code"))
    detail = optional("detail")
    phase = optional("phase")
    timeToEnabledSeconds = try optionalReal("time_to_enabled_s")
    timeToFullSeconds = try optionalReal("time_to_full_s")
    hostIngestPerSecond = try optionalReal("host_ingest_per_s")
    allocator = optional("allocator")
    allocations = optional("allocations").isEmpty ? nil : try integer("allocations")
    instructionsPerEntry = try optionalReal("instructions_per_entry")
    baseVersion = Int(optional("base_version"))
    build = optional("build")
    installedEntries = Int(optional("installed_entries"))
    requests = Int(optional("requests"))
    timeToAllSeconds = try optionalReal("time_to_all_s")
    capScope = optional("cap_scope")
    device = optional("device")
    deviceProjectedSeconds = try optionalReal("device_projected_s")
    deviceTimeToEnabledSeconds = try optionalReal("device_to_enabled_s")
    deviceTimeToAllSeconds = try optionalReal("device_to_all_s")
    startupSeconds = try optionalReal("startup_s")
    startupCPUSeconds = try optionalReal("startup_cpu_s")
  }

  /// Reads every record of a bench CSV.
  /// - Throws: ``CSVError`` for malformed CSV or a row that does not parse.
  public static func records(fromCSV text: String) throws(CSVError) -> [RunRecord] {
    let table = try CSVTable(parsing: text)
    var records: [RunRecord] = []
    for (index, row) in table.rows.enumerated() {
      records.append(try RunRecord(row: row, header: table.header, line: index + 2))
    }
    return records
  }

  /// A CSV of `records`, header first.
  public static func csv(_ records: [RunRecord]) -> String {
    CSVTable(header: columns, rows: records.map(\.fields)).encoded()
  }
}

private func seconds(_ value: Double) -> String { String(format: "%.6f", value) }
