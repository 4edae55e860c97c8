#!/usr/bin/env python3
"""France's telemarketing plan run as a user runs it (issue 54): twelve pattern lines (12 M
numbers; --scale 10 makes 120 prefixes, 120 M), an explicit 100 k list overlapping them, two
exceptions; `calldir compile`, `host enable`, then `app sync` until nothing is pending; the
store read back with SQLite; then one prefix added and one removed, each by an incremental sync.

usage: Scripts/pattern-plan.py CALLDIR [--scale 1] [--chunk-entries N] [--work DIR] [--keep]
  --chunk-entries  app sync's chunk past the cap (default: app sync's own, 1,000,000; 1999999
                   installs N entries in ceil(N / 1,999,999) requests)
Prints a Markdown table: requests, entries per request, the extension's footprint peak, store
ingest, the rule base's bytes, the store checks, and the two incremental requests' times. Exit 0 when every check holds, else 1.
"""
import argparse, os, random, re, shutil, sqlite3, subprocess, sys, tempfile, time

TWELVE = ["1 62", "1 63", "2 70", "2 71", "3 77", "3 78", "4 24", "4 25", "5 68", "5 69",
          "9 48", "9 49"]


def prefixes(scale):
    if scale == 1:
        return TWELVE
    # Ten times the prefixes: geographic two-digit blocks of zones 1 to 5 (valid national
    # numbers of nine digits), the twelve first.
    extra = [f"{zone} {block}" for zone in "12345" for block in range(10, 100)]
    chosen = TWELVE + [p for p in extra if p not in TWELVE]
    return chosen[: 12 * scale]


