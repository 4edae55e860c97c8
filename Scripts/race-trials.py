#!/usr/bin/env python3
"""Race trials for issue 52 (items 5-7): two writers of one container at random offsets,
against a release server that waits before each file, N times each; every container checked by
its bases' hashes against the sets the writers could leave one after the other.

  update vs compile   app update (v1 -> v2) while calldir compile writes another dump
  update vs update    app update from v2 and from a stale v1 copy at once (no rollback)
  stage vs compile    app stage of one base while calldir compile writes another dump

usage: Scripts/race-trials.py [--calldir .build/release/calldir] [--trials 50] [--max-delay 40]
Prints one line per kind: trials, mixed containers, rollbacks, failed runs; exit 1 on any mix
or rollback.
"""
import argparse, json, os, random, shutil, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
server_script = os.path.join(here, "..", "Tests", "Fixtures", "release_server.py")
parser = argparse.ArgumentParser()
parser.add_argument("--calldir", default=os.path.join(here, "..", ".build", "release", "calldir"))
parser.add_argument("--trials", type=int, default=50)
parser.add_argument("--seed", type=int, default=52)
parser.add_argument("--max-delay", type=int, default=40,
                    help="the most milliseconds the server waits before each file's body")
args = parser.parse_args()
calldir = os.path.abspath(args.calldir)
rng = random.Random(args.seed)


def run(*command, check=True):
    done = subprocess.run([calldir, *command], capture_output=True, text=True)
    if check and done.returncode != 0:
        sys.exit(f"{' '.join(command)}: {done.stderr.strip()}")
    return done


def bases(container):
    """The container's live bases: name -> SHA-256."""
    found = {}
    with open(os.path.join(container, "manifest.cdm"), encoding="utf-8") as manifest:
        for line in manifest:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "base" and fields[9] != "retired":
                found[fields[1]] = fields[8]
    return found


def start_server(folder, delay_ms):
    process = subprocess.Popen(
        [sys.executable, server_script, folder, "--delay", str(delay_ms)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = int(process.stdout.readline().split()[1])
    return process, f"http://127.0.0.1:{port}"


def stop_server(process):
    process.kill()
    process.wait()


work = tempfile.mkdtemp(prefix="calldir-race-")
try:
    dumps = {}
    for name, seed in [("d1", 1), ("d2", 2), ("d3", 3)]:
        dumps[name] = os.path.join(work, name + ".tsv")
        run("generate", "--profile", "directory-4m", "--entries", "20000", "--seed", str(seed),
            "--format", "tsv", "--out", dumps[name])
    box = os.path.join(work, "box")
    release = os.path.join(work, "R")
    run("compile", dumps["d1"], "--out", box)
    run("publish", box, "--out", release)
    app_v1 = os.path.join(work, "app-v1")
    shutil.copytree(box, app_v1)
    stale = os.path.join(work, "R1")
    shutil.copytree(release, stale)
    run("compile", dumps["d2"], "--out", box)
    run("publish", box, "--out", release)
    v1, v2 = bases(app_v1), bases(box)
    fresh = os.path.join(work, "fresh-d3")
    run("compile", dumps["d3"], "--out", fresh)
    compiled = bases(fresh)
    staged_name = next(iter(sorted(v2)))
    staged_file = os.path.join(box, "bases",
                               next(f for f in os.listdir(os.path.join(box, "bases"))
                                    if f.startswith(staged_name + ".") and v2[staged_name][:16] in f))

    def trial(kind, index):
        app = os.path.join(work, f"app-{kind}-{index}")
        shutil.copytree(app_v1, app)
        server, url = start_server(release, rng.randint(0, args.max_delay))
        stale_server, stale_url = start_server(stale, rng.randint(0, args.max_delay))
        offset = rng.uniform(0, 1.5)
        try:
            if kind == "update vs compile":
                first = subprocess.Popen([calldir, "app", "update", "--from", url, "--container", app],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                time.sleep(offset)
                second = subprocess.Popen([calldir, "compile", dumps["d3"], "--out", app],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                allowed = [v2, compiled]
            elif kind == "update vs update":
                first = subprocess.Popen([calldir, "app", "update", "--from", url, "--container", app],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                time.sleep(offset)
                second = subprocess.Popen(
                    [calldir, "app", "update", "--from", stale_url, "--container", app],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                allowed = [v2]
            else:
                first = subprocess.Popen([calldir, "compile", dumps["d3"], "--out", app],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                time.sleep(offset)
                second = subprocess.Popen(
                    [calldir, "app", "stage", staged_file, "--name", staged_name, "--role", "region",
                     "--region", "X", "--priority", "50", "--container", app],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                with_stage = dict(compiled)
                with_stage[staged_name] = v2[staged_name]
                allowed = [compiled, with_stage]
            statuses = [first.wait(), second.wait()]
        finally:
            stop_server(server)
            stop_server(stale_server)
        held = bases(app)
        mixed = held not in allowed
        rollback = kind == "update vs update" and held == v1
        # A refused downgrade (6) is the stale update's right answer; anything else non-zero fails.
        failed = [s for s in statuses if s not in (0, 6)]
        shutil.rmtree(app)
        return mixed, rollback, failed

    worst = 0
    for kind in ["update vs compile", "update vs update", "stage vs compile"]:
        mixed = rollbacks = failed = 0
        for index in range(args.trials):
            m, r, f = trial(kind, index)
            mixed += m
            rollbacks += r
            failed += bool(f)
        print(f"{kind}: {args.trials} trials, {mixed} mixed, {rollbacks} rollbacks, "
              f"{failed} with a failed writer", flush=True)
        worst = max(worst, mixed + rollbacks)
    sys.exit(1 if worst else 0)
finally:
    shutil.rmtree(work, ignore_errors=True)
