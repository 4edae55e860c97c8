// A stand-in for Foundation on iOS, for Scripts/typecheck-ios.sh: the declarations that
// ReleaseDownload, CallKitAdapter (with the CallKit stand-in) and the example's non-SwiftUI
// sources use, with the iOS SDK's signatures and their availability (iOS 16.4 SDK; the
// Objective-C classes as Swift imports them). Nothing runs: it lets those modules be checked
// for iOS 16 on Linux, where Apple's Foundation interface does not exist.
@_exported import Dispatch

public typealias TimeInterval = Double

open class NSObject {
  public init() {}
}

public protocol NSLocking {
  func lock()
  func unlock()
}

extension NSLocking {
  @available(iOS 16.0, macOS 13.0, *)
  public func withLock<R>(_ body: () throws -> R) rethrows -> R { try body() }
}

open class NSLock: NSObject, NSLocking, @unchecked Sendable {
  open func lock() {}
  open func unlock() {}
}

public struct Data: Sendable {
  public var count: Int { 0 }
}

public struct URL: Sendable, Hashable {
  public init?(string: String) {}
  public init(fileURLWithPath path: String) {}
  public var absoluteString: String { "" }
  public var path: String { "" }
  public func appendingPathComponent(_ component: String) -> URL { self }
}

open class NSError: NSObject, Error, @unchecked Sendable {
  open var domain: String { "" }
  open var code: Int { 0 }
}

public typealias NSErrorDomain = String

extension Error {
  public var localizedDescription: String { "" }
}

public struct CocoaError: Error, Sendable {
  public struct Code: Sendable {
    public static let fileNoSuchFile = Code()
  }
  public init(_ code: Code) {}
}

public struct URLError: Error, Sendable {
  public struct Code: Equatable, Sendable {
    public static let timedOut = Code()
    public static let networkConnectionLost = Code()
    public static let cannotConnectToHost = Code()
    public static let cannotFindHost = Code()
  }
  public var code: Code { Code() }
}

open class FileManager: NSObject, @unchecked Sendable {
  open class var `default`: FileManager { FileManager() }
  open func fileExists(atPath path: String) -> Bool { false }
  @discardableResult
  open func createFile(atPath path: String, contents data: Data?, attributes: [String: Any]? = nil)
    -> Bool
  { false }
  open func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
    nil
  }
}

open class FileHandle: NSObject, @unchecked Sendable {
  public init?(forUpdatingAtPath path: String) {}
  @available(iOS 13.0, *) open func close() throws {}
  @available(iOS 13.4, *) @discardableResult open func seekToEnd() throws -> UInt64 { 0 }
  @available(iOS 13.0, *) open func truncate(atOffset offset: UInt64) throws {}
  @available(iOS 13.0, *) open func synchronize() throws {}
  @available(iOS 13.4, *) public func write<T: DataProtocol>(contentsOf data: T) throws {}
}

public protocol DataProtocol {}
extension Data: DataProtocol {}

public struct URLRequest: Sendable {
  public enum CachePolicy: Sendable { case reloadIgnoringLocalCacheData }
  public init(url: URL, cachePolicy: CachePolicy = .reloadIgnoringLocalCacheData) {}
  public var timeoutInterval: TimeInterval = 60
  public mutating func setValue(_ value: String?, forHTTPHeaderField field: String) {}
}

open class URLResponse: NSObject, @unchecked Sendable {}

open class HTTPURLResponse: URLResponse, @unchecked Sendable {
  open var statusCode: Int { 0 }
  @available(iOS 13.0, *) open func value(forHTTPHeaderField field: String) -> String? { nil }
}

open class URLSessionTask: NSObject, @unchecked Sendable {
  open var taskIdentifier: Int { 0 }
  open func resume() {}
  open func cancel() {}
}

open class URLSessionDataTask: URLSessionTask, @unchecked Sendable {}

open class OperationQueue: NSObject, @unchecked Sendable {}

open class URLCache: NSObject, @unchecked Sendable {}
open class HTTPCookieStorage: NSObject, @unchecked Sendable {}
open class URLCredentialStorage: NSObject, @unchecked Sendable {}

open class URLSessionConfiguration: NSObject, @unchecked Sendable {
  open class var ephemeral: URLSessionConfiguration { URLSessionConfiguration() }
  open var urlCache: URLCache?
  open var requestCachePolicy: URLRequest.CachePolicy = .reloadIgnoringLocalCacheData
  open var httpCookieStorage: HTTPCookieStorage?
  open var urlCredentialStorage: URLCredentialStorage?
}

public protocol URLSessionDelegate: AnyObject, Sendable {}
public protocol URLSessionTaskDelegate: URLSessionDelegate {
  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
}
public protocol URLSessionDataDelegate: URLSessionTaskDelegate {
  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void)
  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data)
}

open class URLSession: NSObject, @unchecked Sendable {
  public enum ResponseDisposition: Sendable { case cancel, allow }
  public init(
    configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate)?,
    delegateQueue queue: OperationQueue?
  ) {}
  open func dataTask(with request: URLRequest) -> URLSessionDataTask { URLSessionDataTask() }
  open func invalidateAndCancel() {}
  open func finishTasksAndInvalidate() {}
}

extension StringProtocol {
  public func trimmingCharacters(in set: CharacterSet) -> String { "" }
}

public struct CharacterSet: Sendable {
  public static let whitespaces = CharacterSet()
}

// What `error as NSError` calls (the compiler looks these up in the module named Foundation).
public func _convertErrorToNSError(_ error: any Error) -> NSError { NSError() }
public func _convertNSErrorToError(_ error: NSError?) -> any Error { error ?? NSError() }

/// Locale, as far as the example reads it (iOS 16's `region`).
public struct Locale: Sendable {
  public struct Region: Sendable {
    public var identifier: String
  }
  public static var current: Locale { Locale() }
  public var region: Region? { nil }
}
