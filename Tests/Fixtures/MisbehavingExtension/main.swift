// A Call Directory extension that does exactly what its arguments say, through the real channel:
// the host must survive whatever an app developer's extension does. Test fixture only.
//
// usage: calldir-misbehaving-extension --request complete|incremental [--container DIR] STEP...
// steps: add-id:NUMBER:LABEL  add-id-bytes:NUMBER:HEX  add-block:NUMBER  add-ids:FIRST:COUNT  remove-id:NUMBER
//        remove-block:NUMBER  remove-all-id  remove-all-block  complete  cancel
//        kill-after-entries:N (SIGKILL itself once N entries were added)
//        hang (waits for a signal: the system's kill)
//        ready:FIFO (writes a byte to FIFO: tells the test it got this far)
//        wait:FIFO (reads a byte from FIFO: waits for the test to let it go on)
//        allocate:BYTES (touches that much private memory)

import CallDirectoryCore
import SystemChannel

#if canImport(Glibc)
  import Glibc
#endif

var arguments = Array(CommandLine.arguments.dropFirst())
var incremental = false
var steps: [String] = []
while !arguments.isEmpty {
  let word = arguments.removeFirst()
  switch word {
  case "--request": incremental = arguments.removeFirst() == "incremental"
  case "--container", "--max-entries": _ = arguments.removeFirst()
  default: steps.append(word)
  }
}
let context = ChannelContext(isIncremental: incremental)
nonisolated(unsafe) var killAfter = Int.max
nonisolated(unsafe) var added = 0
func countAdd() {
  added += 1
  if added >= killAfter { kill(getpid(), SIGKILL) }
}
var hoard: [UnsafeMutableRawPointer] = []
for step in steps {
  let parts = step.split(separator: ":", maxSplits: 2).map(String.init)
  switch parts[0] {
  case "add-id":
    context.addIdentificationEntry(withNextSequentialPhoneNumber: Int64(parts[1])!, label: parts[2])
    countAdd()
  case "add-id-bytes":
    // A label whose bytes may not be UTF-8, made as the loader makes labels from a verified
    // block (no validation): what a corrupt base that passed its checksums would send.
    let bytes = stride(from: 0, to: parts[2].count, by: 2).map { offset -> UInt8 in
      let start = parts[2].index(parts[2].startIndex, offsetBy: offset)
      return UInt8(parts[2][start..<parts[2].index(start, offsetBy: 2)], radix: 16)!
    }
    let label = bytes.withUnsafeBufferPointer { String(copying: UTF8Span(unchecked: $0.span)) }
    context.addIdentificationEntry(withNextSequentialPhoneNumber: Int64(parts[1])!, label: label)
    countAdd()
  case "add-ids":
    let first = Int64(parts[1])!
    for offset in 0..<Int64(parts[2])! {
      context.addIdentificationEntry(
        withNextSequentialPhoneNumber: first + offset, label: "Label \(offset % 7)")
      countAdd()
    }
  case "add-block":
    context.addBlockingEntry(withNextSequentialPhoneNumber: Int64(parts[1])!)
    countAdd()
  case "remove-id": context.removeIdentificationEntry(withPhoneNumber: Int64(parts[1])!)
  case "remove-block": context.removeBlockingEntry(withPhoneNumber: Int64(parts[1])!)
  case "remove-all-id": context.removeAllIdentificationEntries()
  case "remove-all-block": context.removeAllBlockingEntries()
  case "complete": context.completeRequest(completionHandler: nil)
  case "cancel":
    struct Cancelled: Error {}
    context.cancelRequest(withError: Cancelled())
  case "kill-after-entries": killAfter = Int(parts[1])!
  case "hang":
    while true { pause() }
  case "ready":
    let fifo = open(parts[1], O_WRONLY)
    var byte: UInt8 = 1
    guard fifo >= 0, write(fifo, &byte, 1) == 1 else { exit(2) }
    close(fifo)
  case "wait":
    let fifo = open(parts[1], O_RDONLY)
    var byte: UInt8 = 0
    guard fifo >= 0, read(fifo, &byte, 1) == 1 else { exit(2) }
    close(fifo)
  case "allocate":
    let bytes = Int(parts[1])!
    let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 4096)
    memset(memory, 1, bytes)
    hoard.append(memory)
  default:
    print("unknown step \(step)")
    exit(1)
  }
}
exit(0)
