// A stand-in for Dispatch, for Scripts/typecheck-ios.sh: the calls ReleaseDownload makes, with
// the signatures of the iOS SDK's Dispatch (all available since iOS 8). Nothing runs.

public struct DispatchTime: Sendable {
  public static func now() -> DispatchTime { DispatchTime() }
  public static func + (time: DispatchTime, seconds: Double) -> DispatchTime { time }
}

public final class DispatchQueue: @unchecked Sendable {
  public struct GlobalQueuePriority {}
  public static func global() -> DispatchQueue { DispatchQueue() }
  public func asyncAfter(deadline: DispatchTime, execute work: @escaping @Sendable () -> Void) {}
  public func async(execute work: @escaping @Sendable () -> Void) {}
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
