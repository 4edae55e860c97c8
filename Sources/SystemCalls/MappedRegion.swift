import ByteCoding
import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Safe: `address` and `length` are what mmap returned (checked against MAP_FAILED), and only
// `unmap()` gives them back; readers use the region only while its owner keeps it mapped.
/// A read-only, private mapping of part of a file (`mmap`): the base readers' windows and a
/// compact base's label dictionary. Unmapped explicitly (`unmap()`), so its owner decides when
/// the pages go.
@safe @usableFromInline package struct MappedRegion {
  /// The first mapped byte (the page holding the requested offset).
  @usableFromInline package let address: UnsafeMutableRawPointer
  /// Bytes mapped.
  @usableFromInline package let byteCount: Int

  /// The system's page size, in bytes (a mapping starts at a multiple of it).
  @usableFromInline package static let pageByteCount = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// Maps `byteCount` bytes of `descriptor` from `offset`, which must be a multiple of
  /// ``pageByteCount``.
  /// - Parameters:
  ///   - populate: map every page in one call (Linux's MAP_POPULATE; elsewhere pages fault in
  ///     as they are read).
  ///   - sequential: tell the kernel the pages are read in order (it reads ahead and may drop
  ///     pages behind).
  /// - Throws: `Errno` from `mmap`.
  @usableFromInline package init(
    descriptor: FileDescriptor, offset: Int, byteCount: Int, populate: Bool = false,
    sequential: Bool = false
  ) throws(Errno) {
    var flags = MAP_PRIVATE
    #if os(Linux)
      if populate { flags |= MAP_POPULATE }
    #endif
    let address = unsafe mmap(nil, byteCount, PROT_READ, flags, descriptor.rawValue, off_t(offset))
    guard let address = unsafe address, unsafe address != MAP_FAILED else {
      throw Errno(rawValue: errno)
    }
    if sequential { _ = unsafe madvise(address, byteCount, Int32(MADV_SEQUENTIAL)) }
    unsafe self.address = unsafe address
    self.byteCount = byteCount
  }

  /// A region mapped earlier, from its address and size (an owner that keeps only those).
  @usableFromInline package init(address: UnsafeMutableRawPointer, byteCount: Int) {
    unsafe self.address = unsafe address
    self.byteCount = byteCount
  }

  /// The mapped bytes, read through a bounds-checked view (valid until ``unmap()``).
  @inlinable
  package var bytes: ByteView {
    unsafe ByteView(UnsafeRawBufferPointer(start: address, count: byteCount))
  }

  /// Releases the mapping; its pointers are invalid afterwards.
  @usableFromInline package func unmap() {
    unsafe munmap(address, byteCount)
  }
}
