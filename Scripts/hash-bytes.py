#!/usr/bin/env python3
"""The bytes the app reads from base files in an update plus a sync of directory-4m (issue 56,
item 2): version 1 published and fetched by `app update` into an empty container, every region
chosen, enabled and synced until nothing is pending; version 2 (1% churn) published; then
`app update` and `app sync` run under strace, and every read(2)/pread(2) of the app's own process
(every thread of it; not the extension's) summed by the file it read. Files read through mmap
(the patch's old base) do not show: the table counts what is read, hashed or copied through
read(2), which is every hash. The simulated system's store runs in the app's process and is
counted apart. Each CALLDIR runs the same steps on its own
copy; the table has one column per CALLDIR.

usage: Scripts/hash-bytes.py CALLDIR [CALLDIR ...] [--entries 4000000] [--work DIR]
Needs strace. Prints a Markdown table; exit 0 when every step of every run succeeded, else 1.
"""
import argparse, os, random, re, shutil, subprocess, sys, tempfile

CALL = re.compile(r"^(\d+) +(read|pread64|clone3?|vfork|fork|execve)\((.*)$")
RESUMED = re.compile(r"^(\d+) +<\.\.\. (\w+) resumed>(.*)$")
RESULT = re.compile(r"\) += (-?\d+)")
FILE = re.compile(r"^\d+<([^>]*)>")


def check(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {result.returncode}: {result.stderr.strip()}")
    return result


def traced(command, log):
    """Runs `command` under strace; returns the bytes its own process read (every thread of it,
    not the processes it spawns), by file kind."""
    result = subprocess.run(
        ["strace", "-f", "-qq", "-y", "-s", "0", "-e",
         "trace=read,pread64,clone,clone3,vfork,fork,execve", "-o", log] + command,
        capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {result.returncode}: {result.stderr.strip()[-400:]}")
    totals = {kind: 0 for kind in KINDS}
    process = {}  # thread ID -> the process (its first thread's ID)
    pending = {}  # thread ID -> (call, text so far) of an unfinished call
    with open(log) as lines:
        for line in lines:
            line = line.rstrip("\n")
            call = CALL.match(line)
            resumed = RESUMED.match(line)
            if call:
                tid, name, text = call.groups()
            elif resumed:
                tid, name, text = resumed.group(1), resumed.group(2), pending.pop(
                    resumed.group(1), ("", ""))[1] + resumed.group(3)
            else:
                continue
            process.setdefault(tid, tid)
            if text.endswith("<unfinished ...>"):
                pending[tid] = (name, text)
                continue
            outcome = RESULT.search(text)
            if not outcome:
                continue
            value = int(outcome.group(1))
            if name.startswith("clone") or name in ("vfork", "fork"):
                if value > 0:
                    # A thread joins its creator's process; anything else is a process of its own.
                    process[str(value)] = process[tid] if "CLONE_THREAD" in text else str(value)
                continue
            if name == "execve" or value <= 0 or process[tid] != first_process(process):
                continue
            file = FILE.match(text)
            path = file.group(1) if file else ""
            if "/bases/" in path or "/.staging-" in path:
                totals["installed and staged bases"] += value
            elif "/.downloads/" in path:
                totals["downloads"] += value
            elif "/CallDirectory.db" in path:
                totals["the simulated system's store"] += value
            else:
                totals["other"] += value
    return totals, result.stdout


KINDS = ["installed and staged bases", "downloads", "the simulated system's store", "other"]


def first_process(process):
    """The traced command's own process: the first thread strace saw."""
    return next(iter(process.values()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("calldirs", nargs="+")
    parser.add_argument("--entries", default="4000000")
    parser.add_argument("--work")
    options = parser.parse_args()
    work = options.work or tempfile.mkdtemp(prefix="calldir-hash-bytes-")
    os.makedirs(work, exist_ok=True)
    first = os.path.abspath(options.calldirs[0])
    dump1, dump2 = os.path.join(work, "v1.tsv"), os.path.join(work, "v2.tsv")
    if not os.path.exists(dump2):
        check([first, "generate", "--profile", "directory-4m", "--entries", options.entries,
               "--format", "tsv", "--out", dump1])
        # 1% churn: relabel every hundredth row.
        rng = random.Random(56)
        with open(dump1) as source, open(dump2, "w") as target:
            target.write(source.readline())
            for line in source:
                fields = line.rstrip("\n").split("\t")
                if len(fields) > 1 and rng.random() < 0.01:
                    fields[1] = fields[1] + " v2"
                target.write("\t".join(fields) + "\n")
    rows = {}
    ok = True
    for index, calldir in enumerate(options.calldirs):
        calldir = os.path.abspath(calldir)
        run_dir = os.path.join(work, f"run-{index}")
        shutil.rmtree(run_dir, ignore_errors=True)
        os.makedirs(run_dir)
        box, srv, release, host = (os.path.join(run_dir, name) for name in
                                   ("box", "srv", "release", "host"))
        compile_args = ["--country", "RU"]
        # The app's life: version 1 arrives by an update into an empty container, is chosen,
        # enabled and synced until nothing is pending; version 2 is published and fetched.
        check([calldir, "compile", dump1, "--out", srv] + compile_args)
        check([calldir, "publish", srv, "--out", release])
        check([calldir, "app", "update", "--from", release, "--container", box, "--quiet"])
        system = ["--container", box, "--host-dir", host]
        check([calldir, "app", "choose", "--all", "--container", box])
        check([calldir, "host", "enable", "com.example.box"] + system)
        for _ in range(20):
            if "nothing pending" in check([calldir, "app", "sync", "com.example.box"] + system).stdout:
                break
        check([calldir, "compile", dump2, "--out", srv] + compile_args)
        check([calldir, "publish", srv, "--out", release])
        update, _ = traced([calldir, "app", "update", "--from", release, "--container", box, "--quiet"],
                           os.path.join(run_dir, "update.strace"))
        sync, out = traced([calldir, "app", "sync", "com.example.box"] + system,
                           os.path.join(run_dir, "sync.strace"))
        ok &= "incrementally" in out
        rows[calldir] = (update, sync)
    mib = lambda n: f"{n / 1048576:.1f} MiB"
    print("| bytes the app's process read | " + " | ".join(options.calldirs) + " |")
    print("| --- |" + " ---: |" * len(options.calldirs))
    for phase, position in (("app update", 0), ("app sync", 1)):
        for kind in KINDS:
            print(f"| {phase}: {kind} | "
                  + " | ".join(mib(rows[os.path.abspath(c)][position][kind])
                               for c in options.calldirs) + " |")
    print("| update plus sync, all files | " + " | ".join(
        mib(sum(rows[os.path.abspath(c)][0].values()) + sum(rows[os.path.abspath(c)][1].values()))
        for c in options.calldirs) + " |")
    if not options.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
