import Foundation

/// Every regular file under `folder` (relative path → bytes): a run that must leave a folder
/// byte-identical is checked by comparing two snapshots.
/// - Throws: what reading a file throws.
public func folderSnapshot(_ folder: String) throws -> [String: Data] {
  var files: [String: Data] = [:]
  let enumerator = FileManager.default.enumerator(atPath: folder)
  while let relative = enumerator?.nextObject() as? String {
    var isDirectory: ObjCBool = false
    let path = folder + "/" + relative
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    {
      files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
    }
  }
  return files
}
