import ByteCoding

/// The block loop both base readers share: verify the next block whole where the reader's bytes
/// hold it, read its entries, and at the end check that nothing trails the last block. A reader
/// supplies only its bytes: a mapped window (``MappedBaseReader``) or a buffer filled with
/// `pread` (``BufferedBaseReader``).
protocol BlockSource: AnyObject {
  /// The decoder of this base's blocks.
  var decoder: BlockDecoder { get set }
  /// Set once the last block was read and the end verified (or failed).
  var finished: Bool { get set }
  /// The bytes from the reader's position on, whether they reach the payload's end, and the
  /// file offset of the first.
  func window() throws(BaseFormatError) -> (
    bytes: ByteView, reachesPayloadEnd: Bool, fileOffset: Int
  )
  /// Moves the position past a verified block of `byteCount` bytes.
  func consume(_ byteCount: Int)
  /// Makes more bytes available when the next block was not whole in the window.
  /// - Throws: ``BaseFormatError`` when no more can come (a block cut short) or a read fails.
  func moreBytes() throws(BaseFormatError)
  /// Releases the bytes at the end (a mapping), and says how many payload bytes were left
  /// unread and the file offset the blocks ended at.
  func endOfBlocks() -> (unread: Int, fileOffset: Int)
}

extension BlockSource {
  /// Verifies the next block and returns its first entry; nil after the last, once the end is
  /// verified.
  /// - Throws: ``BaseFormatError`` for a corrupt or truncated block, or trailing bytes.
  func nextBlock() throws(BaseFormatError) -> BaseEntry? {
    if finished { return nil }
    if decoder.isComplete {
      try finish()
      return nil
    }
    while true {
      let window = try window()
      // nil: the block is not whole in the window (and the window stops short of the end).
      if let size = try decoder.beginBlock(
        in: window.bytes, reachesPayloadEnd: window.reachesPayloadEnd,
        fileOffset: window.fileOffset)
      {
        consume(size)
        return try decoder.nextEntry()
      }
      try moreBytes()
    }
  }

  private func finish() throws(BaseFormatError) {
    finished = true
    let end = endOfBlocks()
    guard end.unread == 0 else {
      throw BaseFormatError(
        path: decoder.path, offset: end.fileOffset,
        problem: .trailingBytes(count: end.unread))
    }
    try decoder.verifyEnd(atFileOffset: end.fileOffset)
  }
}
