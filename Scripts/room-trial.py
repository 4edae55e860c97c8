#!/usr/bin/env python3
"""The gate's time to the limit against the month a growing directory actually crossed it.

    Scripts/room-trial.py CALLDIR [--months 12] [--start 100000] [--growth 0.08] [--noise 0.03]
                          [--cross-at 15 | --limit-mib MIB] [--seed 1] [--keep DIR]

A scratch git repository holds a directory that grows month by month: `calldir generate` rows,
the start count compounding at --growth a month with --noise either way, compiled and committed
with the month's commit date. Every month's main run is `calldir gate --history H
--record-history`, as the example workflow runs it; the full install's budget is set, from month
0's figure and the plan's growth, where the directory crosses it near month --cross-at (the
bases grow slower than their rows: Elias–Fano's bits per number fall as numbers get denser), or
at --limit-mib. After
--months months of history the months go on, unrecorded predictions included, until the figure
crosses its budget. The table: each month's full install, the gate's "time to the limit" as a
month, and how far that month was from the month the limit was crossed.

Exits 0 with the table, 1 when a step fails.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

MONTH = 365.2425 / 12 * 86_400
ORIGIN = 1_767_225_600  # 2026-01-01, UTC


def run(arguments, **options):
    done = subprocess.run(arguments, capture_output=True, text=True, **options)
    if done.returncode not in (0, 2):  # 2: a budget missed, which the last months do
        sys.exit(f"room trial: {' '.join(arguments[:3])}…: exit {done.returncode}: {done.stderr.strip()}")
    return done


def months_from(text):
    """'in about 7 months' → 7.0; days and years as months."""
    match = re.search(r"in about (\d+) (days|months|years)", text)
    if not match:
        return 0.0 if "now, by the trend" in text else None
    value, unit = float(match.group(1)), match.group(2)
    return {"days": value * 86_400 / MONTH, "months": value, "years": value * 12}[unit]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("calldir")
    parser.add_argument("--months", type=int, default=12, help="months of history before the end")
    parser.add_argument("--start", type=int, default=100_000)
    parser.add_argument("--growth", type=float, default=0.08)
    parser.add_argument("--noise", type=float, default=0.03)
    parser.add_argument("--cross-at", type=float, default=15)
    parser.add_argument("--limit-mib", type=float,
                        help="the full install's budget outright, instead of from --cross-at")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", help="keep the scratch repository here")
    options = parser.parse_args()
    calldir = os.path.abspath(options.calldir)
    randomness = random.Random(options.seed)
    scratch = options.keep or tempfile.mkdtemp(prefix="room-trial-")
    repo = os.path.join(scratch, "repo")
    os.makedirs(repo, exist_ok=True)
    history = os.path.join(scratch, "gate-history.sqlite")
    git = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"]
    run(git + ["init", "-q", "-b", "main"])
    rows = []
    limit_mib = options.limit_mib
    month = 0
    while True:
        entries = int(options.start * (1 + options.growth) ** month
                      * (1 + randomness.uniform(-options.noise, options.noise)))
        run([calldir, "generate", "--profile", "ci-smoke", "--entries", str(entries), "--format",
             "tsv", "--out", os.path.join(repo, "dump.tsv"), "--seed", str(options.seed + month)])
        subprocess.run(["rm", "-rf", os.path.join(repo, "directory")], check=True)
        run([calldir, "compile", os.path.join(repo, "dump.tsv"), "--out", os.path.join(repo, "directory")])
        run(git + ["add", "-A"])
        date = f"@{int(ORIGIN + month * MONTH)} +0000"
        run(git + ["commit", "-qm", f"month {month}: {entries} rows"],
            env=dict(os.environ, GIT_COMMITTER_DATE=date, GIT_AUTHOR_DATE=date))
        if limit_mib is None:
            # Month 0's figure, grown as the plan grows, is where it crosses near --cross-at.
            sized = run([calldir, "gate", "--data", os.path.join(repo, "directory"), "--out",
                         os.path.join(scratch, "out"), "--quiet"], cwd=repo)
            figure = full_install(os.path.join(scratch, "out", "gate.md"))
            limit_mib = figure * (1 + options.growth) ** options.cross_at
        gated = run([calldir, "gate", "--data", os.path.join(repo, "directory"), "--out",
                     os.path.join(scratch, "out"), "--quiet", "--history", history,
                     "--record-history", "--set", f"budgets.full-install-mib={limit_mib:.3f}"],
                    cwd=repo)
        report = open(os.path.join(scratch, "out", "gate.md"), encoding="utf-8").read()
        row = next(line for line in report.split("\n") if line.startswith("| full install | "))
        figure = full_install(os.path.join(scratch, "out", "gate.md"))
        predicted = months_from(row)
        rows.append((month, entries, figure, predicted, "❌ over" in row))
        print(f"month {month}: {entries} rows, full install {figure:.2f} MiB of {limit_mib:.2f}, "
              f"time to the limit {predicted if predicted is not None else '–'}", file=sys.stderr)
        if "❌ over" in row or month >= options.months + 24:
            break
        month += 1
    crossed = next((m for m, _, _, _, over in rows if over), None)
    print(f"full install budget {limit_mib:.2f} MiB; crossed at month {crossed}; "
          f"the gate's line over the last 12 commits")
    print()
    print("| month | rows | full install MiB | time to the limit, months | predicted month | off by, months |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for month, entries, figure, predicted, _ in rows:
        when = "–" if predicted is None else f"{month + predicted:.1f}"
        off = "–" if predicted is None or crossed is None else f"{month + predicted - crossed:+.1f}"
        print(f"| {month} | {entries} | {figure:.2f} | {'–' if predicted is None else f'{predicted:.1f}'} | {when} | {off} |")
    return 0


def full_install(report_path):
    """The full install's MiB from the report's row."""
    text = open(report_path, encoding="utf-8").read()
    row = next(line for line in text.split("\n") if line.startswith("| full install | "))
    match = re.search(r"\| full install \| ([\d.]+) (KiB|MiB|GiB|B)", row)
    value, unit = float(match.group(1)), match.group(2)
    return value * {"B": 1 / 1_048_576, "KiB": 1 / 1024, "MiB": 1, "GiB": 1024}[unit]


if __name__ == "__main__":
    sys.exit(main())
