#!/usr/bin/env python3
"""`calldir app update` over HTTP against the same release from a folder, in one run (issue 52,
item 11): time and peak RSS, medians over REPEATS, folder and HTTP alternating; then a
decompression bomb (Content-Encoding: gzip, GZIP_MIB MiB decoded from about a megabyte): its
exit status and peak RSS.

usage: Scripts/update-over-http.py CALLDIR CONTAINER RELEASE [--repeats 3] [--gzip-mib 1024]
  CONTAINER  the app's container at the release's start (copied for every run, never changed)
  RELEASE    a release folder (Tests/Fixtures/PatchChainRelease: 71 region bases of 170 links is a 12,070-patch update)
Prints a Markdown table. Exit status 0 when every update from the release succeeded, the bomb
was refused, HTTP took at most 3x the folder's time and at most 64 MiB; else 1.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
server_script = os.path.join(here, "..", "Tests", "Fixtures", "release_server.py")


def measured(command):
    """Runs `command`; returns (exit status, wall seconds, peak RSS in MiB) from wait4."""
    started = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - started
    child.stderr.read()
    return os.waitstatus_to_exitcode(status), seconds, usage.ru_maxrss / 1024


def serve(folder, *options):
    server = subprocess.Popen([sys.executable, server_script, folder, *options],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = int(server.stdout.readline().split()[1])
    return server, f"http://127.0.0.1:{port}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("calldir"); parser.add_argument("container"); parser.add_argument("release")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--gzip-mib", type=int, default=1024)
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="calldir-over-http-")
    runs = {"folder": [], "HTTP": []}
    server, url = serve(options.release)
    ok = True
    try:
        for repeat in range(options.repeats):
            order = ["folder", "HTTP"] if repeat % 2 == 0 else ["HTTP", "folder"]
            for source in order:
                app = os.path.join(work, "app")
                shutil.rmtree(app, ignore_errors=True)
                shutil.copytree(options.container, app)
                where = options.release if source == "folder" else url
                status, seconds, rss = measured(
                    [options.calldir, "app", "update", "--from", where, "--container", app])
                print(f"{source} run {repeat + 1}: exit {status}, {seconds:.2f} s, {rss:.1f} MiB",
                      file=sys.stderr, flush=True)
                ok &= status == 0
                runs[source].append((seconds, rss))
    finally:
        server.kill()
    server, url = serve(options.release, "--gzip", "--gzip-mib", str(options.gzip_mib))
    try:
        app = os.path.join(work, "app")
        shutil.rmtree(app, ignore_errors=True)
        shutil.copytree(options.container, app)
        bomb_status, bomb_seconds, bomb_rss = measured(
            [options.calldir, "app", "update", "--from", url, "--container", app])
    finally:
        server.kill()
        shutil.rmtree(work, ignore_errors=True)
    median = {k: (statistics.median(s for s, _ in v), max(r for _, r in v)) for k, v in runs.items()}
    print(f"| source | median time | peak RSS (highest of {options.repeats}) |")
    print("| --- | ---: | ---: |")
    for source, (seconds, rss) in median.items():
        print(f"| {source} | {seconds:.2f} s | {rss:.1f} MiB |")
    ratio = median["HTTP"][0] / median["folder"][0]
    print(f"\nHTTP/folder time: {ratio:.2f}x (target at most 3x); HTTP peak RSS target at most 64 MiB.")
    print(f"\nDecompression bomb ({options.gzip_mib} MiB decoded): exit {bomb_status} "
          f"(refused: 1), {bomb_seconds:.2f} s, peak RSS {bomb_rss:.1f} MiB.")
    ok &= ratio <= 3 and median["HTTP"][1] <= 64 and bomb_status == 1 and bomb_rss <= 64
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
