#!/usr/bin/env python3
"""Issue 67, item 3, in one run: `calldir plan` over a NANPA file of NANPA_ROWS codes (made here
in allutlzd.txt's shape) and over Russia's register if one is given, each with a filter; then a
community feed of ENTRIES numbers and a delta of DELTA of them, read by `calldir feed`,
compiled, published twice, and the update's download against a full install.

usage: Scripts/plan-feed-trial.py CALLDIR [--nanpa-rows 1000000] [--russia DEF-9xx.csv]
                                  [--entries 1000000] [--delta 0.01] [--repeat 3]
CALLDIR is a release build of calldir. Prints Markdown tables: for each plan and for the whole
list and the delta, the median wall time and peak resident memory (GNU time) and the tool's own
summary; then the patch set's bytes against the release's bases. Exit status 0, or 1 with the
failing command.
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

# NANPA's states and territories, a code each row; New Jersey is the filter's.
STATES = ("AK AL AR AZ CA CO CT DC DE FL GA HI IA ID IL IN KS KY LA MA MD ME MI MN MO MS MT NC ND "
          "NE NH NJ NM NV NY OH OK OR PA PR RI SC SD TN TX UT VA VT WA WI WV WY").split()

def nanpa_file(path, rows, rng):
    """allutlzd.txt's shape: a header naming the columns, fields padded with spaces and
    separated by tabs, one NPA-NXX a row (NPA and NXX from 200, as the plan assigns them).
    There are 639,200 such codes: past them the rows name the codes again, as the issue's
    million rows ask (the reader's cost is per row, and it does not merge rows)."""
    with open(path, "w") as out:
        out.write("State \tNPA-NXX\tOCN \tCompany" + " " * 23 + "\tRateCenter  \tEffectiveDate\tUse\tAssignDate\n")
        codes = ((npa, nxx) for _ in range(rows) for npa in range(201, 1000) for nxx in range(200, 1000))
        for written, (npa, nxx) in enumerate(codes):
            if written == rows: return
            company = f"COMPANY {rng.randrange(400)}".ljust(30)
            center = f"CENTER{rng.randrange(300)}".ljust(12)
            date = f"{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/{rng.randint(1990, 2026)}"
            out.write(f"{rng.choice(STATES):<6}\t{npa}-{nxx}\t{rng.randrange(1000, 9999)}\t"
                      f"{company}\t{center}\t{date:<13}\tAS \t\n")

def plan_rows(calldir, work, options, rng):
    """Each plan read with a filter, median of the repeats: (name, rows, bytes, s, MiB, line)."""
    plans = [("NANPA (made here)", "allutlzd.txt", ["--format", "nanpa", "--region", ", NJ"])]
    nanpa_file(os.path.join(work, "allutlzd.txt"), options.nanpa_rows, rng)
    if options.russia:
        shutil.copy(options.russia, os.path.join(work, "russia.csv"))
        plans.append((f"Russia ({os.path.basename(options.russia)})", "russia.csv",
                      ["--format", "russia", "--region", "Краснодарский"]))
    rows = []
    for name, file, arguments in plans:
        times, peaks = [], []
        for _ in range(options.repeat):
            seconds, mib, out = run(calldir, "plan", file, *arguments, "--label", "{operator}",
                                    "--out", "plan.tsv", cwd=work)
            times.append(seconds); peaks.append(mib)
        lines = sum(1 for _ in open(os.path.join(work, file), "rb")) - 1
        rows.append((name, lines, os.path.getsize(os.path.join(work, file)),
                     statistics.median(times), max(peaks), out.strip().splitlines()[-1]))
    return rows

def feed(entries, version):
    return json.dumps({"numbers": entries, "version": version}, separators=(",", ":"))

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("calldir")
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--delta", type=float, default=0.01)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--nanpa-rows", type=int, default=1_000_000)
    parser.add_argument("--russia", help="a register file as the Ministry publishes it")
    options = parser.parse_args()
    calldir = os.path.abspath(options.calldir)
    work = tempfile.mkdtemp(prefix="calldir-plan-feed-trial-")
    rng = random.Random(67)
    plans = plan_rows(calldir, work, options, random.Random(68))
    ratings = ["B_MISSED", "C_PING", "D_POLL", "E_ADVERTISING", "F_GAMBLE", "G_FRAUD"]
    numbers = rng.sample(range(4_930_000_000, 4_989_999_999), options.entries)
    whole = [{"phone": f"+{n}", "rating": rng.choice(ratings), "votes": rng.randint(1, 40)}
             for n in numbers]
    open(os.path.join(work, "whole.json"), "w").write(feed(whole, 1000))
    changed = int(options.entries * options.delta)
    delta = []
    # New numbers drawn without repeats: a feed that lists a number twice is refused.
    fresh = iter(rng.sample(range(4_990_000_000, 4_999_999_999), changed))
    for index in rng.sample(range(options.entries), changed):
        # A third removed, a third re-rated, a third new numbers.
        kind = len(delta) % 3
        if kind == 0: delta.append({"phone": whole[index]["phone"], "votes": 0})
        elif kind == 1: delta.append({"phone": whole[index]["phone"], "rating": "G_FRAUD", "votes": 50})
        else: delta.append({"phone": f"+{next(fresh)}",
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
    print(f"Plans, each with a filter, median of {options.repeat}:\n")
    print("| plan | rows | bytes | calldir plan: median s | peak RSS MiB | result |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, count, size, seconds, mib, line in plans:
        print(f"| {name} | {count:,} | {size:,} | {seconds:.2f} | {mib:.1f} | {line} |")
    print(f"\nA feed of {options.entries:,} numbers, {changed:,} changed, median of {options.repeat}:\n")
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
