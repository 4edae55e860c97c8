import ByteCoding

/// Memory figures of one process from Linux's `/proc/PID/status`, in bytes.
///
/// Footprint is `RssAnon + RssShmem`: private dirty and shared-memory pages, the closest Linux
/// analogue of iOS's memory footprint (file-backed pages such as a mapped base or the binary's own
/// code count in `RssFile` instead; proc(5)).
public struct MemoryStatus: Equatable, Sendable {
  /// Peak resident set size (`VmHWM`).
  public var peakResidentBytes: Int
  /// Current resident set size (`VmRSS`).
  public var residentBytes: Int
  /// Resident anonymous memory (`RssAnon`).
  public var anonymousBytes: Int
  /// Resident file-backed memory (`RssFile`).
  public var fileBytes: Int
  /// Resident shared memory (`RssShmem`).
  public var sharedMemoryBytes: Int

  /// Creates a status from its fields, in bytes.
  public init(
    peakResidentBytes: Int = 0, residentBytes: Int = 0, anonymousBytes: Int = 0,
    fileBytes: Int = 0, sharedMemoryBytes: Int = 0
  ) {
    self.peakResidentBytes = peakResidentBytes
    self.residentBytes = residentBytes
    self.anonymousBytes = anonymousBytes
    self.fileBytes = fileBytes
    self.sharedMemoryBytes = sharedMemoryBytes
  }

  /// `RssAnon + RssShmem`, in bytes.
  public var footprintBytes: Int { anonymousBytes + sharedMemoryBytes }

  /// Parses the text of a `/proc/PID/status` file. Fields it lacks stay 0 (a zombie has none).
  public init(parsing text: [UInt8]) {
    self = text.withByteView { MemoryStatus(parsing: $0) }
  }

  /// Parses the text of a `/proc/PID/status` file where it was read.
  package init(parsing text: ByteView) {
    self.init()
    var lineStart = 0
    let count = text.count
    while lineStart < count {
      var lineEnd = lineStart
      while lineEnd < count && text[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
      parseLine(text.rebased(lineStart..<lineEnd))
      lineStart = lineEnd + 1
    }
  }

  private mutating func parseLine(_ line: ByteView) {
    // Lines look like "VmHWM:\t    1234 kB".
    guard line.count > 3, line[0] == UInt8(ascii: "V") || line[0] == UInt8(ascii: "R") else {
      return
    }
    var colon = 0
    while colon < line.count && line[colon] != UInt8(ascii: ":") { colon += 1 }
    guard colon < line.count else { return }
    var value = 0
    var index = colon + 1
    while index < line.count {
      let byte = line[index]
      if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      } else if value > 0 {
        break
      }
      index += 1
    }
    let bytes = value * 1024
    let name = line.rebased(0..<colon)
    if Self.matches(name, "VmHWM") {
      peakResidentBytes = bytes
    } else if Self.matches(name, "VmRSS") {
      residentBytes = bytes
    } else if Self.matches(name, "RssAnon") {
      anonymousBytes = bytes
    } else if Self.matches(name, "RssFile") {
      fileBytes = bytes
    } else if Self.matches(name, "RssShmem") {
      sharedMemoryBytes = bytes
    }
  }

  private static func matches(_ bytes: ByteView, _ name: String) -> Bool {
    bytes.elementsEqual(name.utf8)
  }
}
