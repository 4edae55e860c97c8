import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A release folder served over HTTP/1.1 on loopback, in the test's own process (swift-nio),
/// with `Range`, `ETag` and `If-None-Match`, and the faults ``ServerFaults`` names. It replaced
/// `Tests/Fixtures/release_server.py` in the tests (issue 56, item 8), so the HTTP tests run on
/// a machine with nothing but Swift.
///
/// Each request is logged as `GET PATH RANGE STATUS`, followed by ` client=NAME` when it carries
/// an `X-Calldir-Client` header; a request is logged before it is answered, so a stalled one is
/// logged too.
public final class ReleaseServer: Sendable {
  /// The port it listens on, on 127.0.0.1.
  public let port: Int
  let state: ServerState

  /// Starts serving `folder` on an ephemeral loopback port.
  /// - Throws: what binding the socket throws.
  public init(folder: String, faults: ServerFaults = ServerFaults()) throws {
    let state = ServerState(folder: folder, faults: faults)
    let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.backlog, value: 64)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      // Headers and body go out in separate writes: without TCP_NODELAY, Nagle's algorithm
      // holds the body until the client's delayed ACK (40 ms on Linux), as production servers
      // (nginx, CDNs) do not.
      .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          try channel.pipeline.syncOperations.addHandler(ReleaseRequestHandler(state: state))
        }
      }
      .bind(host: "127.0.0.1", port: 0).wait()
    state.listening(on: channel)
    self.state = state
    self.port = channel.localAddress?.port ?? 0
  }

  /// `http://127.0.0.1:PORT`.
  public var url: String { "http://127.0.0.1:\(port)" }

  /// The request log so far, a line each.
  public var log: String { state.logText }

  /// Returns once a request whose log line contains `fragment` has arrived (true), or once the
  /// server has stopped without one or `seconds` have passed (false). It blocks its thread: call
  /// it where the request comes from another process or thread, not from a task the caller's
  /// own thread of the cooperative pool must run.
  public func waitForRequest(containing fragment: String, seconds: Double = 120) -> Bool {
    state.wait(forLineContaining: fragment, deadline: Date(timeIntervalSinceNow: seconds))
  }

  /// Returns once no connection is open (true: every client has closed its own, a cancelled
  /// transfer's among them), or false once `seconds` have passed with one still open.
  public func waitUntilNoConnection(seconds: Double = 30) -> Bool {
    state.waitUntilNoConnection(deadline: Date(timeIntervalSinceNow: seconds))
  }

  /// Stops serving (the socket and every connection closed) and returns the request log.
  @discardableResult
  public func stop() -> String {
    state.stop()
    return state.logText
  }

  deinit { state.stop() }
}

/// What a server's connections share: its folder and faults, the log, the open channels, the
/// files already cut once, the bombs made. Every field is read and written under `condition`.
final class ServerState: @unchecked Sendable {
  let folder: String
  let faults: ServerFaults
  private let condition = NSCondition()
  private var lines: [String] = []
  private var listener: Channel?
  private var connections: [ObjectIdentifier: Channel] = [:]
  private var stopped = false
  private var cut: Set<String> = []
  private var bombs: [String: [UInt8]] = [:]

  init(folder: String, faults: ServerFaults) {
    self.folder = folder
    self.faults = faults
    // Each file's bomb is made before the server listens: made on the first request, 64 MiB
    // compressed on the event loop took over a test's 2 s idle timeout on a loaded machine,
    // and the client then saw a stall, not the encoding it must refuse (issue 65, item 0).
    if let mebibytes = faults.gzipBombMiB {
      for sub in ["patches", "bases"] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + sub)) ?? []
        for name in names {
          guard let body = FileManager.default.contents(atPath: folder + "/\(sub)/\(name)") else {
            continue
          }
          bombs["\(sub)/\(name)"] = GzipBomb.make(Array(body), extraMiB: mebibytes)
        }
      }
    }
  }

  private func locked<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  func listening(on channel: Channel) { locked { listener = channel } }

  func opened(_ channel: Channel) {
    let refused = locked {
      if !stopped { connections[ObjectIdentifier(channel)] = channel }
      return stopped
    }
    if refused { channel.close(promise: nil) }
  }

  func closed(_ channel: Channel) {
    locked {
      connections[ObjectIdentifier(channel)] = nil
      condition.broadcast()
    }
  }

  func waitUntilNoConnection(deadline: Date) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while !connections.isEmpty {
      if !condition.wait(until: deadline) { return connections.isEmpty }
    }
    return true
  }

  func record(_ line: String) {
    locked {
      lines.append(line)
      condition.broadcast()
    }
  }

  var logText: String { locked { lines.map { $0 + "\n" }.joined() } }

  func wait(forLineContaining fragment: String, deadline: Date) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if lines.contains(where: { $0.contains(fragment) }) { return true }
      if stopped { return false }
      if !condition.wait(until: deadline) {
        return lines.contains(where: { $0.contains(fragment) })
      }
    }
  }

  /// True the first time `path` is asked about: the file a drop cuts.
  func firstCut(of path: String) -> Bool { locked { cut.insert(path).inserted } }

  /// The bomb for `path`, made once (a 1 GiB one takes seconds).
  func bomb(for path: String, body: [UInt8], mebibytes: Int) -> [UInt8] {
    if let made = locked({ bombs[path] }) { return made }
    let made = GzipBomb.make(body, extraMiB: mebibytes)
    locked { bombs[path] = made }
    return made
  }

  /// Closes the listening socket and every connection; later connections are refused.
  func stop() {
    for channel in markStopped() { try? channel.close().wait() }
  }

  /// Stops from an event loop (a "killed" server): the closes are not waited for there.
  func die() {
    for channel in markStopped() { channel.close(promise: nil) }
  }

  /// Marks the server stopped (waiters released) and hands over its channels to close.
  private func markStopped() -> [Channel] {
    locked {
      stopped = true
      condition.broadcast()
      defer { (listener, connections) = (nil, [:]) }
      return [listener].compactMap { $0 } + Array(connections.values)
    }
  }
}
