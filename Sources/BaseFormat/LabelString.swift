import ByteCoding
import SystemCalls

// Safe (the `unsafe` uses in this file): the bytes given to `UTF8Span(unchecked:)` and
// `calldirFromKnownUTF8` were validated as UTF-8 when the base was written or opened (the form
// says which); the views and buffers made here wrap bytes lent by `withUnsafeBytes`, `withUTF8` or
// `withUnsafeMutableBytes`, and are used only inside the closure that lends them.

/// Makes the `String` a reader hands out for a label whose bytes are known UTF-8 (its block's
/// checksum matched, or it was validated), in one of three forms:
/// - ``Form/span``: the iOS 26 (macOS 26) standard library's `String(copying: UTF8Span(unchecked:))`,
///   which copies without validating again;
/// - ``Form/compatible``: the standard library's entry point for bytes known to be UTF-8
///   (`String.calldirFromKnownUTF8(_:)`), which every system from iOS 12.2 and macOS 10.14.4
///   exports, and which copies without validating again either;
/// - ``Form/validating``: `String(unsafeUninitializedCapacity:initializingUTF8With:)`, public API
///   on every system from iOS 14, which validates the bytes once more (on regional-2m, 13% more
///   instructions per entry than the other two: its labels written inline are 77 bytes of
///   Cyrillic on average, about 900 instructions of validation each).
///
/// The span form is used where the system has it, the compatible form before.
/// `CALLDIR_LABEL_FORM=compatible` or `=validating` in the environment forces one of the others
/// (read once, when the first reader opens): so Linux, where the span form is always available,
/// runs and measures all three, in tests and in `calldir bench`.
package enum LabelString {
  /// How a label's `String` is made.
  package enum Form: String, Sendable, CaseIterable {
    case span, compatible, validating
  }

  /// The environment variable that forces a form (`compatible` or `validating`).
  package static let environmentVariable = "CALLDIR_LABEL_FORM"

  /// The form this process uses: the one `CALLDIR_LABEL_FORM` names, else `span` where the
  /// system's standard library has `UTF8Span`, else `compatible`.
  package static let form: Form = {
    if let value = ProcessEnvironment.value(environmentVariable),
      let forced = Form(rawValue: value), forced != .span
    {
      return forced
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
      return unsafe String(copying: UTF8Span(unchecked: bytes.span))
    }
    if case .validating = form { return unsafe makeValidating(bytes) }
    return unsafe String.calldirFromKnownUTF8(bytes)
  }

  /// The label the bytes `view` shows (valid UTF-8), made in `form`.
  @inline(__always)
  static func make(_ view: ByteView, form: Form) -> String {
    unsafe view.withContiguousStorageIfAvailable { unsafe make($0, form: form) } ?? ""
  }

  /// The public form, out of line, so the others' path stays short.
  @inline(never)
  static func makeValidating(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    unsafe String(unsafeUninitializedCapacity: bytes.count) { buffer in
      _ = unsafe buffer.initialize(fromContentsOf: bytes)
      return bytes.count
    }
  }
}

extension String {
  /// A `String` holding a copy of `bytes`, which must be valid UTF-8: the standard library's own
  /// `String._uncheckedFromUTF8(_:)`, called by its symbol.
  ///
  /// Why this is safe to ship: the function is `@usableFromInline` and called from the
  /// `@inlinable` `String.init(_: Unicode.Scalar)` since Swift 5.0, so apps built since then carry
  /// calls to it, and an ABI-stable standard library (every iOS from 12.2, macOS from 10.14.4)
  /// must keep exporting it under this name and signature. Declared as a static method so its
  /// calling convention is the original's (a method on the `String` metatype; the optimizer
  /// checks the two match when it sees both). Before iOS 26 no public initializer takes bytes
  /// already validated; this one skips a validation that costs about 12 instructions per byte
  /// of non-ASCII text. The caller's guarantee: a label's bytes passed their block's checksum
  /// (they are what the writer took from a Swift `String`) or ``UTF8Validation``.
  @_silgen_name("$sSS18_uncheckedFromUTF8ySSSRys5UInt8VGFZ")
  static func calldirFromKnownUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String
}
