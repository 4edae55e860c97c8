import ByteCoding

/// SHA-256 (FIPS 180-4), streaming.
///
/// Written by hand because the extension must verify bases without Foundation, and swift-crypto
/// imports Foundation on Linux (its `Digest` and `HashFunctions` do); the tests check it against
/// the FIPS examples and against coreutils' `sha256sum` on real files.
public struct SHA256: Sendable {
  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
    0x5be0_cd19
  )
  private var block = [UInt8](repeating: 0, count: 64)
  private var blockCount = 0
  private var totalByteCount: UInt64 = 0

  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  /// An empty hash.
  public init() {}

  @inline(__always)
  private static func rotate(_ value: UInt32, _ amount: UInt32) -> UInt32 {
    (value >> amount) | (value << (32 - amount))
  }

  /// One round: `d` and `h` take the new values of e and a; the others shift by one name.
  @inline(__always)
  private static func round(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32,
    _ g: UInt32, _ h: inout UInt32, _ constantPlusWord: UInt32
  ) {
    let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
    let choice = g ^ (e & (f ^ g))
    let temporary1 = h &+ s1 &+ choice &+ constantPlusWord
    let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
    let majority = (a & b) | (c & (a | b))
    d &+= temporary1
    h = temporary1 &+ s0 &+ majority
  }

  private mutating func compress(_ bytes: UnsafeRawBufferPointer) {
    // The message schedule lives on the stack, and the loops run on raw pointers: with arrays
    // (an allocation per 64-byte block, bounds checks per round) this ran at half the speed.
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
      Self.roundConstants.withUnsafeBufferPointer { constants in
        compress(
          bytes.baseAddress!, schedule: schedule.baseAddress!, constants: constants.baseAddress!)
      }
    }
  }

  @inline(__always)
  private mutating func compress(
    _ bytes: UnsafeRawPointer, schedule words: UnsafeMutablePointer<UInt32>,
    constants: UnsafePointer<UInt32>
  ) {
    for index in 0..<16 {
      words[index] = UInt32(
        bigEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
    }
    for index in 16..<64 {
      let w15 = words[index - 15]
      let w2 = words[index - 2]
      let s0 = Self.rotate(w15, 7) ^ Self.rotate(w15, 18) ^ (w15 >> 3)
      let s1 = Self.rotate(w2, 17) ^ Self.rotate(w2, 19) ^ (w2 >> 10)
      words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
    }
    var (a, b, c, d, e, f, g, h) = state
    // Eight rounds per pass, each naming the working variables one place on instead of
    // moving all eight (FIPS 180-4 §6.2.2, step 3): the moves were a third of each round's
    // instructions, and hashing the bases is the tail of every compile.
    for index in stride(from: 0, to: 64, by: 8) {
      Self.round(a, b, c, &d, e, f, g, &h, constants[index] &+ words[index])
      Self.round(h, a, b, &c, d, e, f, &g, constants[index + 1] &+ words[index + 1])
      Self.round(g, h, a, &b, c, d, e, &f, constants[index + 2] &+ words[index + 2])
      Self.round(f, g, h, &a, b, c, d, &e, constants[index + 3] &+ words[index + 3])
      Self.round(e, f, g, &h, a, b, c, &d, constants[index + 4] &+ words[index + 4])
      Self.round(d, e, f, &g, h, a, b, &c, constants[index + 5] &+ words[index + 5])
      Self.round(c, d, e, &f, g, h, a, &b, constants[index + 6] &+ words[index + 6])
      Self.round(b, c, d, &e, f, g, h, &a, constants[index + 7] &+ words[index + 7])
    }
    state = (
      state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f,
      state.6 &+ g, state.7 &+ h
    )
  }

  /// Feeds a string's UTF-8 bytes, in place.
  public mutating func update(utf8 text: String) {
    var text = text
    text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
  }

  /// Feeds the bytes a view shows.
  public mutating func update(_ view: ByteView) { view.withUnsafeBytes { update($0) } }

  /// Feeds bytes.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    totalByteCount &+= UInt64(bytes.count)
    var index = 0
    if blockCount > 0 {
      while blockCount < 64 && index < bytes.count {
        block[blockCount] = bytes[index]
        blockCount += 1
        index += 1
      }
      if blockCount == 64 {
        let copy = block
        copy.withUnsafeBytes { compress($0) }
        blockCount = 0
      }
    }
    while index + 64 <= bytes.count {
      compress(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + 64)]))
      index += 64
    }
    while index < bytes.count {
      block[blockCount] = bytes[index]
      blockCount += 1
      index += 1
    }
  }

  /// The digest as 64 lowercase hex digits.
  public func hexDigest() -> String {
    var copy = self
    let bitLength = totalByteCount &* 8
    var padding: [UInt8] = [0x80]
    let remainder = (blockCount + 1) % 64
    padding += [UInt8](repeating: 0, count: remainder <= 56 ? 56 - remainder : 120 - remainder)
    withUnsafeBytes(of: bitLength.bigEndian) { padding.append(contentsOf: $0) }
    let savedTotal = copy.totalByteCount
    padding.withUnsafeBytes { copy.update($0) }
    copy.totalByteCount = savedTotal
    let words = [
      copy.state.0, copy.state.1, copy.state.2, copy.state.3, copy.state.4, copy.state.5,
      copy.state.6, copy.state.7,
    ]
    let digits: [Character] = Array("0123456789abcdef")
    var text = ""
    for word in words {
      for shift in stride(from: 28, through: 0, by: -4) {
        text.append(digits[Int((word >> UInt32(shift)) & 0xF)])
      }
    }
    return text
  }

  /// The digest of a file, read through one 64 KiB buffer.
  /// - Returns: nil when the file cannot be opened or read.
  public static func hexDigest(ofFile path: String) -> String? {
    var hash = SHA256()
    do {
      try forEachChunk(ofFile: path) { hash.update($0) }
    } catch {
      return nil
    }
    return hash.hexDigest()
  }
}
