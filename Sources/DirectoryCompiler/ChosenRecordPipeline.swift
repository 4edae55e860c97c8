import Foundation
import SystemCalls

// Safe: the batches and flags are touched only under `condition`'s lock; `dropped` is read after
// the join.
/// The compiler's last pass on two cores: one thread merges the sorted runs and drops the
/// duplicates (``Compiler``'s `forEachChosen`), the calling thread writes the bases, the two
/// handing records over in batches. On one thread the merge and the writing took a compile's
/// last 1.4 s one after the other (directory-4m, perf: about half each).
///
/// Memory: at most ``batchCount`` batches of about ``batchByteCount`` bytes, whatever the input.
final class ChosenRecordPipeline: @unchecked Sendable {
  /// Bytes of records a batch holds before it is handed over: 256 KiB, large enough that the
  /// handover's lock is taken a few hundred times per million records, small enough to stay in
  /// the cache the writer reads it from.
  static let batchByteCount = 256 << 10
  /// Batches in flight: one filled while the other is written.
  static let batchCount = 2

  private let condition = NSCondition()
  /// Guarded by `condition`.
  private var filled: [[UInt8]] = []
  private var spare: [[UInt8]]
  private var producerDone = false
  private var consumerStopped = false
  private var producerError: (any Error)?
  /// The records the producer dropped as duplicates (read after it is joined).
  private var dropped = 0

  /// Stops the producer when the consumer has given up (its own error is the one reported).
  private struct Stopped: Error {}

  private init() {
    spare = (0..<Self.batchCount).map { _ in
      var batch: [UInt8] = []
      batch.reserveCapacity(Self.batchByteCount + 1024)
      return batch
    }
  }

  /// Merges `merged` and drops its duplicates per `policy` on a thread of its own, handing
  /// each kept record to `body` on the calling thread, in order.
  /// - Returns: the records dropped as duplicates.
  /// - Throws: `body`'s error (the merging thread is stopped and joined first), else the
  ///   merge's.
  static func run(
    _ merged: MergedRuns, policy: DuplicatePolicy, body: (SortRecordView) throws -> Void
  ) throws -> Int {
    let pipeline = ChosenRecordPipeline()
    // The merge's runs are read by the producer thread alone until the join below.
    let source = JoinedHandoff(merged)
    let producer = JoinableThread { pipeline.producerMain(source.value, policy: policy) }
    producer.start()
    do {
      try pipeline.consume(body)
    } catch {
      pipeline.stopConsuming()
      producer.join()
      throw error
    }
    producer.join()
    if let error = pipeline.producerError { throw error }
    return pipeline.dropped
  }

  private func producerMain(_ merged: MergedRuns, policy: DuplicatePolicy) {
    var dropper = DuplicateDropper(policy: policy)
    // Written by the producer before it finishes, read by `run` after the join.
    defer { dropped = dropper.dropped }
    do {
      var batch = try takeSpare()
      while try merged.next({ record in
        try dropper.add(record, to: &batch, threshold: Self.batchByteCount) { full in
          hand(full)
          full = try takeSpare()
        }
      }) {}
      hand(batch)
      finish(nil)
    } catch is Stopped {
      finish(nil)
    } catch {
      finish(error)
    }
  }

  private func takeSpare() throws -> [UInt8] {
    condition.lock()
    defer { condition.unlock() }
    while spare.isEmpty && !consumerStopped { condition.wait() }
    if consumerStopped { throw Stopped() }
    var batch = spare.removeLast()
    batch.removeAll(keepingCapacity: true)
    return batch
  }

  private func hand(_ batch: [UInt8]) {
    condition.lock()
    filled.append(batch)
    condition.signal()
    condition.unlock()
  }

  private func finish(_ error: (any Error)?) {
    condition.lock()
    producerDone = true
    producerError = error
    condition.signal()
    condition.unlock()
  }

  private func stopConsuming() {
    condition.lock()
    consumerStopped = true
    condition.signal()
    condition.unlock()
  }

  private func consume(_ body: (SortRecordView) throws -> Void) throws {
    while true {
      condition.lock()
      while filled.isEmpty && !producerDone { condition.wait() }
      if filled.isEmpty {
        condition.unlock()
        return
      }
      let batch = filled.removeFirst()
      condition.unlock()
      try DuplicateDropper.forEachRecord(in: batch, body)
      condition.lock()
      spare.append(batch)
      condition.signal()
      condition.unlock()
    }
  }
}
