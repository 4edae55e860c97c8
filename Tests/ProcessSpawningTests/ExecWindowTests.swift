import ProcessMetrics
import Testing

@testable import ProcessSpawning

/// Linux wakes a vfork parent before the child's exec switches its address space, so the first
/// samples of `/proc/CHILD/status` may be the parent's own figures: on a loaded machine one such
/// sample (the bench's 15 MiB) killed a 1.4 MiB extension at the 5 MiB limit. The supervisor
/// skips a sample whose high-water mark is the parent's.
@Suite("A child's samples before its exec are not its own")
struct ExecWindowTests {
  func status(peak: Int, anonymous: Int) -> MemoryStatus {
    MemoryStatus(peakResidentBytes: peak, residentBytes: anonymous, anonymousBytes: anonymous)
  }

  @Test func aSampleOfTheParentsAddressSpaceIsSkipped() {
    let parent = status(peak: 19_304 * 1024, anonymous: 15_360 * 1024)
    // The shared mm: the same high-water mark, even if the resident figures moved between reads.
    #expect(
      ChildProcess.sharesParentAddressSpace(
        child: status(peak: 19_304 * 1024, anonymous: 14_868 * 1024), parent: parent))
    // After the exec: the child's own, small image.
    #expect(
      !ChildProcess.sharesParentAddressSpace(
        child: status(peak: 1_400 * 1024, anonymous: 1_200 * 1024), parent: parent))
    // Without the parent's figures nothing is skipped.
    #expect(
      !ChildProcess.sharesParentAddressSpace(
        child: status(peak: 19_304 * 1024, anonymous: 14_868 * 1024), parent: nil))
  }

  /// The supervisor still samples a real child: its footprint is its own, far below ours.
  @Test func aRealChildIsSampledAsItself() throws {
    let outcome = try ChildProcess.run(
      executable: "/bin/sh", arguments: ["-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"],
      limits: .init(memoryLimitBytes: 64 << 20, timeoutSeconds: 60))
    #expect(outcome.exitCode == 0)
    #expect(outcome.sampleCount > 0)
    let own = try #require(MemoryStatusReader.current())
    #expect(
      outcome.sampledFootprintPeakBytes < own.footprintBytes, "a shell is smaller than the test")
  }
}
