/// What an identity row holds: `CallIdentity` of Live Caller ID Lookup's data format (proto3),
/// `{ string name = 1; Icon icon = 2; uint32 cache_expiry_minutes = 3; IdentityCategory
/// category = 4; }` with `Icon { ImageFormat format = 1; bytes image = 2; }`.
public struct CallIdentity: Equatable, Sendable {
  /// `IdentityCategory`.
  public enum Category: UInt64, Sendable, CaseIterable {
    case unspecified = 0
    case person = 1
    case business = 2
  }

  /// `ImageFormat`: the one format an icon may have.
  static let heicFormat: UInt64 = 1

  /// The name the call screen shows.
  public var name: String
  /// A HEIC image, or nil.
  public var icon: [UInt8]?
  /// How long a device may keep the answer, in minutes (0: the system's default).
  public var cacheExpiryMinutes: UInt32
  /// A person or a business.
  public var category: Category

  /// An identity.
  public init(
    name: String, icon: [UInt8]? = nil, cacheExpiryMinutes: UInt32 = 0,
    category: Category = .unspecified
  ) {
    self.name = name
    self.icon = icon
    self.cacheExpiryMinutes = cacheExpiryMinutes
    self.category = category
  }

  /// The largest value a row may hold, in bytes: the processed database stores a value's size
  /// in 16 bits (Apple's data format: "should not exceed 2^16-1 bytes").
  public static let maximumValueByteCount = 65_535
  /// The largest icon the export takes, in bytes: 63,487, what leaves 2 KiB of a value for the
  /// name (labels are at most 1 KiB of UTF-8) and the message's framing. The help, the article
  /// and the export's refusal all state this one number.
  public static let maximumIconByteCount = maximumValueByteCount - 2 * 1024

  /// The serialized message, fields in number order.
  public func encoded() -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(name.utf8.count + (icon?.count ?? 0) + 16)
    encode(into: &bytes)
    return bytes
  }

  /// Appends the serialized message to `bytes` (the export reuses one buffer row after row).
  public func encode(into bytes: inout [UInt8]) {
    if !name.isEmpty { ProtobufWire.appendBytesField(1, name.utf8, to: &bytes) }
    if let icon {
      var message: [UInt8] = []
      message.reserveCapacity(icon.count + 8)
      ProtobufWire.appendVarintField(1, Self.heicFormat, to: &message)
      ProtobufWire.appendBytesField(2, icon, to: &message)
      ProtobufWire.appendBytesField(2, message, to: &bytes)
    }
    ProtobufWire.appendVarintField(3, UInt64(cacheExpiryMinutes), to: &bytes)
    ProtobufWire.appendVarintField(4, category.rawValue, to: &bytes)
  }
}
