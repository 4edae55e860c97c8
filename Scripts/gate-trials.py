#!/usr/bin/env python3
"""The gate's false-alarm and catch table on a team's repository (issue 53, item 3).

A scratch git repository holds a team's directory: a generated dump (ROWS rows) and the
container compiled from it, committed on main. Every trial is a pull request branch: the dump
changed, recompiled, committed, then `calldir gate --data directory --against-rev main`, as the
Action runs it, while BUSY busy loops share the cores.

- No calldir change, data churn of 0.1%, 1%, 5% and 20% (new rows, relabels, removals and
  longer labels, a quarter each): RUNS runs in all; every exit but 0 is a false alarm.
- Planted regressions, each alone and again with a 5% churn:
  calldir: an -Osize build of the extension, CALLDIR_PLANTED_WORK=2 (two extra steps per
  entry, the head's build only), an assertions-on build (-assert-config Debug);
  data: a seed set pushed past its time budget (--seed-size 150000), labels past the label
  budget (240 bytes each), a patch set past the update budget (a directory of other numbers).
  Caught means exit 2 with the expected section failing.

usage: Scripts/gate-trials.py CALLDIR_DIR OSIZE_EXTENSION ASSERTS_EXTENSION [--runs 50]
       [--rows 200000] [--busy 6] [--plants SUBSTRING] [--write-settings]
With --write-settings, main also commits the .calldir-gate.yml that `calldir gate
--write-settings` writes from main's own data, and every pull request is judged by it (the
gate reads .calldir-gate.yml where it runs).
CALLDIR_DIR is a release build's folder (calldir and calldir-extension); the two extensions
are built with `swift build -c release --product calldir-extension --scratch-path DIR` and
`-Xswiftc -Osize`, or `-Xswiftc -assert-config -Xswiftc Debug`.
Prints the Markdown tables; exit status 0 when no false alarm and every plant caught, else 1.
"""
import argparse, os, random, shutil, subprocess, sys, tempfile, time

def sh(*args, cwd=None, env=None, check=True):
    return subprocess.run(args, cwd=cwd, env=env, check=check, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)

