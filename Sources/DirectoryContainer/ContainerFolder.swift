#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Listing and removing what writers leave in a container, without Foundation (the container
/// module builds for iOS).
enum ContainerFolder {
  /// An entry of a folder.
  struct Entry {
    let name: String
    let isFolder: Bool
  }

  /// The entries of `folder` except `.` and `..`; empty when it cannot be read.
  static func entries(of folder: String) -> [Entry] {
    guard let stream = opendir(folder) else { return [] }
    defer { closedir(stream) }
    var entries: [Entry] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      entries.append(Entry(name: name, isFolder: entry.pointee.d_type == UInt8(DT_DIR)))
    }
    return entries
  }

  /// Creates `folder` and the folders above it that are missing (`mkdir -p`).
  /// - Throws: ``ContainerError`` naming the folder that could not be made.
  static func create(_ folder: String) throws(ContainerError) {
    var path = folder.hasPrefix("/") ? "" : "."
    for component in folder.split(separator: "/") {
      path += "/" + component
      if mkdir(path, 0o755) != 0 && errno != EEXIST {
        throw ContainerError("cannot create \(path): \(String(cString: strerror(errno)))")
      }
    }
  }

  /// Removes a file, or a folder and what it holds (one level of files below, as scratch
  /// folders have; deeper folders are removed recursively). Best effort.
  static func remove(_ path: String, _ entry: Entry) {
    guard entry.isFolder else {
      unlink(path)
      return
    }
    for child in entries(of: path) { remove(path + "/" + child.name, child) }
    rmdir(path)
  }
}
