import DirectoryContainer
import Foundation
import NIOCore
import NIOHTTP1

/// One connection's requests: each a file of the release folder, answered as the server's
/// faults say (see ``ServerFaults``).
final class ReleaseRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let state: ServerState
  private var request: HTTPRequestHead?

  init(state: ServerState) { self.state = state }

  func channelActive(context: ChannelHandlerContext) {
    state.opened(context.channel)
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    state.closed(context.channel)
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head): request = head
    case .body: break
    case .end:
      if let request { respond(to: request, context: context) }
      request = nil
    }
  }

  /// The answer to a GET, as `release_server.py` gave it.
  private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
    let faults = state.faults
    let path = String(request.uri.split(separator: "?").first ?? "").trimmingPrefix("/")
    let faulty = path.hasPrefix("patches/") || path.hasPrefix("bases/")
    guard let real = file(at: String(path)), !(faulty && faults.missing),
      var body = FileManager.default.contents(atPath: real).map(Array.init)
    else {
      return answer(404, "not found\n", logged: "GET \(request.uri) - 404", context: context)
    }
    if faulty && faults.corrupt, let last = body.indices.last { body[last] ^= 0xFF }
    let ranged = faults.ignoresRange ? nil : request.headers.first(name: "Range")
    var start = 0
    if let ranged, ranged.hasPrefix("bytes="), ranged.hasSuffix("-") {
      start = Int(ranged.dropFirst(6).dropLast()) ?? 0
      if start >= body.count {
        return answer(416, "", logged: "GET \(path) \(ranged) 416", context: context)
      }
    }
    var status = start > 0 ? 206 : 200
    var headers = HTTPHeaders()
    // Each file's version named as a static server names it (RFC 9110, 8.8.3): a client that
    // sends it back in If-None-Match is answered 304, without a body.
    let tag =
      faults.noETag || faults.ignoresRange
      ? nil : SHA256.hexDigest(ofFile: real).map { "\"\($0.prefix(16))\"" }
    let modified = faults.ignoresRange ? Self.lastModified(of: real) : nil
    let unchanged =
      (tag != nil && request.headers.first(name: "If-None-Match") == tag && ranged == nil)
      || (modified != nil && request.headers.first(name: "If-Modified-Since") == modified)
    if let tag { headers.add(name: "ETag", value: tag) }
    if let modified { headers.add(name: "Last-Modified", value: modified) }
    if unchanged {
      state.record("GET \(path) - 304")
      context.write(wrapOutboundOut(.head(head(304, headers, request))), promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
      return
    }
    if faulty, let mebibytes = faults.gzipBombMiB {
      body = state.bomb(for: String(path), body: body, mebibytes: mebibytes)
      (start, status) = (0, 200)
      headers.add(name: "Content-Encoding", value: "gzip")
    }
    if ranged != nil && faults.wrongRange { (start, status) = (0, 206) }
    // A client that names itself (X-Calldir-Client: a session configuration's extra header)
    // is logged with it, so a test sees the configuration an app passed reach the server.
    let client = request.headers.first(name: "X-Calldir-Client").map { " client=\($0)" } ?? ""
    // A query (a feed's since=VERSION) is logged after the path; the file served is the path's.
    let query = request.uri.split(separator: "?", maxSplits: 1).dropFirst().first.map { "?\($0)" }
    let bearer = request.headers.first(name: "Authorization").map { " auth=\($0)" } ?? ""
    state.record("GET \(path)\(query ?? "") \(ranged ?? "-") \(status)\(client)\(bearer)")
    headers.add(name: "Content-Length", value: String(body.count - start))
    if status == 206 {
      headers.add(name: "Content-Range", value: "bytes \(start)-\(body.count - 1)/\(body.count)")
    }
    context.writeAndFlush(wrapOutboundOut(.head(head(status, headers, request))), promise: nil)
    let rest = body[start...]
    guard faulty else { return send(rest, context: context, keepAlive: request.isKeepAlive) }
    if let delay = faults.delayMilliseconds {
      context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(delay))) {
        self.sendFaulty(rest, path: String(path), request: request, context: context)
      }
    } else {
      sendFaulty(rest, path: String(path), request: request, context: context)
    }
  }

  /// The body of a file under patches/ or bases/, as the faults cut, stall or drip it.
  private func sendFaulty(
    _ rest: ArraySlice<UInt8>, path: String, request: HTTPRequestHead,
    context: ChannelHandlerContext
  ) {
    let faults = state.faults
    if faults.stall { return }
    if let bytes = faults.stallAfter {
      context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer(rest.prefix(bytes))))))
        .whenComplete { _ in }
      return
    }
    if let bytes = faults.dieAfter {
      let state = state
      context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer(rest.prefix(bytes))))))
        .whenComplete { _ in state.die() }
      return
    }
    if let bytes = faults.dropAfter, state.firstCut(of: path) {
      context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer(rest.prefix(bytes))))))
        .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
      return
    }
    if let piece = faults.dripBytes, piece > 0 {
      return drip(rest, piece: piece, keepAlive: request.isKeepAlive, context: context)
    }
    send(rest, context: context, keepAlive: request.isKeepAlive)
  }

  /// Writes `rest` `piece` bytes at a time, each once the one before is written.
  private func drip(
    _ rest: ArraySlice<UInt8>, piece: Int, keepAlive: Bool, context: ChannelHandlerContext
  ) {
    guard !rest.isEmpty else { return send([], context: context, keepAlive: keepAlive) }
    context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer(rest.prefix(piece))))))
      .assumeIsolated().whenSuccess {
        self.drip(rest.dropFirst(piece), piece: piece, keepAlive: keepAlive, context: context)
      }
  }

  private func send(
    _ rest: ArraySlice<UInt8>, context: ChannelHandlerContext, keepAlive: Bool
  ) {
    if !rest.isEmpty {
      context.write(wrapOutboundOut(.body(.byteBuffer(buffer(rest)))), promise: nil)
    }
    let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
    if !keepAlive { done.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
  }

  private func answer(
    _ status: Int, _ text: String, logged line: String, context: ChannelHandlerContext
  ) {
    state.record(line)
    var headers = HTTPHeaders()
    headers.add(name: "Content-Length", value: String(text.utf8.count))
    let head = HTTPResponseHead(
      version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    send(ArraySlice(text.utf8), context: context, keepAlive: true)
  }

  private func head(_ status: Int, _ headers: HTTPHeaders, _ request: HTTPRequestHead)
    -> HTTPResponseHead
  {
    HTTPResponseHead(
      version: request.version, status: HTTPResponseStatus(statusCode: status), headers: headers)
  }

  private func buffer(_ bytes: ArraySlice<UInt8>) -> ByteBuffer { ByteBuffer(bytes: bytes) }

  /// The regular file at `path` inside the folder (never outside it: `..` and links resolved).
  private func file(at path: String) -> String? {
    let root = URL(fileURLWithPath: state.folder).resolvingSymlinksInPath().path
    let real = URL(fileURLWithPath: root + "/" + path).resolvingSymlinksInPath().path
    var isFolder: ObjCBool = false
    guard real.hasPrefix(root + "/"),
      FileManager.default.fileExists(atPath: real, isDirectory: &isFolder),
      !isFolder.boolValue
    else { return nil }
    return real
  }

  /// The file's modification time as an HTTP date (RFC 9110, 5.6.7).
  private static func lastModified(of path: String) -> String? {
    guard
      let date = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    else { return nil }
    let format = DateFormatter()
    format.locale = Locale(identifier: "en_US_POSIX")
    format.timeZone = TimeZone(identifier: "GMT")
    format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return format.string(from: date)
  }
}
