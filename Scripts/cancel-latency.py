#!/usr/bin/env python3
"""How fast a stage stops when the app's time runs out (issue 56, item 1): the time from
SIGINT to the process's end while `calldir app stage` copies, verifies and hashes a large base,
and whether the container is left as it was.

`app stage` cancels its task on SIGINT, as an app's expiring background task cancels its
update; the copy, the verification and the hash ask between chunks (64 KiB, or 65,536
entries). The signal is sent at several delays after the start, so that it lands in each
phase; each delay runs --repeats times.

usage: Scripts/cancel-latency.py CALLDIR [--entries N] [--repeats N] [--target-ms MS] [--work DIR]
  --entries    entries of the base staged (default 2,000,000 of directory-4m's, about 75 MB)
  --repeats    runs per delay (default 3)
  --target-ms  the bound each stop must meet (default 100)
Prints a Markdown table (delay, runs, median and largest time to stop, exit statuses, the
container unchanged). Exit status: 0 every stop within the bound and the container unchanged;
1 otherwise; 2 usage.
"""
import argparse
import hashlib
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time


def snapshot(folder):
    """Every file under `folder` (leftover scratch aside) with its SHA-256."""
    files = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as file:
                files[os.path.relpath(path, folder)] = hashlib.sha256(file.read()).hexdigest()
    return files


def main():
    parser = argparse.ArgumentParser(usage=__doc__.split("\n\n")[2].splitlines()[0])
    parser.add_argument("calldir")
    parser.add_argument("--entries", type=int, default=2_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--target-ms", type=float, default=100)
    parser.add_argument("--work")
    options = parser.parse_args()
    calldir = os.path.abspath(options.calldir)
    work = options.work or tempfile.mkdtemp(prefix="calldir-cancel-latency-")
    os.makedirs(work, exist_ok=True)
    big, small, box = (os.path.join(work, name) for name in ("big.cdb", "small.cdb", "box"))
    if not os.path.exists(big):
        subprocess.run([calldir, "generate", "--format", "base", "--profile", "directory-4m",
                        "--entries", str(options.entries), "--out", big], check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run([calldir, "generate", "--format", "base", "--profile", "ci-smoke",
                    "--entries", "1000", "--out", small], check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(box, ignore_errors=True)
    subprocess.run([calldir, "app", "stage", small, "--name", "small", "--role", "region",
                    "--region", "R1", "--priority", "10", "--container", box], check=True,
                   stdout=subprocess.DEVNULL)
    before = snapshot(box)
    # A whole stage, to place the delays across it.
    started = time.monotonic()
    whole = subprocess.run([calldir, "app", "stage", big, "--name", "big", "--role", "region",
                            "--region", "R2", "--priority", "10", "--container",
                            os.path.join(work, "whole")], stdout=subprocess.DEVNULL)
    whole_seconds = time.monotonic() - started
    if whole.returncode != 0:
        print("the whole stage failed", file=sys.stderr)
        return 1
    delays = [whole_seconds * share for share in (0.1, 0.3, 0.5, 0.7, 0.9)]
    print(f"base: {os.path.getsize(big):,} bytes, {options.entries:,} entries; a whole stage "
          f"took {whole_seconds:.2f} s")
    print()
    print("| signal after | runs | time to stop, median | largest | exit statuses | container |")
    print("| ---: | ---: | ---: | ---: | --- | --- |")
    ok = True
    for delay in delays:
        stops, statuses, unchanged = [], [], True
        for _ in range(options.repeats):
            process = subprocess.Popen(
                [calldir, "app", "stage", big, "--name", "big", "--role", "region", "--region",
                 "R2", "--priority", "10", "--container", box],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(delay)  # the harness's own clock: where in the stage the signal lands
            sent = time.monotonic()
            process.send_signal(signal.SIGINT)
            status = process.wait()
            stops.append((time.monotonic() - sent) * 1000)
            statuses.append(status)
            after = snapshot(box)
            if status == 0:
                # It finished before the signal: put the container back for the next run.
                shutil.rmtree(box)
                subprocess.run([calldir, "app", "stage", small, "--name", "small", "--role",
                                "region", "--region", "R1", "--priority", "10", "--container",
                                box], check=True, stdout=subprocess.DEVNULL)
                before = snapshot(box)
            elif after != before:
                unchanged = False
        stopped = [ms for ms, status in zip(stops, statuses) if status == 130]
        ok &= unchanged and all(ms <= options.target_ms for ms in stopped)
        ok &= all(status in (0, 130) for status in statuses)
        median = f"{statistics.median(stopped):.0f} ms" if stopped else "–"
        largest = f"{max(stopped):.0f} ms" if stopped else "–"
        print(f"| {delay:.2f} s | {options.repeats} | {median} | {largest} "
              f"| {', '.join(map(str, statuses))} | {'as it was' if unchanged else 'CHANGED'} |")
    if not options.work:
        shutil.rmtree(work, ignore_errors=True)
    print()
    print(f"every stop within {options.target_ms:.0f} ms and the container as it was: "
          f"{'yes' if ok else 'no'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
