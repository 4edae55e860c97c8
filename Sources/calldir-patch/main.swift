// Applies one release patch, as an app's update does, in a process of its own so its memory can
// be measured as the extension's is (bench update's apply_footprint_bytes). Lean on purpose: no
// Foundation, no ArgumentParser, only ReleaseFormat.
//
// usage: calldir-patch PATCH OLD-BASE OUTPUT
// exit: 0 applied (OUTPUT is the base the patch names), 1 usage, 3 refused (one line on stderr)

import ReleaseFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func printError(_ message: String) {
  let line = "calldir-patch: " + message + "\n"
  _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
  printError("usage: calldir-patch PATCH OLD-BASE OUTPUT")
  exit(1)
}
do {
  try PatchApplier.apply(patch: arguments[1], to: arguments[2], output: arguments[3])
} catch {
  printError(error.description)
  exit(3)
}
