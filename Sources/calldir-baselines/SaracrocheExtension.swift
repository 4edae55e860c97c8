import CallDirectoryCore
import SystemChannel

/// saracroche's Call Directory extension (cbouvat/saracroche-ios, `blocker/CallDirectoryHandler
/// .swift`), faithfully, as the simulated system spawns it: a complete request adds the two fake
/// numbers it adds; an incremental one reads `action` and `numbers` (dictionaries of `number`
/// strings and `name`) from the shared defaults, adds or removes each, then clears both. Its
/// `logger.info` per number is left out (unified logging drops info-level messages unless
/// streamed), which only favours it.
enum SaracrocheExtension {
  static func serve(container: String, incremental: Bool) -> Int32 {
    let context = ChannelContext(isIncremental: incremental)
    if incremental {
      let sharedDefaults = SharedDefaults(container: container)
      let action = sharedDefaults.string(forKey: "action") ?? ""
      let numbersData = sharedDefaults.array(forKey: "numbers") as? [[String: Any]] ?? []
      for numberData in numbersData {
        guard let numberString = numberData["number"] as? String,
          let number = Int64(numberString)
        else { continue }
        let name = numberData["name"] as? String
        switch action {
        case "block": context.addBlockingEntry(withNextSequentialPhoneNumber: number)
        case "identify":
          context.addIdentificationEntry(withNextSequentialPhoneNumber: number, label: name ?? "")
        case "remove_block": context.removeBlockingEntry(withPhoneNumber: number)
        case "remove_identify": context.removeIdentificationEntry(withPhoneNumber: number)
        case "reset":
          context.removeAllBlockingEntries()
          context.removeAllIdentificationEntries()
        default: break
        }
      }
      // Clear the action after processing.
      do {
        try sharedDefaults.set("", forKey: "action")
        try sharedDefaults.set([Any](), forKey: "numbers")
      } catch {
        printError("cannot write \(sharedDefaults.path): \(error)")
      }
    } else {
      // "Add fake number to iOS make sure the extension is working".
      context.addBlockingEntry(withNextSequentialPhoneNumber: 1_800_555_5555)
      context.addIdentificationEntry(withNextSequentialPhoneNumber: 1_888_555_5555, label: "Fake")
    }
    var kept = false
    context.completeRequest { expired in kept = !expired }
    return kept ? 0 : 4
  }
}