def run(command, **kwargs):
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    return result, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("calldir")
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--work")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--chunk-entries", type=int)
    options = parser.parse_args()
    work = options.work or tempfile.mkdtemp(prefix="calldir-pattern-plan-")
    os.makedirs(work, exist_ok=True)
    calldir = os.path.abspath(options.calldir)
    chosen = prefixes(options.scale)
    plan = os.path.join(work, "plan.tsv")
    with open(plan, "w") as f:
        f.write("pattern\tcategory\n")
        for prefix in chosen:
            f.write(f"+33 {prefix} ## ## ##\ttelemarketing\n")
    digits = [("33" + p.replace(" ", "")) for p in chosen]
    allowed = [int(digits[0] + "123456"), int(digits[-1] + "000001")]
    with open(os.path.join(work, "allow.txt"), "w") as f:
        f.write("number\n" + "".join(f"+{n}\n" for n in allowed))
    rng = random.Random(5)
    inside, outside = set(), set()
    while len(inside) < 50_000:
        inside.add(int(rng.choice(digits) + "%06d" % rng.randrange(10**6)))
    while len(outside) < 50_000:
        outside.add(int("336%08d" % rng.randrange(10**8)))
    with open(os.path.join(work, "list.tsv"), "w") as f:
        f.write("number\tlabel\n")
        for n in sorted(inside | outside):
            f.write(f"+{n}\tDémarchage\n")
    box, host = os.path.join(work, "box"), os.path.join(work, "host")
    shutil.rmtree(box, ignore_errors=True)
    shutil.rmtree(host, ignore_errors=True)
    # Room for the prefix the last step adds.
    budget = str(max(100_000_000, 1_000_000 * (len(chosen) + 1)))
    base_args = ["--block", os.path.join(work, "list.tsv"), "--out", box, "--country", "FR",
                 "--allow", os.path.join(work, "allow.txt"), "--max-pattern-entries", budget,
                 "--allow-shrink"]
    compiled, compile_seconds = run([calldir, "compile", "--block-patterns", plan] + base_args)
    if compiled.returncode != 0:
        print(compiled.stderr, file=sys.stderr)
        return 1
    rule_bytes = sum(os.path.getsize(os.path.join(box, "bases", f))
                     for f in os.listdir(os.path.join(box, "bases")) if f.startswith("rules-"))
    bundle = "com.example.fr"
    chunk = ["--chunk-entries", str(options.chunk_entries)] if options.chunk_entries else []
    enabled, _ = run([calldir, "host", "enable", bundle, "--container", box, "--host-dir", host])
    lines, sync_seconds = [], 0.0
    for _ in range(200):
        synced, seconds = run(
            [calldir, "app", "sync", bundle, "--container", box, "--host-dir", host] + chunk)
        sync_seconds += seconds
        if synced.returncode != 0:
            print(synced.stderr, file=sys.stderr)
            return 1
        lines += [l for l in synced.stdout.splitlines() if l.startswith("sync ")]
        if "nothing pending" in synced.stdout:
            break
    requests = [(int(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4)))
                for m in (re.search(r": (\d+) entries .* in ([\d.]+) s \(store ingest (\d+) entries/s, "
                                    r"extension footprint peak ([\d.]+) MiB", l) for l in lines) if m]
    database = sqlite3.connect(os.path.join(host, "CallDirectory.db"))
    count = database.execute("SELECT count(*) FROM PhoneNumberBlockingEntry").fetchone()[0]
    expected = len(chosen) * 1_000_000 - 2 + len(outside)
    # A number's row id is the number (the simulated store's PhoneNumber(id, number) holds
    # id = number), so ranges are scans of the entry table's primary key.
    absent = database.execute(
        "SELECT count(*) FROM PhoneNumberBlockingEntry WHERE extension_id IN "
        f"(SELECT id FROM Extension) AND phone_number_id IN ({allowed[0]}, {allowed[1]})"
    ).fetchone()[0]
    whole = 0
    for prefix in digits:
        low, high = int(prefix + "000000"), int(prefix + "999999")
        # Keyed by the primary key's first column too, so each prefix is a range scan, not a
        # scan of the whole table (120 of them took most of an hour at 120 M).
        held = database.execute(
            "SELECT count(*) FROM PhoneNumberBlockingEntry WHERE extension_id IN "
            "(SELECT id FROM Extension) AND phone_number_id BETWEEN ? AND ?",
            (low, high)).fetchone()[0]
        whole += held == 1_000_000 - sum(low <= a <= high for a in allowed)
    database.close()
    # One prefix added (an unused zone-5 block), then one removed: each an incremental request.
    added_plan = os.path.join(work, "plan-added.tsv")
    shutil.copy(plan, added_plan)
    with open(added_plan, "a") as f:
        f.write("+33 5 99 ## ## ##\ttelemarketing\n")
    changes, change_timings = [], []
    for changed in [added_plan, plan]:
        recompiled, _ = run([calldir, "compile", "--block-patterns", changed] + base_args)
        if recompiled.returncode != 0:
            changes.append(f"compile exit {recompiled.returncode}: {recompiled.stderr.strip()}")
            change_timings.append("–")
            continue
        synced, _ = run([calldir, "app", "sync", bundle, "--container", box, "--host-dir", host])
        match = re.search(r"\((\d+) added, (\d+) removed\)", synced.stdout)
        changes.append(match.group(0) if match else f"exit {synced.returncode}: {synced.stdout[-200:]}")
        # The request's own time and the extension's footprint, from the sync's line.
        timing = re.search(r" in ([\d.]+) s .*extension footprint peak ([\d.]+) MiB", synced.stdout)
        change_timings.append(f"{timing.group(1)} s, {timing.group(2)} MiB" if timing else "–")
    ok = count == expected and absent == 0 and whole == len(digits) and enabled.returncode == 0
    ok &= changes == ["(1000000 added, 0 removed)", "(0 added, 1000000 removed)"]
    print(f"| French plan ×{options.scale} | value |")
    print("| --- | ---: |")
    print(f"| pattern lines | {len(chosen)} |")
    print(f"| rule base | {rule_bytes} bytes |")
    print(f"| compile | {compile_seconds:.2f} s |")
    print(f"| entries in the store (expected {expected}) | {count} |")
    print(f"| prefixes whole in the store | {whole} of {len(digits)} |")
    print(f"| exceptions in the store | {absent} |")
    chunk_text = options.chunk_entries or "app sync's default"
    print(f"| requests (the first complete, then incremental chunks of {chunk_text}) "
          f"| {len(requests)} |")
    if requests:
        print(f"| entries per request (largest) | {max(r[0] for r in requests)} |")
        print(f"| extension footprint peak (highest of the requests) | {max(r[3] for r in requests):.1f} MiB |")
        print(f"| extension footprint peak (lowest of the requests) | {min(r[3] for r in requests):.1f} MiB |")
        ingest = sorted(r[2] for r in requests)[len(requests) // 2]
        print(f"| store ingest (median of the requests) | {ingest:.0f} entries/s |")
    print(f"| app sync, all requests | {sync_seconds:.1f} s |")
    print(f"| one prefix added, then removed | {changes[0]}; {changes[1]} |")
    print(f"| those two requests (time, extension footprint peak) | "
          f"{'; '.join(change_timings)} |")
    if not options.keep and not options.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
