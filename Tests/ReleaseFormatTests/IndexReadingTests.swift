import Testing

@testable import ReleaseFormat

/// The index is read member by member and patch by patch (issue 52, item 11: the whole tree of a
/// 12,070-patch index took 14 MB of heap): what it reads is what the writer wrote, in any member
/// order, and an ambiguous or broken index is refused with its place.
@Suite("Reading a release index without its tree")
struct IndexReadingTests {
  static func hash(_ digit: Character) -> String { String(repeating: digit, count: 64) }

  static let index = ReleaseIndex(
    versions: [
      .init(
        number: 3,
        bases: [
          .init(
            name: "region-RU-MOW", role: "region", region: "RU-MOW", priority: 50, entries: 2,
            sha256: hash("a"), byteCount: 181, file: "bases/region-RU-MOW.aaaa.cdb"),
          .init(
            name: "blocking", role: "blocking", region: nil, priority: 0, entries: 7,
            sha256: hash("b"), byteCount: 90, file: "bases/blocking.bbbb.cdb"),
        ])
    ],
    patches: [
      .init(
        name: "region-RU-MOW", fromSHA256: hash("c"), toSHA256: hash("a"),
        file: "patches/region-RU-MOW.c-a.cdp", byteCount: 97, sha256: hash("d"))
    ])

  @Test func whatTheWriterWritesReadsBackTheSame() throws {
    let read = try ReleaseIndex(parsing: Array(Self.index.json.utf8), path: "index.json")
    #expect(read == Self.index)
  }

  @Test func membersInAnotherOrderAndUnknownOnesReadTheSame() throws {
    guard
      case .object(let members) = try JSONValue(
        parsing: Array(Self.index.json.utf8), path: "index.json")
    else {
      Issue.record("the index is not an object")
      return
    }
    let shuffled = JSONValue.object(
      [("comment", .array([.string("published by hand"), .object([("x", .null)])]))]
        + members.reversed())
    let read = try ReleaseIndex(parsing: Array(shuffled.text.utf8), path: "index.json")
    #expect(read == Self.index)
  }

  @Test(arguments: [
    (#"{"format":1,"format":1,"versions":[],"patches":[]}"#, "two members named format"),
    (#"{"format":1,"versions":[],"patches":[],"versions":[]}"#, "two members named versions"),
    (#"{"format":2,"versions":[],"patches":[]}"#, "not a release index of format 1"),
    (#"{"versions":[],"patches":[]}"#, "not a release index of format 1"),
    (#"[1,2]"#, "not a release index of format 1"),
    (#"{"format":1,"patches":[]}"#, "no versions"),
    (#"{"format":1,"versions":{},"patches":[]}"#, "no versions"),
    (#"{"format":1,"versions":[]}"#, "no patches"),
    (#"{"format":1,"versions":[],"patches":[]} x"#, "text after the value"),
    (#"{"format":1,"versions":[],"patches":[{"name":"b"}"#, "has no from"),
    (#"{"format":1,"versions":[],"patches":["#, "the text ends"),
    (
      #"{"format":1,"versions":[{"version":2,"bases":[]},{"version":2,"bases":[]}],"patches":[]}"#,
      "version 2 is not above the one before"
    ),
    // Issue 65, items 11 and 13: a name twice at any depth, a version past the writer's
    // bound, a NUL in a file.
    (
      #"{"format":1,"versions":[{"version":3,"version":9,"bases":[]}],"patches":[]}"#,
      "two members named version"
    ),
    (
      #"{"format":1,"versions":[{"version":4294967296,"bases":[]}],"patches":[]}"#,
      "out of range (0 to 1000000000)"
    ),
    (
      #"{"format":1,"versions":[{"version":1,"bases":[{"name":"seed","role":"seed","priority":1,"entries":1,"sha256":"\#(hash("a"))","bytes":1,"file":"bases/x\u0000.cdb"}]}],"patches":[]}"#,
      "holds a control character"
    ),
  ])
  func aBrokenOrAmbiguousIndexIsRefusedWithItsPlace(text: String, message: String) {
    #expect {
      try ReleaseIndex(parsing: Array(text.utf8), path: "R/index.json")
    } throws: { error in
      let description = "\(error)"
      return description.contains("R/index.json") && description.contains(message)
    }
  }

  @Test func escapedAndPlainStringsReadAlike() throws {
    let plain = try JSONValue(parsing: Array(#"["caf\u00e9 \"x\"","café"]"#.utf8), path: "t")
    #expect(plain == .array([.string("café \"x\""), .string("café")]))
    #expect(throws: ReleaseError.self) {
      try JSONValue(parsing: [0x22, 0xff, 0xfe, 0x22], path: "t")
    }
  }

  /// A surrogate pair is one character (RFC 8259, section 7), a lone one is refused, and a
  /// `\u` takes four hex digits, no sign (issue 65, item 13).
  @Test func escapesReadAsRFC8259WritesThem() throws {
    let pair = try JSONValue(parsing: Array(#"["\ud83d\ude00"]"#.utf8), path: "t")
    #expect(pair == .array([.string("\u{1F600}")]))
    for text in [#"["\u+041"]"#, #"["\ud83d"]"#, #"["\ude00"]"#, #"["\ud83dx"]"#, #"["\u00g1"]"#] {
      #expect(throws: ReleaseError.self, "\(text)") {
        try JSONValue(parsing: Array(text.utf8), path: "t")
      }
    }
  }
}
