import CallDirectoryCore
import SystemCalls

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A planted regression for `Scripts/false-alarms.sh`: with `CALLDIR_PLANTED_WORK=N` in the
/// environment, the bench's extension does N extra arithmetic steps for every entry it hands
/// on, so the script can show that the gates catch a loader doing measurably more work per
/// entry. Unset (always, outside that script), `main` hands entries to its context directly and
/// nothing of this runs.
enum PlantedWork {
  /// The environment variable, and the most steps it may ask for.
  static let environmentVariable = "CALLDIR_PLANTED_WORK"
  static let maximumSteps = 1_000

  /// The steps asked for, or nil when unset or not a whole number from 1 to ``maximumSteps``.
  static var steps: Int? {
    guard let text = ProcessEnvironment.value(environmentVariable),
      let steps = Int(text), (1...maximumSteps).contains(steps)
    else { return nil }
    return steps
  }
}

/// A context that does ``PlantedWork``'s extra steps per entry, then forwards every call.
final class PlantedWorkContext<Base: CallDirectoryExtensionContext>: CallDirectoryExtensionContext {
  let base: Base
  let steps: Int
  /// What the steps computed: kept, so the optimizer cannot drop them.
  private(set) var sink: UInt64 = 0

  init(_ base: Base, steps: Int) {
    self.base = base
    self.steps = steps
  }

  /// The extra work: a linear congruential step per count, on the entry's number.
  @inline(never)
  private func work(_ number: PhoneNumber) {
    var value = sink ^ UInt64(bitPattern: number)
    for _ in 0..<steps { value = value &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
    sink = value
  }

  var isIncremental: Bool { base.isIncremental }

  func addIdentificationEntry(withNextSequentialPhoneNumber phoneNumber: PhoneNumber, label: String)
  {
    work(phoneNumber)
    base.addIdentificationEntry(withNextSequentialPhoneNumber: phoneNumber, label: label)
  }

  func addBlockingEntry(withNextSequentialPhoneNumber phoneNumber: PhoneNumber) {
    work(phoneNumber)
    base.addBlockingEntry(withNextSequentialPhoneNumber: phoneNumber)
  }

  func removeIdentificationEntry(withPhoneNumber phoneNumber: PhoneNumber) {
    base.removeIdentificationEntry(withPhoneNumber: phoneNumber)
  }

  func removeAllIdentificationEntries() { base.removeAllIdentificationEntries() }

  func removeBlockingEntry(withPhoneNumber phoneNumber: PhoneNumber) {
    base.removeBlockingEntry(withPhoneNumber: phoneNumber)
  }

  func removeAllBlockingEntries() { base.removeAllBlockingEntries() }

  func completeRequest(completionHandler: ((_ expired: Bool) -> Void)?) {
    base.completeRequest(completionHandler: completionHandler)
  }

  func cancelRequest(withError error: any Error) { base.cancelRequest(withError: error) }
}
