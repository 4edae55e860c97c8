#!/usr/bin/env python3
"""Writes the figures the README and the DocC articles quote from Results/, and checks that no
other measured figure is left in them undated, so a figure in the docs cannot go stale.

usage: Scripts/doc-figures.py [--check | --self-test]
  Rewrites every block between <!-- figures: NAME begin --> and <!-- figures: NAME end --> in
  README.md and the articles (Sources/*/*.docc/*.md) from the Results/ file NAME is made from
  (GENERATORS below: the reference bench, the sweep, the two-phase runs, the update bench, the
  compiler beside sort -u). DocC drops HTML comments, so the markers do not show.
  --check: change nothing; exit 1 when a block is not what Results/ gives, or when a measured
  figure (a decimal with a unit: "1.9 MiB", "7.9 s", "32.6 M", "0.93×", "+4.0%") stands outside
  a generated block, a code block of a program's source, and a section whose heading says it is
  a record (a dated account of what a change measured, which no later run reproduces).
  --self-test: plant a wrong figure in each generated block and an undated figure in an article,
  and check --check catches both (and passes the docs as they are).
Exit status: 0 written (or, with --check, the same); 1 a block differs, Results/ lacks a figure, or
an undated figure was found; 2 usage.
"""
import csv
import glob
import math
import os
import re
import statistics
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BLOCK = re.compile(r"<!-- figures: ([a-z0-9-]+) begin -->\n(.*?)<!-- figures: \1 end -->", re.S)
# A measured figure: a decimal number with a unit or a ratio sign.
FIGURE = re.compile(r"(?<![\w.])[+−-]?\d+\.\d+ ?(?:MiB|KiB|GiB|MB|GB|KB|ms|s|M/s|k/s|M|k|×|%)(?![\w/])")
# Blocks the code writes, checked by a test (their figures are the code's settings and reasons),
# and pages generated from the code.
CHECKED = re.compile(r"<!-- (gate-checks|csv-columns): (begin|end) -->")
# Settings the docs name with a decimal, each checked against the line of code that sets it.
SETTINGS = {
    "0.1%": ("Sources/BenchReporting/History/ChangePointDetector.swift", "countStepTolerance = 0.001"),
    "2.5×": ("Sources/BenchMeasuring/CompileBench.swift", "maximumCompileToSortRatio = 2.5"),
    # 100,000 labelled entries at the iPhone 13 profile's 39,916 a second.
    "2.5 s": ("Datasets/devices/iphone13.json", "39,916 identification entries/s"),
}
FROM_CODE = {"CommandLineReference.md"}  # HelpTextTests writes it from the parser's help
# Code blocks of a program's source or a command line: their numbers are arguments, not figures.
SOURCE_BLOCKS = {"swift", "sh", "bash", "shell", "json", "yaml", "proto", "python"}


def fail(message):
    sys.exit(f"doc-figures: {message}")


def rows_of(name, keep=lambda row: True):
    path = os.path.join(ROOT, "Results", name)
    if not os.path.exists(path):
        fail(f"Results/{name} is missing")
    with open(path, encoding="utf-8") as file:
        return [row for row in csv.DictReader(file) if keep(row)]


def rate(value, digits=1):
    for scale, suffix in ((1e6, " M"), (1e3, " k")):
        if value >= scale:
            return f"{value / scale:.{digits}f}{suffix}"
    return f"{value:.0f}"


def size(value):
    for scale, suffix in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if abs(value) >= scale:
            # Whole KiB from 100 up, as the bench's own tables print them.
            digits = 0 if suffix == "KiB" and abs(value) >= 100 * scale else 1
            return f"{value / scale:.{digits}f} {suffix}"
    return f"{value:.0f} B"


def median(values):
    values = [float(v) for v in values if v not in ("", None)]
    return statistics.median(values) if values else None


def column(rows, name):
    return [float(row[name]) for row in rows if row.get(name) not in ("", None)]


def ordered(values):
    return list(dict.fromkeys(values))


# --- the reference bench (Results/latest.csv) --------------------------------------------------

