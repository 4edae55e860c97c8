/// murmur3's fmix64: a bijection whose every output bit depends on every input bit. The base
/// checksums and the byte-string table's hash both end with it.
@inlinable
package func murmurFinalized(_ value: UInt64) -> UInt64 {
  var mixed = value
  mixed ^= mixed >> 33
  mixed &*= 0xFF51_AFD7_ED55_8CCD
  mixed ^= mixed >> 33
  mixed &*= 0xC4CE_B9FE_1A85_EC53
  mixed ^= mixed >> 33
  return mixed
}
