import DirectoryContainer
import SystemCalls

/// The `--icons` folder: `+E164.heic` files, one per number that has an icon. Only the names
/// are listed up front (icons are few beside the numbers); each file is read when its number's
/// row is written, checked to be HEIC and small enough, and refused with a reason otherwise.
struct IconFolder {
  /// Why an icon was not used.
  enum Refusal: Equatable {
    case notHEIC(String)
    case tooLarge(String, bytes: Int)
    case unreadable(String)
  }

  /// The most bytes an icon may have: what leaves room for the name and the framing in a
  /// value of at most `CallIdentity.maximumValueByteCount` bytes with the longest label.
  static let maximumIconByteCount = CallIdentity.maximumValueByteCount - 2 * 1024

  /// HEIF brands of a HEIC still image (ISO/IEC 23008-12; `mif1` is the general one iOS writes
  /// beside `heic`).
  static let brands: Set<String> = ["heic", "heix", "heim", "heis", "mif1"]

  let folder: String
  /// Numbers with an icon file, to its file name.
  private(set) var files: [Int64: String] = [:]
  /// File names that name no number (`+` and digits), reported once.
  private(set) var ignoredNames: [String] = []

  /// Lists `folder`.
  init(folder: String) {
    self.folder = folder
    for entry in FolderCalls.entries(of: folder) where entry.name.hasSuffix(".heic") {
      let stem = entry.name.dropLast(".heic".count)
      guard stem.first == "+", let number = Int64(stem.dropFirst()), number > 0,
        stem.dropFirst().allSatisfy(\.isASCII)
      else {
        ignoredNames.append(entry.name)
        continue
      }
      files[number] = entry.name
    }
    ignoredNames.sort()
  }

  /// The icon of `number`: nil when it has none; its bytes, or why it is refused.
  func icon(for number: Int64) -> Result<[UInt8], RefusalError>? {
    guard let name = files[number] else { return nil }
    let path = folder + "/" + name
    guard let size = regularFileByteCount(path) else {
      return .failure(RefusalError(.unreadable(name)))
    }
    guard size <= Self.maximumIconByteCount else {
      return .failure(RefusalError(.tooLarge(name, bytes: size)))
    }
    // Bounded: a file that grew past the limit since it was measured is refused, not read.
    guard let bytes = try? readWholeFile(path, maximumByteCount: Self.maximumIconByteCount) else {
      return .failure(RefusalError(.unreadable(name)))
    }
    guard Self.isHEIC(bytes) else { return .failure(RefusalError(.notHEIC(name))) }
    return .success(bytes)
  }

  /// Whether `bytes` start as a HEIC file: an ISO BMFF `ftyp` box whose major brand, or one of
  /// whose compatible brands, is a HEIF image brand.
  static func isHEIC(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
    let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
    guard boxSize >= 16, boxSize <= bytes.count else { return false }
    func brand(at offset: Int) -> String {
      String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }
    if brands.contains(brand(at: 8)) { return true }
    return stride(from: 16, to: boxSize - 3, by: 4).contains { brands.contains(brand(at: $0)) }
  }

  /// A refusal as an error value.
  struct RefusalError: Error {
    let refusal: Refusal
    init(_ refusal: Refusal) { self.refusal = refusal }

    var line: String {
      switch refusal {
      case .notHEIC(let name): "\(name): not a HEIC image (no ftyp box with a HEIF brand)"
      case .tooLarge(let name, let bytes):
        "\(name): \(bytes) bytes, over the \(IconFolder.maximumIconByteCount) an identity leaves for its icon"
      case .unreadable(let name): "\(name): cannot be read as a regular file"
      }
    }
  }
}
