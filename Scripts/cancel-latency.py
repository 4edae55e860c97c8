#!/usr/bin/env python3
"""How fast a stage or an update stops when the app's time runs out (issue 56, item 1): the
time from SIGINT to the process's end while `calldir app stage` copies, verifies and hashes a
large base, or while `calldir app update` patches one, and whether the container is left as it
was.

`app stage` and `app update` cancel their task on SIGINT, as an app's expiring background task
cancels its update; the copy, the verification and the hash ask between chunks (64 KiB, or
65,536 entries), a patch every 65,536 entries. The signal is sent at several delays after the
start, so that it lands in each phase; each delay runs --repeats times.

usage: Scripts/cancel-latency.py CALLDIR [--update] [--entries N] [--repeats N] [--target-ms MS] [--work DIR]
  --update     measure `app update` from a folder release: version 1 is one base of --entries
               entries (directory-4m's rows, one region), version 2 relabels 1% of them, so the
               update fetches a patch, applies it to the 75 MB base, verifies and stages the result
  --entries    entries of the base (default 2,000,000 of directory-4m's, about 75 MB)
  --repeats    runs per delay (default 3)
  --target-ms  the bound each stop must meet (default 100)
Prints a Markdown table (delay, runs, median and largest time to stop, exit statuses, the
container unchanged). Exit status: 0 every stop within the bound and the container unchanged;
1 otherwise; 2 usage.
"""
import argparse
import hashlib
import os
import random
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


def interrupt(command, delay):
    """Runs `command`, sends it SIGINT `delay` seconds later (the harness's own clock: where in
    the run the signal lands), and returns the milliseconds it took to end, and its status."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    status = process.wait()
    return (time.monotonic() - sent) * 1000, status


def report_row(delay, options, stops, statuses, unchanged):
    """Prints one delay's row of the table; true when its every stop met the bound, exited 0
    (finished first) or 130, and left the container as it was."""
    stopped = [ms for ms, status in zip(stops, statuses) if status == 130]
    median = f"{statistics.median(stopped):.0f} ms" if stopped else "–"
    largest = f"{max(stopped):.0f} ms" if stopped else "–"
    print(f"| {delay:.2f} s | {options.repeats} | {median} | {largest} "
          f"| {', '.join(map(str, statuses))} | {'as it was' if unchanged else 'CHANGED'} |")
    return (unchanged and all(ms <= options.target_ms for ms in stopped)
            and all(status in (0, 130) for status in statuses))


def report_end(ok, options):
    print()
    print(f"every stop within {options.target_ms:.0f} ms and the container as it was: "
          f"{'yes' if ok else 'no'}")


def quiet(command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def update_release(calldir, work, entries):
    """A folder release of two versions of one base (the second relabels 1% of the rows), and
    a container at version 1; returns (release, container)."""
    release, first = os.path.join(work, "release"), os.path.join(work, "at-v1")
    if os.path.exists(os.path.join(first, "manifest.cdm")):
        return release, first
    raw, v1, v2 = (os.path.join(work, name) for name in ("raw.tsv", "v1.tsv", "v2.tsv"))
    quiet([calldir, "generate", "--profile", "directory-4m", "--entries", str(entries),
           "--format", "tsv", "--out", raw])
    rng = random.Random(56)
    with open(raw) as source, open(v1, "w") as one, open(v2, "w") as two:
        header = source.readline()
        one.write(header)
        two.write(header)
        for line in source:
            fields = line.rstrip("\n").split("\t")
            fields[2] = "ALL"  # one region: one base of every entry
            one.write("\t".join(fields) + "\n")
            if rng.random() < 0.01:
                fields[1] += " v2"
            two.write("\t".join(fields) + "\n")
    compiled = os.path.join(work, "compiled")
    for dump in (v1, v2):
        quiet([calldir, "compile", dump, "--out", compiled, "--country", "RU"])
        quiet([calldir, "publish", compiled, "--out", release])
        if dump == v1:
            quiet([calldir, "app", "update", "--from", release, "--container", first, "--quiet"])
    return release, first


def without_downloads(files):
    """A snapshot without the parts an interrupted update keeps for the next one."""
    return {name: digest for name, digest in files.items() if not name.startswith(".downloads")}


def measure_update(calldir, work, options):
    release, first = update_release(calldir, work, options.entries)
    before = without_downloads(snapshot(first))
    box = os.path.join(work, "box")

    def fresh():
        shutil.rmtree(box, ignore_errors=True)
        shutil.copytree(first, box)

    command = [calldir, "app", "update", "--from", release, "--container", box, "--quiet"]
    fresh()
    started = time.monotonic()
    whole = subprocess.run(command, stdout=subprocess.DEVNULL)
    whole_seconds = time.monotonic() - started
    if whole.returncode != 0:
        print("the whole update failed", file=sys.stderr)
        return False
    patch = max((os.path.join(root, name) for root, _, names in
                 os.walk(os.path.join(release, "patches")) for name in names),
                key=os.path.getsize)
    base = max((os.path.join(root, name) for root, _, names in
                os.walk(os.path.join(first, "bases")) for name in names), key=os.path.getsize)
    print(f"update of one {os.path.getsize(base):,}-byte base ({options.entries:,} entries) by a "
          f"{os.path.getsize(patch):,}-byte patch; a whole update took {whole_seconds:.2f} s")
    print()
    print("| signal after | runs | time to stop, median | largest | exit statuses | container |")
    print("| ---: | ---: | ---: | ---: | --- | --- |")
    ok = True
    for delay in [whole_seconds * share for share in (0.1, 0.3, 0.5, 0.7, 0.9)]:
        stops, statuses, unchanged = [], [], True
        for _ in range(options.repeats):
            fresh()
            milliseconds, status = interrupt(command, delay)
            stops.append(milliseconds)
            statuses.append(status)
            if status == 130 and without_downloads(snapshot(box)) != before:
                unchanged = False
        ok &= report_row(delay, options, stops, statuses, unchanged)
    report_end(ok, options)
    return ok


def main():
    parser = argparse.ArgumentParser(usage=__doc__.split("\n\n")[2].splitlines()[0])
    parser.add_argument("calldir")
    parser.add_argument("--entries", type=int, default=2_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--target-ms", type=float, default=100)
    parser.add_argument("--work")
    parser.add_argument("--update", action="store_true")
    options = parser.parse_args()
    calldir = os.path.abspath(options.calldir)
    work = options.work or tempfile.mkdtemp(prefix="calldir-cancel-latency-")
    os.makedirs(work, exist_ok=True)
    if options.update:
        ok = measure_update(calldir, work, options)
        if not options.work:
            shutil.rmtree(work, ignore_errors=True)
        return 0 if ok else 1
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
            milliseconds, status = interrupt(
                [calldir, "app", "stage", big, "--name", "big", "--role", "region", "--region",
                 "R2", "--priority", "10", "--container", box], delay)
            stops.append(milliseconds)
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
        ok &= report_row(delay, options, stops, statuses, unchanged)
    if not options.work:
        shutil.rmtree(work, ignore_errors=True)
    report_end(ok, options)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
