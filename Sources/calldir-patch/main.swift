// Applies release patches, as an app's update does, in a process of its own so its memory can
// be measured as the extension's is (bench update's apply_footprint_bytes): one base's patch, or
// every changed base's at once on every core, as `ContainerApp.update(from:)` applies them. Lean
// on purpose: no Foundation, no ArgumentParser, only ReleaseFormat.
//
// usage: calldir-patch [--threads N] PATCH OLD-BASE OUTPUT [PATCH OLD-BASE OUTPUT ...]
// exit: 0 applied (each OUTPUT is the base its patch names), 1 usage, 3 refused (one line on
//       stderr: the first refused patch, in the order given)

import FaultInjection
import ReleaseFormat
import SystemCalls

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func printError(_ message: String) {
  StandardError.write("calldir-patch: " + message + "\n")
}

StandardStreams.prepare()
FaultInjection.install()
let usage = "usage: calldir-patch [--threads N] PATCH OLD-BASE OUTPUT [PATCH OLD-BASE OUTPUT ...]"
var arguments = Array(CommandLine.arguments.dropFirst())
var threads = PatchApplier.defaultThreadCount
if arguments.first == "--threads" {
  guard arguments.count >= 2, let count = Int(arguments[1]), count >= 1, count <= 256 else {
    printError("--threads takes a whole number from 1 to 256; " + usage)
    exit(1)
  }
  threads = count
  arguments.removeFirst(2)
}
guard !arguments.isEmpty, arguments.count % 3 == 0 else {
  printError(usage)
  exit(1)
}
let chains = stride(from: 0, to: arguments.count, by: 3).map { start in
  PatchChain(
    patches: [arguments[start]], oldPath: arguments[start + 1], outputs: [arguments[start + 2]])
}
do {
  try PatchApplier.apply(chains, threads: threads)
} catch {
  printError(error.description)
  exit(3)
}
