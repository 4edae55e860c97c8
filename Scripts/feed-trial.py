#!/usr/bin/env python3
"""Issue 67, item 3: a community feed of ENTRIES numbers, then a delta of DELTA of them, read
by `calldir feed`, compiled, published twice, and the update's download against a full install.

usage: Scripts/feed-trial.py CALLDIR [--entries 1000000] [--delta 0.01] [--repeat 3]
CALLDIR is a release build of calldir. Prints one Markdown table: for the whole list and for
the delta, the median wall time and peak resident memory of `calldir feed` (GNU time), the
snapshot's numbers; then the patch set's bytes against the release's bases. Exit status 0.
"""
import argparse, json, os, random, shutil, statistics, subprocess, sys, tempfile

def run(*args, cwd):
    result = subprocess.run(
        ["/usr/bin/time", "-f", "%e %M", *args], cwd=cwd, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(args)}: exit {result.returncode}: {result.stderr[-400:]}")
    seconds, kib = result.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(kib) / 1024, result.stdout

def feed(entries, version):
    return json.dumps({"numbers": entries, "version": version}, separators=(",", ":"))

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("calldir")
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--delta", type=float, default=0.01)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    calldir = os.path.abspath(options.calldir)
    work = tempfile.mkdtemp(prefix="calldir-feed-trial-")
    rng = random.Random(67)
    ratings = ["B_MISSED", "C_PING", "D_POLL", "E_ADVERTISING", "F_GAMBLE", "G_FRAUD"]
    numbers = rng.sample(range(4_930_000_000, 4_989_999_999), options.entries)
    whole = [{"phone": f"+{n}", "rating": rng.choice(ratings), "votes": rng.randint(1, 40)}
             for n in numbers]
    open(os.path.join(work, "whole.json"), "w").write(feed(whole, 1000))
    changed = int(options.entries * options.delta)
    delta = []
    for index in rng.sample(range(options.entries), changed):
        # A third removed, a third re-rated, a third new numbers.
        kind = len(delta) % 3
        if kind == 0: delta.append({"phone": whole[index]["phone"], "votes": 0})
        elif kind == 1: delta.append({"phone": whole[index]["phone"], "rating": "G_FRAUD", "votes": 50})
        else: delta.append({"phone": f"+{rng.randrange(4_990_000_000, 4_999_999_999)}",
                            "rating": rng.choice(ratings), "votes": 3})
    open(os.path.join(work, "delta.json"), "w").write(feed(delta, 1001))
    rows = []
    for name, arguments in [("whole list", ["whole.json"]), ("delta", ["delta.json", "--delta"])]:
        times, peaks = [], []
        for _ in range(options.repeat):
            if name == "delta":
                shutil.copy(os.path.join(work, "after-whole.snapshot"), os.path.join(work, "s"))
            else:
                for stale in ("s",):
                    if os.path.exists(os.path.join(work, stale)): os.remove(os.path.join(work, stale))
            seconds, mib, out = run(calldir, "feed", *arguments, "--snapshot", "s", "--out",
                                    f"{name.split()[0]}.tsv", cwd=work)
            times.append(seconds); peaks.append(mib)
            if name == "whole list": shutil.copy(os.path.join(work, "s"), os.path.join(work, "after-whole.snapshot"))
        size = os.path.getsize(os.path.join(work, arguments[0]))
        rows.append((name, len(whole) if name == "whole list" else len(delta), size,
                     statistics.median(times), max(peaks), out.strip().splitlines()[-1]))
    for dump in ("whole.tsv", "delta.tsv"):
        run(calldir, "compile", dump, "--out", "box", "--allow-shrink", "--quiet", cwd=work)
        run(calldir, "publish", "box", "--out", "release", cwd=work)
    index = json.load(open(os.path.join(work, "release", "index.json")))
    def total(folder):
        path = os.path.join(work, "release", folder)
        return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path)) if os.path.isdir(path) else 0
    bases, patches = total("bases"), total("patches")
    print(f"{options.entries:,} numbers, {changed:,} changed, median of {options.repeat}:\n")
    print("| feed | entries | JSON bytes | calldir feed: median s | peak RSS MiB | result |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, count, size, seconds, mib, line in rows:
        print(f"| {name} | {count:,} | {size:,} | {seconds:.2f} | {mib:.1f} | {line} |")
    newest = [b for b in index.get("bases", [])]
    newest_bytes = sum(b.get("size", 0) for b in newest) or bases
    print(f"\npublish: patch set {patches:,} bytes against the full install's {newest_bytes:,} "
          f"({100 * patches / max(newest_bytes, 1):.2f}%)")
    shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
