import ProcessMetrics
import Testing

@Suite("Sizes and /proc/PID/status")
struct ProcessMetricsTests {
  @Test func sizesParseInBinaryAndDecimalUnits() throws {
    #expect(try ByteCount.parse("5MiB") == 5 * 1024 * 1024)
    #expect(try ByteCount.parse("1MiB") == 1_048_576)
    #expect(try ByteCount.parse("512KiB") == 524_288)
    #expect(try ByteCount.parse("1.5GiB") == 1_610_612_736)
    #expect(try ByteCount.parse("5MB") == 5_000_000)
    #expect(try ByteCount.parse("4096") == 4096)
    #expect(try ByteCount.parse("64K") == 65_536)
    for bad in ["5XB", "", "MiB", "-1MiB", "5 MiB extra", "1e3MiB", "five"] {
      #expect(throws: ByteCountError.self, "\(bad)") { try ByteCount.parse(bad) }
    }
    #expect(ByteCount.format(5 * 1024 * 1024) == "5.0 MiB")
    #expect(ByteCount.format(512) == "512 B")
  }

  @Test func memoryStatusParsesProcStatus() {
    let text = """
      Name:\tcalldir-extensi
      VmPeak:\t   10000 kB
      VmHWM:\t    10816 kB
      VmRSS:\t    10700 kB
      RssAnon:\t     1108 kB
      RssFile:\t     9592 kB
      RssShmem:\t        4 kB
      """
    let status = MemoryStatus(parsing: Array(text.utf8))
    #expect(status.peakResidentBytes == 10_816 * 1024)
    #expect(status.residentBytes == 10_700 * 1024)
    #expect(status.anonymousBytes == 1_108 * 1024)
    #expect(status.fileBytes == 9_592 * 1024)
    #expect(status.footprintBytes == (1_108 + 4) * 1024)
    #expect(MemoryStatusReader.current()?.peakResidentBytes ?? 0 > 0)
  }
}
