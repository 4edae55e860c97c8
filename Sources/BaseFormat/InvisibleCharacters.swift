import ByteCoding

/// Characters that show nothing on a call screen or in a region chooser, refused in what a
/// person reads (a label, a region's name) where it enters calldir: the compiler's rows and
/// pattern files, a user's lists, a release's region names. Two labels that look the same
/// would then be different entries ("Bank" and "Ba\u{200B}nk"), and a name could hide a
/// word.
///
/// The format's own rule (``LabelRule``) is not widened: a base written before this rule,
/// with a soft hyphen in a label, still reads and patches. The hostile test of issue 65
/// (item 15) found each of these in a store: U+200B, U+2060, U+00AD, U+FFF9, U+E0041, U+3164.
///
/// Left allowed, because scripts and emoji need them: U+200C and U+200D (joiners: Persian,
/// Indic scripts, emoji sequences), variation selectors (emoji presentation), and tag
/// characters inside an emoji tag sequence (a subdivision flag: U+1F3F4, tags, U+E007F;
/// Unicode Technical Standard #51, "Emoji Tag Sequence").
package enum InvisibleCharacters {
  /// Whether `scalar` is one of the characters refused (Unicode's Default_Ignorable_Code_Point
  /// and fillers that render blank, less the ones kept above).
  package static func isRefused(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x00AD: true  // soft hyphen
    case 0x115F, 0x1160, 0x3164, 0xFFA0: true  // Hangul fillers: render as blank letters
    case 0x17B4, 0x17B5: true  // Khmer inherent vowels, invisible
    case 0x180E: true  // Mongolian vowel separator
    case 0x200B: true  // zero width space
    case 0x2060...0x2064: true  // word joiner, invisible operators
    case 0x206A...0x206F: true  // deprecated format characters
    case 0xFFF9...0xFFFB: true  // interlinear annotation
    case 0x1BCA0...0x1BCA3: true  // shorthand format controls
    case 0x1D173...0x1D17A: true  // musical format controls
    case 0xE0000...0xE0FFF: true  // tags and reserved ignorables (a flag's tags, below)
    default: false
    }
  }

  /// The byte offset of the first refused character in valid UTF-8 `text`, or nil.
  package static func offset(in text: ByteView) -> Int? {
    var index = 0
    var previous: UInt32 = 0
    let count = text.count
    while index < count {
      let lead = text[index]
      // Most labels are ASCII, and no refused character is.
      guard lead >= 0x80 else {
        previous = UInt32(lead)
        index += 1
        continue
      }
      guard let (scalar, length) = scalar(in: text, at: index) else { return nil }
      if isRefused(scalar) {
        guard previous == Self.blackFlag, let end = flagTagsEnd(in: text, from: index) else {
          return index
        }
        previous = Self.cancelTag
        index = end
        continue
      }
      previous = scalar
      index += length
    }
    return nil
  }

  /// The byte offset of the first refused character in `text`, or nil.
  package static func offset(in text: String) -> Int? {
    var copy = text
    return copy.withUTF8 { unsafe offset(in: ByteView($0)) }
  }

  /// U+1F3F4, WAVING BLACK FLAG: the base of a subdivision flag's tag sequence.
  static let blackFlag: UInt32 = 0x1F3F4
  /// U+E007F, CANCEL TAG: the end of a tag sequence.
  static let cancelTag: UInt32 = 0xE007F

  /// Where a run of tag characters E0020–E007E ending with U+E007F ends, from `start` (the
  /// byte after it), or nil when the run is not one.
  static func flagTagsEnd(in text: ByteView, from start: Int) -> Int? {
    var index = start
    var tags = 0
    while let (scalar, length) = scalar(in: text, at: index) {
      index += length
      if scalar == cancelTag { return tags > 0 ? index : nil }
      guard (0xE0020...0xE007E).contains(scalar) else { return nil }
      tags += 1
    }
    return nil
  }

  /// The scalar whose UTF-8 starts at `index` and its byte count; nil at the end or on bytes
  /// that are not UTF-8 (the callers' text is checked already).
  static func scalar(in text: ByteView, at index: Int) -> (UInt32, Int)? {
    guard index < text.count else { return nil }
    let lead = text[index]
    let length: Int
    var value: UInt32
    switch lead {
    case 0x00...0x7F: return (UInt32(lead), 1)
    case 0xC0...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
    case 0xE0...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
    case 0xF0...0xF7: (length, value) = (4, UInt32(lead & 0x07))
    default: return nil
    }
    guard index + length <= text.count else { return nil }
    for next in index + 1..<index + length {
      value = value << 6 | UInt32(text[next] & 0x3F)
    }
    return (value, length)
  }
}
