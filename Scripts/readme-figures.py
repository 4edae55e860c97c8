#!/usr/bin/env python3
"""Writes the README's headline figures from Results/, so a figure there cannot go stale.

usage: Scripts/readme-figures.py [--check | --self-test]
  Rewrites the table between <!-- figures: begin --> and <!-- figures: end --> in README.md from
  Results/latest.csv (the reference bench: each strategy's median throughput and footprint
  peak, its instructions and allocations per entry, the article readers beside it) and
  Results/compile-vs-sort.csv (the compiler's median wall time against `sort -u`'s, same run).
  --check: change nothing; exit 1 when the README's table is not what Results/ gives.
  --self-test: plant a wrong figure in a copy of the README's table and check --check's
  comparison catches it (and passes the README as it is).
Exit status: 0 written (or, with --check, the same); 1 it differs or Results/ lacks a figure.
"""
import csv
import os
import re
import statistics
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BEGIN, END = "<!-- figures: begin -->", "<!-- figures: end -->"


def rate(value):
    for scale, suffix in ((1e6, " M"), (1e3, " k")):
        if value >= scale:
            return f"{value / scale:.1f}{suffix}"
    return f"{value:.0f}"


def mebibytes(value):
    return f"{value / 1048576:.1f} MiB"


def table():
    with open(os.path.join(ROOT, "Results/latest.csv"), encoding="utf-8") as file:
        rows = [row for row in csv.DictReader(file) if row["run"] == "load" and row["status"] == "ok"]
    if not rows:
        sys.exit("readme-figures: Results/latest.csv has no completed load")
    profile, entries = rows[0]["profile"], int(rows[0]["entries"])
    strategies = list(dict.fromkeys(row["strategy"] for row in rows))
    median = {
        strategy: {
            column: statistics.median(float(row[column]) for row in rows if row["strategy"] == strategy and row[column])
            if any(row[column] for row in rows if row["strategy"] == strategy) else None
            for column in ("entries_per_s", "footprint_peak_bytes", "instructions_per_entry", "allocations_per_entry")
        }
        for strategy in strategies
    }
    slowest_ours = min(median[s]["entries_per_s"] for s in strategies if not s.startswith("baseline"))
    fastest_article = max((median[s]["entries_per_s"] for s in strategies if s.startswith("baseline")), default=None)
    lines = [
        f"Measured by `calldir bench` on `{profile}` ({entries:,} entries, the compact base), "
        "medians of 5 runs, from `Results/latest.csv`:",
        "",
        "| strategy | entries/s | footprint peak | instructions per entry | allocations per entry |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for strategy in strategies:
        figures = median[strategy]
        instructions = figures["instructions_per_entry"]
        allocations = figures["allocations_per_entry"]
        lines.append(
            f"| {strategy} | {rate(figures['entries_per_s'])} | {mebibytes(figures['footprint_peak_bytes'])} "
            f"| {f'{instructions:.1f}' if instructions is not None else '–'} "
            f"| {f'{allocations:.3f}' if allocations is not None else '–'} |")
    lines.append("")
    if fastest_article:
        lines.append(
            f"calldir's slower strategy reads **{slowest_ours / fastest_article:.0f}×** as many "
            "entries a second as the fastest of the articles' readers, in the same run, within a "
            "5 MiB memory limit.")
        lines.append("")
    with open(os.path.join(ROOT, "Results/compile-vs-sort.csv"), encoding="utf-8") as file:
        compile_rows = list(csv.DictReader(file))
    def wall(tool):
        times = [float(row["wall_s"]) for row in compile_rows if row["tool"] == tool]
        if not times:
            sys.exit(f"readme-figures: Results/compile-vs-sort.csv has no '{tool}' run")
        return statistics.median(times)
    compile_time, sort_time = wall("compile"), wall("sort -u")
    rows_compiled = int(compile_rows[0]["rows"])
    lines.append(
        f"Compiling {rows_compiled / 1e6:.1f} M dump rows (`{compile_rows[0]['profile']}`) takes "
        f"{compile_time:.2f} s, **{compile_time / sort_time:.2f}×** the time of "
        f"`LC_ALL=C sort -u` of the same rows ({sort_time:.2f} s), from "
        "`Results/compile-vs-sort.csv`.")
    return "\n".join(lines)


def rewritten(text):
    """The README's text with its figures written afresh from Results/."""
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{table()}\n{END}{tail}"


def self_test(text):
    if rewritten(text) != text:
        print("readme-figures self-test: the README's figures already differ from Results/",
              file=sys.stderr)
        return 1
    inside = text.split(BEGIN, 1)[1].split(END, 1)[0]
    figure = re.search(r"\b\d+\.\d+\b", inside).group(0)  # the first measured figure
    planted = text.replace(inside, inside.replace(figure, "9" + figure, 1), 1)
    if rewritten(planted) == planted:
        print(f"readme-figures self-test: a planted wrong figure ({figure} → 9{figure}) "
              "was not caught", file=sys.stderr)
        return 1
    print(f"readme-figures self-test: a planted wrong figure ({figure} → 9{figure}) is caught")
    return 0


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] == ["--self-test"]:
        return self_test(open(os.path.join(ROOT, "README.md"), encoding="utf-8").read())
    if sys.argv[1:] not in ([], ["--check"]):
        print(__doc__, file=sys.stderr)
        return 2
    path = os.path.join(ROOT, "README.md")
    text = open(path, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        print("readme-figures: README.md has no figures markers", file=sys.stderr)
        return 1
    updated = rewritten(text)
    if check:
        if updated != text:
            print("readme-figures: README.md's headline figures differ from Results/ "
                  "(run Scripts/readme-figures.py)", file=sys.stderr)
            return 1
        return 0
    with open(path + ".tmp", "w", encoding="utf-8") as file:
        file.write(updated)
    os.replace(path + ".tmp", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
