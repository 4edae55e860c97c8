#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Makes the `String` a reader hands out for a label whose bytes are known UTF-8 (its block's
/// checksum matched, or it was validated), in one of two forms:
/// - ``Form/span``: the iOS 26 (macOS 26) standard library's `String(copying: UTF8Span(unchecked:))`,
///   which copies without validating again;
/// - ``Form/compatible``: `String(unsafeUninitializedCapacity:initializingUTF8With:)`, which every
///   system from iOS 16 and macOS 13 has, and which validates the bytes once more.
///
/// The span form is used where the system has it. `CALLDIR_LABEL_FORM=compatible` in the
/// environment forces the other (read once, when the first reader opens): so Linux, where the
/// span form is always available, runs and measures both, in tests and in `calldir bench`.
public enum LabelString {
  /// How a label's `String` is made.
  public enum Form: String, Sendable {
    case span, compatible
  }

  /// The form this process uses: `compatible` when `CALLDIR_LABEL_FORM=compatible` or when the
  /// system's standard library has no `UTF8Span`, else `span`.
  public static let form: Form = {
    if let value = getenv("CALLDIR_LABEL_FORM"),
      String(cString: UnsafePointer(value)) == "compatible"
    {
      return .compatible
    }
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return .span }
    return .compatible
  }()

  /// The label `bytes` spell (valid UTF-8), made in `form`.
  @inline(__always)
  static func make(_ bytes: UnsafeBufferPointer<UInt8>, form: Form) -> String {
    // A pattern, not `==`: a String-backed enum's `==` can compare raw values, a String
    // comparison per label (17 instructions per entry on ci-smoke).
    if case .span = form, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      return String(copying: UTF8Span(unchecked: bytes.span))
    }
    return makeCompatible(bytes)
  }

  /// The form every system has, out of line, so the span form's path stays short.
  @inline(never)
  static func makeCompatible(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(unsafeUninitializedCapacity: bytes.count) { buffer in
      _ = buffer.initialize(fromContentsOf: bytes)
      return bytes.count
    }
  }
}
