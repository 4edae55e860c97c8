import Testing

@testable import CallDirectoryCore

@Suite("The checking context enforces the system's contract")
struct CheckingContextTests {
  @Test func ascendingEntriesCompleteAndAreCounted() {
    let context = CheckingContext()
    context.addIdentificationEntry(withNextSequentialPhoneNumber: 74_951_234_567, label: "Аптека")
    context.addIdentificationEntry(withNextSequentialPhoneNumber: 74_951_234_568, label: "Кафе")
    context.addBlockingEntry(withNextSequentialPhoneNumber: 8_613_800_000_000)
    var expired: Bool?
    context.completeRequest { expired = $0 }
    #expect(context.outcome == .completed)
    #expect(expired == false)
    #expect(context.identificationCount == 2)
    #expect(context.blockingCount == 1)
    #expect(context.labelByteCount == "Аптека".utf8.count + "Кафе".utf8.count)
  }

  @Test func entryZeroIsADuplicateBecauseThePreviousStartsAtZero() {
    let context = CheckingContext()
    context.addBlockingEntry(withNextSequentialPhoneNumber: 0)
    #expect(context.failure == .duplicateEntries(number: 0))
    #expect(context.failure?.code == 4)
  }

  @Test func negativeEntryIsOutOfOrder() {
    let context = CheckingContext()
    context.addIdentificationEntry(withNextSequentialPhoneNumber: -1, label: "x")
    #expect(context.failure?.code == 3)
  }

  @Test func equalToPreviousIsDuplicateAndLowerIsOutOfOrder() {
    let duplicate = CheckingContext()
    duplicate.addIdentificationEntry(withNextSequentialPhoneNumber: 100, label: "a")
    duplicate.addIdentificationEntry(withNextSequentialPhoneNumber: 100, label: "b")
    #expect(duplicate.failure == .duplicateEntries(number: 100))

    let lower = CheckingContext()
    lower.addIdentificationEntry(withNextSequentialPhoneNumber: 100, label: "a")
    lower.addIdentificationEntry(withNextSequentialPhoneNumber: 99, label: "b")
    #expect(lower.failure == .entriesOutOfOrder(previous: 100, number: 99))
    #expect(lower.failure?.code == 3)
  }

  @Test func identificationAndBlockingAreSeparateSequences() {
    let context = CheckingContext()
    context.addIdentificationEntry(withNextSequentialPhoneNumber: 500, label: "a")
    context.addBlockingEntry(withNextSequentialPhoneNumber: 100)
    context.addIdentificationEntry(withNextSequentialPhoneNumber: 600, label: "b")
    context.addBlockingEntry(withNextSequentialPhoneNumber: 200)
    context.completeRequest(completionHandler: nil)
    #expect(context.failure == nil)
    #expect(context.outcome == .completed)
    #expect(context.entryCount == 4)
  }

  @Test func theSystemsCapAcceptsEntry1999999AndRejectsTheNext() {
    let context = CheckingContext()
    for number in 1...Int64(SystemLimits.maximumEntriesPerLoad) {
      context.addBlockingEntry(withNextSequentialPhoneNumber: number)
    }
    #expect(context.failure == nil)
    #expect(context.blockingCount == 1_999_999)
    context.addBlockingEntry(withNextSequentialPhoneNumber: 2_000_000)
    #expect(context.failure == .maximumEntriesExceeded(limit: 2_000_000))
    #expect(context.failure?.code == 5)
    #expect(context.blockingCount == 1_999_999)
  }

  @Test func theCapIsSharedAcrossListsByDefault() {
    let shared = CheckingContext(configuration: .init(maximumAllowedEntries: 4))
    shared.addIdentificationEntry(withNextSequentialPhoneNumber: 1, label: "a")
    shared.addIdentificationEntry(withNextSequentialPhoneNumber: 2, label: "b")
    shared.addBlockingEntry(withNextSequentialPhoneNumber: 1)
    #expect(shared.failure == nil)
    shared.addBlockingEntry(withNextSequentialPhoneNumber: 2)
    #expect(shared.failure?.code == 5)

    let separate = CheckingContext(
      configuration: .init(maximumAllowedEntries: 4, sharesCountAcrossLists: false))
    for number in 1...3 as ClosedRange<Int64> {
      separate.addIdentificationEntry(withNextSequentialPhoneNumber: number, label: "a")
      separate.addBlockingEntry(withNextSequentialPhoneNumber: number)
    }
    #expect(separate.failure == nil)
    separate.addBlockingEntry(withNextSequentialPhoneNumber: 4)
    #expect(separate.failure?.code == 5)
  }