def bench_medians():
    rows = rows_of("latest.csv", lambda row: row["run"] == "load" and row["status"] == "ok")
    if not rows:
        fail("Results/latest.csv has no completed load")
    strategies = ordered(row["strategy"] for row in rows)
    figures = {}
    for strategy in strategies:
        mine = [row for row in rows if row["strategy"] == strategy]
        figures[strategy] = {name: median(row[name] for row in mine) for name in (
            "entries_per_s", "footprint_peak_bytes", "instructions_per_entry",
            "allocations_per_entry", "load_s", "startup_s", "startup_cpu_s",
            "rss_over_idle_bytes", "heap_peak_bytes")}
        figures[strategy]["runs"] = len(mine)
        figures[strategy]["min"] = min(column(mine, "entries_per_s"))
        figures[strategy]["max"] = max(column(mine, "entries_per_s"))
        figures[strategy]["footprint_max"] = max(column(mine, "footprint_peak_bytes"))
    return rows[0]["profile"], int(rows[0]["entries"]), strategies, figures


def count(value, digits):
    return "–" if value is None else f"{value:.{digits}f}"


def readme():
    profile, entries, strategies, figures = bench_medians()
    lines = [
        f"Measured by `calldir bench` on `{profile}` ({entries:,} entries, the compact base), "
        "medians of 5 runs, from `Results/latest.csv`:",
        "",
        "| strategy | entries/s | footprint peak | instructions per entry | allocations per entry |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for strategy in strategies:
        f = figures[strategy]
        lines.append(
            f"| {strategy} | {rate(f['entries_per_s'])} | {size(f['footprint_peak_bytes'])} "
            f"| {count(f['instructions_per_entry'], 1)} | {count(f['allocations_per_entry'], 3)} |")
    lines.append("")
    ours = [figures[s]["entries_per_s"] for s in strategies if not s.startswith("baseline")]
    articles = [figures[s]["entries_per_s"] for s in strategies if s.startswith("baseline")]
    if articles:
        lines += [
            f"calldir's slower strategy reads **{min(ours) / max(articles):.0f}×** as many "
            "entries a second as the fastest of the articles' readers, in the same run, within a "
            "5 MiB memory limit.", ""]
    compile_time, sort_time, rows_compiled, profile = compile_vs_sort_headline()
    lines.append(
        f"Compiling {rows_compiled / 1e6:.1f} M dump rows (`{profile}`) takes "
        f"{compile_time:.2f} s, **{compile_time / sort_time:.2f}×** the time of "
        f"`LC_ALL=C sort -u` of the same rows ({sort_time:.2f} s), from "
        "`Results/compile-vs-sort.csv`.")
    points = compile_scale_points()
    lines += ["", f"From {points[0]['rows'] / 1e6:,.1f} M to {points[-1]['rows'] / 1e6:,.0f} M rows the "
              f"compile's peak RSS grows as N^{signed(slope([(p['rows'], p['rss']) for p in points]))} "
              f"({size(points[-1]['rss'])} at the largest) and its time as "
              f"N^{slope([(p['rows'], p['compile']) for p in points]):.3f}, at "
              f"{', '.join(format(p['compile'] / p['sort'], '.2f') + '×' for p in points)} the time of "
              "`sort -u` (`Results/compile-scale.csv`, chart `Results/compile-scale.svg`)."]
    return lines


def reference_run():
    profile, entries, strategies, figures = bench_medians()
    lines = [
        "| strategy | runs | entries/s median (min–max) | load s | startup ms (CPU ms) "
        "| footprint median (max) | RSS over idle | heap peak | instructions per entry "
        "| allocations per entry |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for strategy in strategies:
        f = figures[strategy]
        lines.append(
            f"| {strategy} | {f['runs']} | {rate(f['entries_per_s'], 2)} ({rate(f['min'], 2)}–{rate(f['max'], 2)}) "
            f"| {f['load_s']:.3f} | {f['startup_s'] * 1000:.1f} ({f['startup_cpu_s'] * 1000:.1f}) "
            f"| {size(f['footprint_peak_bytes'])} ({size(f['footprint_max'])}) "
            f"| {size(f['rss_over_idle_bytes'])} | {size(f['heap_peak_bytes'])} "
            f"| {count(f['instructions_per_entry'], 1)} | {count(f['allocations_per_entry'], 3)} |")
    ours = [s for s in strategies if not s.startswith("baseline")]
    articles = [s for s in strategies if s.startswith("baseline")]
    lines += ["", "Throughput ratio, median entries/s of the same run, strategy ÷ article reader:", "",
              "| strategy | " + " | ".join(articles) + " |",
              "| --- |" + " ---: |" * len(articles)]
    for strategy in ours:
        lines.append(f"| {strategy} | " + " | ".join(
            f"{figures[strategy]['entries_per_s'] / figures[a]['entries_per_s']:.1f}×" for a in articles) + " |")
    return lines


# --- how cost grows with N (Results/sweep.csv) -------------------------------------------------

def slope(points):
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def sweep():
    rows = rows_of("sweep.csv", lambda row: row["run"] == "load" and row["status"] == "ok")
    strategies = ordered(row["strategy"] for row in rows)
    metrics = (("load time", "load_s"), ("footprint", "footprint_peak_bytes"),
               ("heap peak", "heap_peak_bytes"), ("instructions per entry", "instructions_per_entry"))
    lines = ["| strategy | " + " | ".join(f"{label} k" for label, _ in metrics) + " |",
             "| --- |" + " ---: |" * len(metrics)]
    by = {}
    for strategy in strategies:
        sizes = sorted({int(row["entries"]) for row in rows if row["strategy"] == strategy})
        by[strategy] = {name: [(n, median(row[name] for row in rows if row["strategy"] == strategy
                                          and int(row["entries"]) == n)) for n in sizes]
                        for _, name in metrics}
        lines.append(f"| {strategy} | " + " | ".join(
            f"{slope(by[strategy][name]):.3f}".replace("-", "−") for _, name in metrics) + " |")
    lines.append("")
    parts = []
    for strategy in strategies:
        footprints = [y for _, y in by[strategy]["footprint_peak_bytes"]]
        heaps = [y for _, y in by[strategy]["heap_peak_bytes"]]
        instructions = by[strategy]["instructions_per_entry"]
        parts.append(
            f"{strategy}: footprint {size(min(footprints))}–{size(max(footprints))}, heap peak "
            f"{size(min(heaps))}–{size(max(heaps))}, {instructions[0][1]:.0f} instructions per "
            f"entry at {instructions[0][0]:,} entries and {instructions[-1][1]:.0f} at "
            f"{instructions[-1][0]:,}")
    lines.append("Medians per size, smallest to largest: " + "; ".join(parts) + ".")
    return lines


def scaling():
    lines = ["| profile | entries | strategy | entries/s median | footprint peak median (max) "
             "| RSS over idle median (max) | heap peak |",
             "| --- | ---: | --- | ---: | ---: | ---: | ---: |"]
    for profile in ("ci-smoke", "regional-2m", "directory-4m"):
        rows = rows_of(f"scaling-{profile}.csv", lambda row: row["run"] == "load" and row["status"] == "ok")
        for strategy in ordered(row["strategy"] for row in rows):
            mine = [row for row in rows if row["strategy"] == strategy]
            lines.append(
                f"| {profile} | {int(mine[0]['entries']):,} | {strategy} "
                f"| {rate(median(r['entries_per_s'] for r in mine))} "
                f"| {size(median(r['footprint_peak_bytes'] for r in mine))} ({size(max(column(mine, 'footprint_peak_bytes')))}) "
                f"| {size(median(r['rss_over_idle_bytes'] for r in mine))} ({size(max(column(mine, 'rss_over_idle_bytes')))}) "
                f"| {size(median(r['heap_peak_bytes'] for r in mine))} |")
    return lines


# --- two-phase loading (Results/two-phase-*.csv) -----------------------------------------------

def two_phase_table(name):
    rows = rows_of(name, lambda row: row["run"] == "load")
    lines = ["| container | phase | runs ok | entries | wall s median (min–max) | entries/s "
             "| footprint median (max) | RSS over idle median |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for strategy in ordered(row["strategy"] for row in rows):
        for phase in ordered(row["phase"] for row in rows if row["strategy"] == strategy):
            mine = [row for row in rows if row["strategy"] == strategy and row["phase"] == phase]
            ok = [row for row in mine if row["status"] == "ok"]
            walls = column(ok, "wall_s")
            lines.append(
                f"| {strategy} | {phase} | {len(ok)}/{len(mine)} | {median(r['entries'] for r in ok):,.0f} "
                f"| {median(walls):.3f} ({min(walls):.3f}–{max(walls):.3f}) "
                f"| {rate(median(r['entries_per_s'] for r in ok))} "
                f"| {size(median(r['footprint_peak_bytes'] for r in ok))} ({size(max(column(ok, 'footprint_peak_bytes')))}) "
                f"| {size(median(r['rss_over_idle_bytes'] for r in ok))} |")
    return lines


def two_phase_sweep():
    return two_phase_table("two-phase-sweep.csv")


def two_phase_directory_4m():
    return two_phase_table("two-phase-directory-4m.csv")


def past_the_cap():
    lines = ["| run | installed | requests | time to all s median (min–max) "
             "| footprint max, install / update | iPhone 13: enabled / all |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for label, name in (("one extension, cap per request", "two-phase-past-the-cap.csv"),
                        ("one extension, cap per extension", "two-phase-per-extension.csv"),
                        ("three extensions, cap per extension", "two-phase-three-extensions.csv")):
        rows = rows_of(name, lambda row: row["run"] == "load" and row["status"] == "ok")
        install = [row for row in rows if row["phase"] != "incremental"]
        update = [row for row in rows if row["phase"] == "incremental"]
        installed = max(int(row["installed_entries"]) for row in install)
        requests = max(int(row["requests"]) for row in install if row["repeat"] == install[0]["repeat"])
        alls = column(install, "time_to_all_s")
        lines.append(
            f"| {label} | {installed:,} | {requests} "
            f"| {median(alls):.3f} ({min(alls):.3f}–{max(alls):.3f}) "
            f"| {size(max(column(install, 'footprint_peak_bytes')))} / {size(max(column(update, 'footprint_peak_bytes')))} "
            f"| {median(column(install, 'device_to_enabled_s')):.3f} s / {median(column(install, 'device_to_all_s')):.1f} s |")
    return lines


def fr_telemarketing():
    rows = rows_of("two-phase-fr-telemarketing.csv",
                   lambda row: row["run"] == "load" and row["status"] == "ok")
    install = [row for row in rows if row["phase"] != "incremental"]
    update = [row for row in rows if row["phase"] == "incremental"]
    chunks = [row for row in install if row["phase"] == "chunk"]
    installed = max(int(row["installed_entries"]) for row in install)
    requests = max(int(row["requests"]) for row in install if row["repeat"] == install[0]["repeat"])
    alls = column(install, "time_to_all_s")
    return ["| installed | requests | time to all s median (min–max) | chunk ingest median "
            "| footprint max, install / update | iPhone 13: enabled / all |",
            "| ---: | ---: | ---: | ---: | ---: | ---: |",
            f"| {installed:,} | {requests} | {median(alls):.3f} ({min(alls):.3f}–{max(alls):.3f}) "
            f"| {rate(median(r['host_ingest_per_s'] for r in chunks))} "
            f"| {size(max(column(install, 'footprint_peak_bytes')))} / {size(max(column(update, 'footprint_peak_bytes')))} "
            f"| {median(column(install, 'device_to_enabled_s')):.3f} s / {median(column(install, 'device_to_all_s')):.1f} s |"]


# --- updates (Results/update.csv) --------------------------------------------------------------

def update():
    rows = rows_of("update.csv")
    lines = ["| churn | method | download | vs full | vs zstd | vs lower bound "
             "| share of compressed container | apply (2 cores) | apply footprint |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    def share(value):
        return f"{float(value) * 100:.1f}%"
    def apply_time(row):
        return f"{float(row['apply_s']):.2f} s"
    for row in rows:
        applies = row["method"] not in ("full",)
        lines.append(
            f"| {share(row['churn']).replace('.0%', '%')} | {row['method']} | {size(int(row['download_bytes']))} "
            f"| {float(row['ratio_to_full']):.3f} | {float(row['ratio_to_zstd']):.3f} "
            f"| {float(row['ratio_to_lower_bound']):.2f} | {share(row['share_of_compressed_container'])} "
            f"| {apply_time(row) if applies else '—'} "
            f"| {size(int(row['apply_footprint_bytes'])) if applies else '—'} |")
    increments = ", ".join(
        f"{share(row['churn']).replace('.0%', '%')} {float(row['incremental_s']):.2f} s"
        for row in rows if row["method"] == "calldir")
    container = int(rows[0]["container_compressed_bytes"])
    lines += ["", f"The incremental request after the update (`incremental_s`): {increments} (it "
              "reads every selected base of both versions). \"full\" is the changed bases as "
              "published, uncompressed; the whole new container is "
              f"{container / 1e6:.2f} MB as one `zstd -19 --long=27` stream, the share column's base."]
    ours = [row for row in rows if row["method"] == "calldir"]
    if ours:
        middle = ours[len(ours) // 2]
        others = ", ".join(f"{float(row['ratio_to_lower_bound']):.2f}× at "
                           f"{share(row['churn']).replace('.0%', '%')}" for row in ours if row is not middle)
        lines += ["", f"At {share(middle['churn']).replace('.0%', '%')} churn calldir's patches are "
                  f"{share(middle['ratio_to_full'])} of the full bases, "
                  f"{share(middle['share_of_compressed_container'])} of the compressed container, "
                  f"{float(middle['ratio_to_zstd']):.3f}× `zstd --patch-from` on the same files and "
                  f"{float(middle['ratio_to_lower_bound']):.2f}× the lower bound below ({others}); "
                  f"applying them took {float(middle['apply_s']):.2f} s for the "
                  f"{middle['changed_bases']} bases, footprint {size(int(middle['apply_footprint_bytes']))}."]
    return lines


# --- the compiler beside sort -u (Results/compile-vs-sort.csv) ---------------------------------

def compile_vs_sort_headline():
    rows = rows_of("compile-vs-sort.csv")
    def wall(tool):
        times = [float(row["wall_s"]) for row in rows if row["tool"] == tool]
        if not times:
            fail(f"Results/compile-vs-sort.csv has no '{tool}' run")
        return statistics.median(times)
    return wall("compile"), wall("sort -u"), int(rows[0]["rows"]), rows[0]["profile"]


def compile_vs_sort():
    rows = rows_of("compile-vs-sort.csv")
    names = {"compile": "`calldir compile` (the cores online)", "compile -j1": "`calldir compile --threads 1`",
             "sort -u": "`LC_ALL=C sort -u -S 256MiB`", "normalize": "`calldir normalize`",
             "export lcidl": "`calldir export lcidl`"}
    lines = ["| tool | wall s | CPU s | peak RSS | rows/s |", "| --- | ---: | ---: | ---: | ---: |"]
    medians = {}
    for tool in ordered(row["tool"] for row in rows):
        mine = [row for row in rows if row["tool"] == tool]
        medians[tool] = median(r["wall_s"] for r in mine)
        lines.append(
            f"| {names.get(tool, tool)} | {medians[tool]:.2f} | {median(r['cpu_s'] for r in mine):.2f} "
            f"| {size(median(r['peak_rss_bytes'] for r in mine))} | {median(r['rows_per_s'] for r in mine):,.0f} |")
    lines += ["", f"Compile takes **{medians['compile'] / medians['sort -u']:.2f}×** sort here "
              f"({medians['compile']:.2f} s against {medians['sort -u']:.2f} s), and "
              f"{medians['compile -j1'] / medians['sort -u']:.2f}× on one thread."]
    return lines


# --- the compiler by size (Results/compile-scale.csv) -------------------------------------------

def signed(exponent):
    """An exponent to three places, without a "-0.000" for a flat line."""
    return f"{0.0 if abs(exponent) < 0.0005 else exponent:.3f}"


def compile_scale_points():
    """Each size's medians from Results/compile-scale.csv, smallest first."""
    rows = rows_of("compile-scale.csv")
    sizes = sorted({int(row["entries"]) for row in rows})
    if len(sizes) < 2:
        fail("Results/compile-scale.csv needs two sizes or more")
    points = []
    for entries in sizes:
        here = [row for row in rows if int(row["entries"]) == entries]
        def of(tool, name):
            value = median(row[name] for row in here if row["tool"] == tool)
            if value is None:
                fail(f"Results/compile-scale.csv has no '{tool}' run at {entries} entries")
            return value
        points.append({
            "rows": int(here[0]["rows"]), "compile": of("compile", "wall_s"),
            "sort": of("sort -u", "wall_s"), "cpu": of("compile", "cpu_s"),
            "rss": of("compile", "peak_rss_bytes"), "sort_rss": of("sort -u", "peak_rss_bytes"),
            "runs": of("compile", "sort_runs"), "passes": of("compile", "merge_passes"),
            "temporary": of("compile", "temporary_bytes"),
            "repeats": max(int(row["run"]) for row in here)})
    return points


def compile_scale():
    points = compile_scale_points()
    lines = ["| rows | compile | `sort -u` | ratio | compile peak RSS | `sort -u` peak RSS "
             "| sort runs | merge passes | temporary disk |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for p in points:
        lines.append(
            f"| {p['rows'] / 1e6:,.1f} M | {p['compile']:,.1f} s | {p['sort']:,.1f} s "
            f"| {p['compile'] / p['sort']:.2f}× | {size(p['rss'])} | {size(p['sort_rss'])} "
            f"| {p['runs']:.0f} | {p['passes']:.0f} | {size(p['temporary'])} |")
    def fitted(name):
        return slope([(p["rows"], p[name]) for p in points])
    repeats = max(p["repeats"] for p in points)
    lines += ["", f"Fitted over the {len(points)} sizes "
              f"({'medians of ' + str(repeats) if repeats > 1 else 'one run each'}): the compile's "
              f"wall time grows as **N^{fitted('compile'):.3f}**, its CPU time as "
              f"N^{fitted('cpu'):.3f}, its peak RSS as **N^{signed(fitted('rss'))}**; `sort -u`'s "
              f"time as N^{fitted('sort'):.3f}."]
    # 2.6 billion rows (Whoscall's database), from the largest size along the fitted slope.
    largest = points[-1]
    factor = 2.6e9 / largest["rows"]
    hours = largest["compile"] * factor ** fitted("compile") / 3600
    runs = largest["runs"] * factor
    # ExternalSorter.maximumFanIn, read from the code: every run at once up to it, in passes of
    # it past it.
    source = open(os.path.join(ROOT, "Sources/DirectoryCompiler/ExternalSorter+MergePasses.swift"), encoding="utf-8").read()
    found = re.search(r"static let maximumFanIn = ([\d_]+)", source)
    if not found:
        fail("ExternalSorter+MergePasses.swift no longer sets maximumFanIn")
    fan_in = int(found.group(1).replace("_", ""))
    groups = math.ceil(runs / fan_in)
    passes = 0 if runs <= fan_in else (1 if groups <= fan_in else 2)
    lines += ["", f"At 2.6 billion rows, {factor:.1f} times the largest size along the same slope, "
              f"one machine like this one would take about **{hours * 60:.0f} minutes** within the same peak "
              f"RSS, with about {size(largest['temporary'] * factor)} of temporary disk in about "
              f"{runs:,.0f} runs: "
              + ("one merge of them all." if passes == 0 else
                 f"{passes} merge pass{'es' if passes != 1 else ''} into {groups} longer runs, then the "
                 "final merge.")]
    return lines



# --- the user's edits (Results/user-edits.csv) -------------------------------------------------

def user_edits():
    rows = rows_of("user-edits.csv")
    if not rows:
        fail("Results/user-edits.csv has no rows")
    repeats = len(ordered(row["repeat"] for row in rows))
    lines = [f"Measured by `calldir bench user-edits` on 4 M directory numbers and France's 12 M "
             f"pattern numbers, installed whole, medians of {repeats} runs, from "
             "`Results/user-edits.csv` (projected: the extension's CPU here plus iPhone 13's "
             "ingest of the entries sent):", "",
             "| method | edit | requests | entries added | removed | extension CPU | footprint peak | projected on iPhone 13 |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for method, edit in ordered((row["method"], row["edit"]) for row in rows):
        mine = [row for row in rows if row["method"] == method and row["edit"] == edit]
        cpu = median(row["extension_cpu_s"] for row in mine)
        projected = median(row["projected_s"] for row in mine)
        lines.append(
            f"| {method} | {edit} | {median(row['requests'] for row in mine):.0f} "
            f"| {median(row['entries'] for row in mine):,.0f} | {median(row['removals'] for row in mine):,.0f} "
            f"| {cpu * 1000:.1f} ms | {size(median(row['footprint_peak_bytes'] for row in mine))} "
            f"| {projected:.3f} s |")
    return lines

GENERATORS = {
    "readme": readme, "reference-run": reference_run, "sweep": sweep, "scaling": scaling,
    "two-phase-sweep": two_phase_sweep, "two-phase-directory-4m": two_phase_directory_4m,
    "past-the-cap": past_the_cap, "fr-telemarketing": fr_telemarketing, "update": update, "compile-vs-sort": compile_vs_sort,
    "compile-scale": compile_scale, "user-edits": user_edits,
}


# --- the documents -----------------------------------------------------------------------------

def documents():
    return [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "CONTRIBUTING.md")] + sorted(
        glob.glob(os.path.join(ROOT, "Sources/*/*.docc/*.md")))


def rewritten(text, path):
    def block(match):
        name = match.group(1)
        if name not in GENERATORS:
            fail(f"{os.path.relpath(path, ROOT)}: no generator for figures '{name}'")
        body = "\n".join(GENERATORS[name]())
        return f"<!-- figures: {name} begin -->\n{body}\n<!-- figures: {name} end -->"
    return BLOCK.sub(block, text)


def undated(text, path):
    """Lines with a measured figure outside generated blocks, source code and record sections."""
    found = []
    if os.path.basename(path) in FROM_CODE:
        return found
    in_block = in_generated = in_record = in_checked = False
    fence_language = ""
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            in_block = not in_block
            fence_language = line[3:].strip()
            continue
        if re.match(r"<!-- figures: [a-z0-9-]+ begin -->", line):
            in_generated = True
        elif re.match(r"<!-- figures: [a-z0-9-]+ end -->", line):
            in_generated = False
        checked = CHECKED.match(line)
        if checked:
            in_checked = checked.group(2) == "begin"
        if not in_block and line.startswith("#"):
            in_record = "record" in line.lower()
        if in_generated or in_record or in_checked or (in_block and fence_language in SOURCE_BLOCKS):
            continue
        for figure in FIGURE.findall(line):
            if figure in SETTINGS:
                source, setting = SETTINGS[figure]
                if setting in open(os.path.join(ROOT, source), encoding="utf-8").read():
                    continue
                found.append(f"{os.path.relpath(path, ROOT)}:{number}: the setting {figure!r} is "
                             f"no longer '{setting}' in {source}")
                continue
            found.append(f"{os.path.relpath(path, ROOT)}:{number}: {figure!r} is neither "
                         "generated from Results/ nor in a record section")
            break
    return found


def check(texts):
    problems = []
    for path, text in texts.items():
        if rewritten(text, path) != text:
            problems.append(f"{os.path.relpath(path, ROOT)}: a generated figure differs from Results/ "
                            "(run Scripts/doc-figures.py)")
        problems += undated(text, path)
    return problems


def self_test(texts):
    if check(texts):
        print("doc-figures self-test: the docs already fail the check:", *check(texts), sep="\n",
              file=sys.stderr)
        return 1
    caught = 0
    for path, text in texts.items():
        for match in BLOCK.finditer(text):
            figure = re.search(r"\b\d+\.\d+\b", match.group(2))
            if not figure:
                continue
            planted = text.replace(match.group(0), match.group(0).replace(
                figure.group(0), "9" + figure.group(0), 1), 1)
            if not check({path: planted}):
                print(f"doc-figures self-test: a planted wrong figure in '{match.group(1)}' "
                      f"({figure.group(0)} → 9{figure.group(0)}) was not caught", file=sys.stderr)
                return 1
            caught += 1
    article = next(path for path in texts if path.endswith(".md") and ".docc" in path)
    planted = texts[article] + "\nA new paragraph measured 1.23 s, undated.\n"
    if not check({article: planted}):
        print("doc-figures self-test: a planted undated figure was not caught", file=sys.stderr)
        return 1
    print(f"doc-figures self-test: a planted wrong figure is caught in each of {caught} generated "
          "blocks, and a planted undated figure in an article")
    return 0


def main():
    arguments = sys.argv[1:]
    if arguments not in ([], ["--check"], ["--self-test"]):
        print(__doc__, file=sys.stderr)
        return 2
    texts = {path: open(path, encoding="utf-8").read() for path in documents()}
    if arguments == ["--self-test"]:
        return self_test(texts)
    if arguments == ["--check"]:
        problems = check(texts)
        for problem in problems:
            print(f"doc-figures: {problem}", file=sys.stderr)
        return 1 if problems else 0
    for path, text in texts.items():
        updated = rewritten(text, path)
        if updated != text:
            with open(path + ".tmp", "w", encoding="utf-8") as file:
                file.write(updated)
            os.replace(path + ".tmp", path)
    problems = [problem for path, text in texts.items() for problem in undated(rewritten(text, path), path)]
    for problem in problems:
        print(f"doc-figures: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
