// calldir-fuzz: the fuzz targets (FuzzTarget). Two builds of one source:
//
// - Normal build (`swift build`): `calldir-fuzz TARGET FILE...` runs each file through the
//   target once: the seed corpus and kept crashes replay as regression tests.
// - Fuzzing build (Scripts/fuzz.sh: `-sanitize=fuzzer -DFUZZING`): libFuzzer drives the target
//   named by CALLDIR_FUZZ_TARGET; its options (-max_total_time, corpus folders) follow.

#if canImport(Glibc)
  import Glibc
#endif

// Safe: the `unsafe` calls here are C's, given Swift strings and `inout` values, which Swift lends
// as pointers valid for the call only; fread writes at most `chunk.count` bytes into `chunk`, and
// nothing here keeps a pointer past its call.

/// Exit statuses: 0 every input kept the property; 1 usage.
enum FuzzExit {
  static let usage: Int32 = 1
}

/// One line on stderr.
func printError(_ line: String) {
  let text = line + "\n"
  _ = unsafe text.withCString { unsafe write(2, $0, strlen($0)) }
}

#if FUZZING
  /// The target this process fuzzes, from CALLDIR_FUZZ_TARGET.
  nonisolated(unsafe) let fuzzedTarget: FuzzTarget = {
    guard let name = unsafe getenv("CALLDIR_FUZZ_TARGET").map({ unsafe String(cString: $0) }),
      let target = FuzzTarget(rawValue: name)
    else {
      let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
      printError("calldir-fuzz: set CALLDIR_FUZZ_TARGET to one of \(names)")
      exit(FuzzExit.usage)
    }
    return target
  }()

  // Safe: libFuzzer lends `data` with `size` readable bytes for this call only, and they are
  // copied into an array at once; `argv` is the process's own, handed to libFuzzer's driver as
  // `main` got it; `fuzzedTarget` is set before the first input and only read after.
  @_cdecl("LLVMFuzzerTestOneInput")
  func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // Copied once into an array: the properties then read it through bounds-checked arrays.
    unsafe fuzzedTarget.check(Array(UnsafeRawBufferPointer(start: data, count: size)))
    return 0
  }

  @_silgen_name("LLVMFuzzerRunDriver")
  func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Int32

  /// SwiftPM links an executable's `main` to `<module>_main`: libFuzzer's driver runs from here.
  @_cdecl("calldir_fuzz_main")
  func fuzzingMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> Int32 {
    _ = unsafe fuzzedTarget
    var count = argc
    var arguments = unsafe argv
    return unsafe runFuzzerDriver(&count, &arguments) { unsafe fuzzOneInput($0, $1) }
  }
#else
  @main
  struct ReplayMain {
    static func main() {
      let arguments = Array(CommandLine.arguments.dropFirst())
      guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
        printError("usage: calldir-fuzz \(names) FILE...")
        exit(FuzzExit.usage)
      }
      for path in arguments.dropFirst() {
        guard let bytes = readFile(path) else {
          printError("calldir-fuzz: cannot read \(path)")
          exit(FuzzExit.usage)
        }
        target.check(bytes)
      }
    }

    static func readFile(_ path: String) -> [UInt8]? {
      guard let file = unsafe fopen(path, "rb") else { return nil }
      defer { unsafe fclose(file) }
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = unsafe fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes.append(contentsOf: chunk[..<count])
      }
      return unsafe ferror(file) == 0 ? bytes : nil
    }
  }
#endif