def git(repo, *args):
    return sh("git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args, cwd=repo)

def churn(lines, share, rng, longer=True):
    """A quarter of `share` each: new rows, relabels, removals, longer labels."""
    header, rows = lines[0], lines[1:]
    n = int(len(rows) * share / 4)
    picks = rng.sample(range(len(rows)), min(len(rows), 3 * n))
    relabel, remove, lengthen = picks[:n], set(picks[n:2 * n]), picks[2 * n:3 * n]
    rows = list(rows)
    for i in relabel:
        f = rows[i].split("\t"); f[1] = f"Relabelled {rng.randrange(10**6)}"; rows[i] = "\t".join(f)
    for i in lengthen:
        f = rows[i].split("\t"); f[1] = (f[1] + " — " + f[1])[:120]; rows[i] = "\t".join(f)
    added = []
    for _ in range(n):
        f = rows[rng.randrange(len(rows))].split("\t")
        f[0] = f[0][:-4] + f"{rng.randrange(10**4):04d}"; f[1] = f"New {rng.randrange(10**6)}"
        added.append("\t".join(f))
    kept = [r for i, r in enumerate(rows) if i not in remove]
    return [header] + kept + added

def long_labels(lines):
    out = [lines[0]]
    for i, r in enumerate(lines[1:]):
        f = r.split("\t"); f[1] = (f[1] + f" — подробное описание организации {i} " * 8)[:240]
        out.append("\t".join(f))
    return out

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("calldir_dir"); parser.add_argument("osize"); parser.add_argument("asserts")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--busy", type=int, default=6)
    parser.add_argument("--levels", default="0.001,0.01,0.05,0.2",
                        help="the churn levels the runs cycle through, comma-separated shares")
    parser.add_argument("--plants", default="",
                        help="run only the plants whose name contains this (with --runs 0: a rerun)")
    parser.add_argument("--write-settings", action="store_true",
                        help="main commits the budgets `calldir gate --write-settings` writes from its "
                             "own data (.calldir-gate.yml), and every pull request is judged by them")
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="calldir-gate-trials-")
    calldir = os.path.join(os.path.abspath(options.calldir_dir), "calldir")
    builds = {}
    def build_folder(name, extension, extra_byte=False):
        folder = os.path.join(work, "builds", name); os.makedirs(folder)
        shutil.copy(calldir, folder)
        shutil.copy(extension, os.path.join(folder, "calldir-extension"))
        if extra_byte:  # the same code with other bytes: the gate sees a calldir that changed
            with open(os.path.join(folder, "calldir-extension"), "ab") as f: f.write(b"\0")
        return folder
    same = os.path.join(os.path.abspath(options.calldir_dir), "calldir-extension")
    builds["base"] = build_folder("base", same)
    builds["base-other-bytes"] = build_folder("base-other-bytes", same, extra_byte=True)
    builds["osize"] = build_folder("osize", options.osize)
    builds["asserts"] = build_folder("asserts", options.asserts)
    builds["head"] = os.path.abspath(options.calldir_dir)

    repo = os.path.join(work, "repo"); os.makedirs(repo)
    git(repo, "init", "-q", "-b", "main")
    sh(calldir, "generate", "--format", "tsv", "--entries", str(options.rows), "--seed", "11",
       "--out", "dump.tsv", cwd=repo)
    sh(calldir, "compile", "dump.tsv", "--out", "directory", cwd=repo)
    git(repo, "add", "-A"); git(repo, "commit", "-qm", "the team's directory")
    if options.write_settings:
        # As a team starts: its budgets written from main's own figures, committed beside the data.
        sh(calldir, "gate", "--data", "directory", "--quiet", "--out", os.path.join(work, "out"),
           "--write-settings", ".calldir-gate.yml", cwd=repo)
        print(open(os.path.join(repo, ".calldir-gate.yml")).read(), file=sys.stderr)
        git(repo, "add", "-A"); git(repo, "commit", "-qm", "the gate's budgets, written from main")
    original = open(os.path.join(repo, "dump.tsv")).read().splitlines()
    sh(calldir, "generate", "--format", "tsv", "--entries", str(options.rows), "--seed", "12",
       "--out", os.path.join(work, "other.tsv"))
    other = open(os.path.join(work, "other.tsv")).read().splitlines()

    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(options.busy)]
    results = []
    try:
        def trial(name, lines, head="head", base=None, env_extra=None, compile_args=()):
            git(repo, "checkout", "-q", "-B", "pr", "main")
            with open(os.path.join(repo, "dump.tsv"), "w") as f: f.write("\n".join(lines) + "\n")
            shutil.rmtree(os.path.join(repo, "directory"))
            sh(calldir, "compile", "dump.tsv", "--out", "directory", *compile_args, cwd=repo)
            git(repo, "add", "-A"); git(repo, "commit", "-qm", name, "--allow-empty")
            command = [os.path.join(builds[head], "calldir"), "gate", "--data", "directory",
                       "--against-rev", "main", "--quiet", "--out", os.path.join(work, "out")]
            if base: command += ["--base-calldir", builds[base]]
            env = dict(os.environ, **(env_extra or {}))
            started = time.monotonic()
            run = sh(*command, cwd=repo, env=env, check=False)
            seconds = time.monotonic() - started
            report = open(os.path.join(work, "out", "gate.md")).read() if run.returncode in (0, 2) else ""
            failed = [line for line in run.stdout.splitlines() if line.startswith("gate failed:")]
            results.append((name, run.returncode, seconds, failed, report))
            print(f"{name}: exit {run.returncode} in {seconds:.1f} s" +
                  (f" ({failed[0][13:][:110]})" if failed else ""), file=sys.stderr, flush=True)
            return run.returncode, failed

        levels = [float(level) for level in options.levels.split(",")]
        alarms = {level: [0, 0, 0.0] for level in levels}
        seconds = []
        for i in range(options.runs):
            level = levels[i % len(levels)]
            status, _ = trial(f"churn {level:.1%} #{i}", churn(original, level, random.Random(i)))
            alarms[level][0] += 1
            if status != 0: alarms[level][1] += 1
            seconds.append(results[-1][2])
            # The update's download share, a count: the most any run of the level reached.
            for line in results[-1][4].splitlines():
                if line.startswith("| update download |") and "(" in line:
                    share = float(line.split("(")[1].split("%")[0])
                    alarms[level][2] = max(alarms[level][2], share)

        plants = [
            ("an -Osize build of the extension", "calldir", dict(head="osize", base="base")),
            ("CALLDIR_PLANTED_WORK=2 (the head's build)", "calldir",
             dict(base="base-other-bytes", env_extra={"CALLDIR_PLANTED_WORK": "2"})),
            ("assertions on (-assert-config Debug)", "calldir", dict(head="asserts", base="base")),
            ("a seed set past its time budget (--seed-size 150000)", "data",
             dict(compile_args=("--seed-size", "150000"))),
            ("labels past the label budget (240 bytes each)", "data", dict(transform=long_labels)),
            ("a patch set past the update budget (a directory of other numbers)", "data",
             dict(transform=lambda lines: other[:1] + other[1:len(lines)])),
        ]
        caught_rows = []
        for name, section, spec in plants:
            if options.plants not in name: continue
            spec = dict(spec)
            transform = spec.pop("transform", lambda lines: lines)
            row = [name]
            for with_churn in (False, True):
                lines = churn(original, 0.05, random.Random(99)) if with_churn else list(original)
                status, failed = trial(name + (" + 5% churn" if with_churn else ""),
                                       transform(lines), **spec)
                caught = status == 2 and any(f.startswith(f"gate failed: {section}:") for f in failed)
                row.append(("caught" if caught else f"MISSED (exit {status})") +
                           (f": {failed[0][13:][:90]}" if failed else ""))
            caught_rows.append(row)
    finally:
        for loop in loops: loop.kill()

    print(f"No calldir change, {options.rows} rows, {options.busy} busy loops on {os.cpu_count()} cores:\n")
    print("| data change | runs | false alarms | largest update download |\n| --- | ---: | ---: | ---: |")
    for level in levels:
        print(f"| {level:.1%} churn | {alarms[level][0]} | {alarms[level][1]} | {alarms[level][2]:.1f}% |")
    seconds.sort()
    if seconds:
        print(f"\nGate time per run under that load: median {seconds[len(seconds)//2]:.1f} s.\n")
    print("| planted | alone | with a 5% data change |\n| --- | --- | --- |")
    for row in caught_rows: print("| " + " | ".join(row) + " |")
    if not options.plants and not caught_rows: caught_rows = []
    ok = all(a[1] == 0 for a in alarms.values()) and all(
        r[1].startswith("caught") and r[2].startswith("caught") for r in caught_rows)
    shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main())
