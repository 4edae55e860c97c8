/// A fuzz target: a property every input must keep. A broken property is a crash
/// (`preconditionFailure`), which is what libFuzzer reports and keeps.
enum FuzzTarget: String, CaseIterable {
  /// Any bytes as a base file: both readers give an error or entries that keep the format's
  /// invariants, and they agree.
  case base
  /// Any bytes as a manifest: an error, or a manifest that survives encoding and parsing.
  case manifest
  /// Any bytes as the channel's frame stream, in two pieces: frames, then at most one malformed
  /// verdict; entries of a frame keep their count and their labels' bounds.
  case frame
  /// Any bytes as a dump, read as TSV, CSV and JSON lines: an error, or rows and rejections in
  /// line order that account for no more lines than the file has.
  case rows
  /// Any bytes as a written number, with several countries and both validations: an error, or
  /// a CallKit number with an assigned calling code, the same from bytes and from a String.
  case normalize
  /// Any bytes as a release's index.json (a hand-written JSON reader: the app's half has no
  /// Foundation): an error, or an index that survives encoding and parsing.
  case index
  /// Any bytes as number patterns (`compile --block-patterns`): an error, or ranges that
  /// ascend, never overlap and hold the pattern's count.
  case patterns
  /// Any bytes as a rule base: an error, or ranges that hold the header's count, expanded as
  /// they say.
  case rules

  /// Checks the property on one input.
  func check(_ input: [UInt8]) {
    switch self {
    case .base: BaseProperty.check(input)
    case .manifest: ManifestProperty.check(input)
    case .frame: FrameProperty.check(input)
    case .rows: RowsProperty.check(input)
    case .normalize: NormalizeProperty.check(input)
    case .index: IndexProperty.check(input)
    case .patterns: PatternProperty.check(input)
    case .rules: RuleBaseProperty.check(input)
    }
  }
}
