import SystemCalls

/// What this process has read, from `/proc/self/io` (Linux): `rchar`, the bytes every `read`
/// and `pread` returned, whatever the file or pipe. A long command's progress reads it to say
/// how much of its input it has read without its readers having to count.
public enum ProcessIO {
  /// Bytes read so far, or nil where `/proc/self/io` is missing (not Linux) or unreadable.
  public static func bytesRead() -> Int? {
    guard let descriptor = try? PositionalRead.open("/proc/self/io") else { return nil }
    defer { PositionalRead.close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 512)
    guard let count = try? PositionalRead.read(descriptor, into: &buffer, at: 0), count > 0 else {
      return nil
    }
    let text = String(decoding: buffer[0..<count], as: UTF8.self)
    for line in text.split(separator: "\n") where line.hasPrefix("rchar:") {
      return Int(line.dropFirst("rchar:".count).drop { $0 == " " })
    }
    return nil
  }
}
