// A stand-in for Dispatch, for Scripts/typecheck-ios.sh: the calls ReleaseDownload and
// CallDirectoryApp (its own queue for blocking work) make, with the signatures of the iOS SDK's
// Dispatch (all available since iOS 8). Nothing runs.

public struct DispatchTime: Sendable {
  public static func now() -> DispatchTime { DispatchTime() }
  public static func + (time: DispatchTime, seconds: Double) -> DispatchTime { time }
}

public struct DispatchQoS: Sendable {
  public static let utility = DispatchQoS()
  public static let unspecified = DispatchQoS()
}

public final class DispatchSpecificKey<T>: @unchecked Sendable {
  public init() {}
}

public final class DispatchWorkItem: @unchecked Sendable {
  public init(block: @escaping @Sendable @convention(block) () -> Void) {}
  public func cancel() {}
  public var isCancelled: Bool { false }
}

public final class DispatchQueue: @unchecked Sendable {
  public struct GlobalQueuePriority {}
  public struct Attributes: OptionSet, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static let concurrent = Attributes(rawValue: 2)
  }
  init() {}
  public init(
    label: String, qos: DispatchQoS = .unspecified, attributes: Attributes = [],
    target: DispatchQueue? = nil
  ) {}
  public static func global() -> DispatchQueue { DispatchQueue() }
  public func asyncAfter(deadline: DispatchTime, execute work: @escaping @Sendable () -> Void) {}
  public func async(execute work: @escaping @Sendable () -> Void) {}
  public func setSpecific<T>(key: DispatchSpecificKey<T>, value: T?) {}
  public static func getSpecific<T>(key: DispatchSpecificKey<T>) -> T? { nil }
}

/// The timer source's calls ReleaseDownload makes (a fetch's whole-download deadline).
public protocol DispatchSourceTimer: AnyObject, Sendable {
  func schedule(deadline: DispatchTime)
  func setEventHandler(handler: (@Sendable () -> Void)?)
  func resume()
  func cancel()
}

public enum DispatchSource {
  public static func makeTimerSource(queue: DispatchQueue? = nil) -> any DispatchSourceTimer {
    fatalError("a stand-in: nothing runs")
  }
}
