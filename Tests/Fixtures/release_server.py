#!/usr/bin/env python3
"""A loopback HTTP server for the measuring scripts (Scripts/race-trials.py,
Scripts/update-over-http.py), which run calldir against a server in another process: serves a
release folder with Range support (python3 -m http.server has none) and injects faults. The
tests use Tests/ReleaseServer instead (swift-nio, in their own process, the same faults).

usage: release_server.py FOLDER [--drop-after N] [--die-after N] [--wrong-range] [--corrupt]
                         [--stall] [--missing] [--gzip] [--gzip-mib N] [--delay MS] [--no-etag]
  --drop-after N  the first response of every file under patches/ or bases/ sends N bytes of
                  its body, then the connection is cut (later requests are served whole)
  --die-after N   the first response for a file under patches/ or bases/ sends N bytes of its
                  body, then the whole server exits (killed mid-download)
  --wrong-range   a Range request is answered 206 from byte 0, its Content-Range saying so
  --corrupt       files under patches/ and bases/ are served with one byte changed
  --stall         files under patches/ and bases/ get headers, then nothing, until the client
                  gives up
  --missing       files under patches/ and bases/ answer 404
  --no-etag       no ETag (every file is then fetched whole, as from a server without validators)
  --delay MS      files under patches/ and bases/ get headers, then wait MS milliseconds before
                  the body (a slow server, for the race trials)
  --gzip          files under patches/ and bases/ are sent with Content-Encoding: gzip, a small
                  body that decodes to 64 MiB more than the file (a decompression bomb)
  --gzip-mib N    with --gzip: the bomb decodes to N MiB more than the file (1024: the issue's
                  1 GiB from about 1 MB on the wire)
Prints "port N" on its first line once listening on 127.0.0.1 (only loopback), then serves
until GET /__stop (or a signal). Each request is logged on stderr as "GET PATH RANGE STATUS",
followed by " client=NAME" when it carries an X-Calldir-Client header.
"""
import gzip
import hashlib
import os
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# A test runner's threads block signals, and a child inherits that mask: unblock the ones that
# stop a server. Tests stop it with GET /__stop instead (no signal needed).
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])

folder = sys.argv[1]
options = sys.argv[2:]
drop_after = int(options[options.index("--drop-after") + 1]) if "--drop-after" in options else None
delay = int(options[options.index("--delay") + 1]) / 1000 if "--delay" in options else None
die_after = int(options[options.index("--die-after") + 1]) if "--die-after" in options else None
bomb_mib = int(options[options.index("--gzip-mib") + 1]) if "--gzip-mib" in options else 64
dropped = set()
lock = threading.Lock()
bombs = {}


def bomb(body):
    """The file, then bomb_mib MiB of zeros, gzipped: made once per file (1 GiB takes seconds)."""
    with lock:
        if body not in bombs:
            compressor = gzip.compress
            bombs[body] = compressor(body + bytes(bomb_mib << 20), compresslevel=9)
        return bombs[body]
stall = threading.Event()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        # Headers and body go out in separate writes: without TCP_NODELAY, Nagle's algorithm
        # holds the body until the client's delayed ACK (40 ms on Linux), so every file took
        # 40 ms more than the bytes need, and a 12,000-patch update over HTTP took 650 s where
        # the folder took 54 s. Production servers (nginx, CDNs) set it.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def do_GET(self):
        path = self.path.split("?")[0].lstrip("/")
        if path == "__stop":
            self.answer(200, b"stopping\n")
            sys.stderr.flush()
            os._exit(0)
        real = os.path.realpath(os.path.join(folder, path))
        faulty = path.startswith("patches/") or path.startswith("bases/")
        if not real.startswith(os.path.realpath(folder) + os.sep) or not os.path.isfile(real) or (
            faulty and "--missing" in options
        ):
            return self.answer(404, b"not found\n")
        with open(real, "rb") as file:
            body = file.read()
        if faulty and "--corrupt" in options and body:
            body = body[:-1] + bytes([body[-1] ^ 0xFF])
        start = 0
        ranged = self.headers.get("Range")
        if ranged and ranged.startswith("bytes=") and ranged.endswith("-"):
            start = int(ranged[6:-1])
            if start >= len(body):
                return self.answer(416, b"")
        status = 206 if start else 200
        # Each file's version named as a static server names it (RFC 9110, 8.8.3): a client that
        # sends it back in If-None-Match is answered 304, without a body. --no-etag leaves it out.
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"' if "--no-etag" not in options else None
        if etag and self.headers.get("If-None-Match") == etag and not ranged:
            sys.stderr.write(f"GET {path} - 304\n")
            sys.stderr.flush()
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        encoding = None
        if faulty and "--gzip" in options:
            body, start, status, encoding = bomb(body), 0, 200, "gzip"
        if ranged and "--wrong-range" in options:
            start, status = 0, 206
        # A client that names itself (X-Calldir-Client: a session configuration's extra header)
        # is logged with it, so a test sees the configuration an app passed reach the server.
        client = self.headers.get("X-Calldir-Client")
        named = f" client={client}" if client else ""
        sys.stderr.write(f"GET {path} {ranged or '-'} {status}{named}\n")
        sys.stderr.flush()
        self.send_response(status)
        self.send_header("Content-Length", str(len(body) - start))
        if etag:
            self.send_header("ETag", etag)
        if encoding:
            self.send_header("Content-Encoding", encoding)
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        self.end_headers()
        if faulty and delay is not None:
            time.sleep(delay)
        if faulty and "--stall" in options:
            stall.wait()  # never set: the client's timeout ends it
            return
        if faulty and die_after is not None:
            self.wfile.write(body[start : start + die_after])
            self.wfile.flush()
            sys.stderr.flush()
            os._exit(0)
        if faulty and drop_after is not None:
            with lock:
                first = path not in dropped
                dropped.add(path)
            if first:
                self.wfile.write(body[start : start + drop_after])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(2)
                return
        self.wfile.write(body[start:])

    def answer(self, status, body):
        sys.stderr.write(f"GET {self.path} - {status}\n")
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(f"port {server.server_address[1]}", flush=True)
server.serve_forever()
