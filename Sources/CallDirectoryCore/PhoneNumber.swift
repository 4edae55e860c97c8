/// A phone number as CallKit's `CXCallDirectoryPhoneNumber`: the country calling code followed by
/// the national number, with no `+` and no leading zeros (+1 415 555 1212 is `14155551212`).
///
/// Numbers compare numerically; sorting their decimal strings instead is a known bug (`"79"` sorts
/// after `"700"`).
public typealias PhoneNumber = Int64
