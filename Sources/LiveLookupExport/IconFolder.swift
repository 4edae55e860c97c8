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

  /// The most bytes an icon may have: ``CallIdentity/maximumIconByteCount``.
  static let maximumIconByteCount = CallIdentity.maximumIconByteCount

  /// HEIF brands of a HEIC still image (ISO/IEC 23008-12; `mif1` is the general one iOS writes
  /// beside `heic`).
  static let brands: Set<String> = ["heic", "heix", "heim", "heis", "mif1"]

  let folder: String
  /// Numbers with an icon file, to its file name.
  private(set) var files: [Int64: String] = [:]
  /// File names that name no number (not `+`, then 1 to 15 digits without a leading 0, then
  /// `.heic`), sorted; hidden files (`.DS_Store`) are not counted.
  private(set) var ignoredNames: [String] = []

  /// Lists `folder`.
  /// - Throws: ``ExportError`` when `folder` is not a folder that can be
  ///   listed: a missing path, a file or `/dev/zero` would otherwise read as "no icons".
  init(folder: String) throws(ExportError) {
    self.folder = folder
    guard FolderCalls.isFolder(folder) else {
      throw ExportError(
        "--icons \(folder): \(FolderCalls.exists(folder, followingLinks: true) ? "not a folder" : "no such folder"); nothing was exported"
      )
    }
    guard let entries = FolderCalls.listedEntries(of: folder) else {
      throw ExportError("--icons \(folder): cannot be listed; nothing was exported")
    }
    for entry in entries where !entry.name.hasPrefix(".") {
      guard let number = Self.number(named: entry.name) else {
        ignoredNames.append(entry.name)
        continue
      }
      files[number] = entry.name
    }
    ignoredNames.sort()
  }

  /// The number an icon's file name names: `+`, 1 to 15 ASCII digits with no leading zero (an
  /// E.164 number), `.heic`. `Int64("+7…")` alone would take `++7….heic`, and a leading zero
  /// would make `+07….heic` the icon of `+7…`.
  static func number(named name: String) -> Int64? {
    let utf8 = Array(name.utf8)
    let suffix = Array(".heic".utf8)
    guard utf8.count > suffix.count + 1, utf8.suffix(suffix.count).elementsEqual(suffix),
      utf8.first == UInt8(ascii: "+")
    else { return nil }
    let digits = utf8[1..<(utf8.count - suffix.count)]
    guard (1...15).contains(digits.count), digits.first != UInt8(ascii: "0"),
      digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    return digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
  }

  /// Numbers with an icon file that is never asked for: the directory has no identity for
  /// them, so their icons are not exported.
  func unusedNames(asked: Set<Int64>) -> [String] {
    files.filter { !asked.contains($0.key) }.map(\.value).sorted()
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