  @Test(arguments: 0..<4)
  func removalOutsideIncrementalFailsWithCode8(call: Int) {
    let context = CheckingContext(isIncremental: false)
    switch call {
    case 0: context.removeIdentificationEntry(withPhoneNumber: 1)
    case 1: context.removeAllIdentificationEntries()
    case 2: context.removeBlockingEntry(withPhoneNumber: 1)
    default: context.removeAllBlockingEntries()
    }
    #expect(context.failure == .unexpectedIncrementalRemoval)
    #expect(context.failure?.code == 8)
  }

  @Test func removalInIncrementalRequestIsAccepted() {
    let context = CheckingContext(isIncremental: true)
    context.removeIdentificationEntry(withPhoneNumber: 1)
    context.removeAllBlockingEntries()
    context.completeRequest(completionHandler: nil)
    #expect(context.outcome == .completed)
    #expect(context.removalCount == 2)
  }

  @Test func aFailedRequestExpiresAndIgnoresLaterEntries() {
    let context = CheckingContext()
    context.addBlockingEntry(withNextSequentialPhoneNumber: 5)
    context.addBlockingEntry(withNextSequentialPhoneNumber: 4)
    context.addBlockingEntry(withNextSequentialPhoneNumber: 6)
    var expired: Bool?
    context.completeRequest { expired = $0 }
    #expect(expired == true)
    #expect(context.outcome == .failed(.entriesOutOfOrder(previous: 5, number: 4)))
    #expect(context.blockingCount == 1)
  }

  @Test func cancelKeepsNothingAndLaterCallsAreIgnored() {
    struct Stop: Error {}
    let context = CheckingContext()
    context.addBlockingEntry(withNextSequentialPhoneNumber: 5)
    context.cancelRequest(withError: Stop())
    context.completeRequest(completionHandler: nil)
    guard case .cancelled = context.outcome else {
      Issue.record("expected cancelled, got \(context.outcome)")
      return
    }
  }

  @Test func errorCodesMatchCallKitsRawValues() {
    let errors: [CallDirectoryError] = [
      .unknown, .noExtensionFound, .loadingInterrupted, .entriesOutOfOrder(previous: 2, number: 1),
      .duplicateEntries(number: 1), .maximumEntriesExceeded(limit: 2_000_000), .extensionDisabled,
      .currentlyLoading, .unexpectedIncrementalRemoval,
    ]
    #expect(errors.map(\.code) == Array(0...8))
    for code in 0...8 { #expect(CallDirectoryError(code: code).code == code) }
    #expect(CallDirectoryError(code: 102) == .other(code: 102))
    #expect(CallDirectoryError.duplicateEntries(number: 7).description.contains("code 4"))
  }

  @Test(arguments: CheckingContext.CapScope.allCases)
  func theCapCountsThisRequestOrWhatTheExtensionWillHold(scope: CheckingContext.CapScope) {
    let configuration = CheckingContext.Configuration(maximumAllowedEntries: 11, capScope: scope)
    // The extension holds 8 entries; the request removes 2 and adds 5.
    let context = CheckingContext(
      isIncremental: true, configuration: configuration, held: (identification: 6, blocking: 2))
    context.removeIdentificationEntry(withPhoneNumber: 1)
    context.removeBlockingEntry(withPhoneNumber: 2)
    for number in 1...5 {
      context.addIdentificationEntry(withNextSequentialPhoneNumber: Int64(number), label: "x")
    }
    switch scope {
    case .perRequest:
      #expect(context.failure == nil, "5 additions are under a cap of 10 per request")
    case .perExtension:
      // 6 held after the removals: the 5th addition would make 11, over the 10 allowed.
      #expect(context.failure == .maximumEntriesExceeded(limit: 11))
      #expect(context.identificationCount == 4)
    }
  }

  @Test func aCompleteRequestStartsFromNothingWhateverTheScope() {
    let context = CheckingContext(
      isIncremental: false, configuration: .init(maximumAllowedEntries: 4, capScope: .perExtension),
      held: (identification: 100, blocking: 100))
    for number in 1...3 { context.addBlockingEntry(withNextSequentialPhoneNumber: Int64(number)) }
    #expect(context.failure == nil && context.blockingCount == 3)
  }
}
