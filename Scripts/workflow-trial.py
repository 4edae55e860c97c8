#!/usr/bin/env python3
"""The gate's example workflows, their steps run as scripts: the comment workflow against
workflow_run events, and the gate workflow's history steps against a local origin.

    Scripts/workflow-trial.py [--workflow Examples/GateWorkflow/calldir-gate-comment.yml]
                              [--gate-workflow Examples/GateWorkflow/calldir-gate.yml]

`act` needs Docker images from the network, which CI does not reach, so this runs the
workflow's own text instead: the job's `if:` evaluated on each event, and the comment step's
`run:` under `bash --noprofile --norc -eo pipefail` (what `shell: bash` runs on GitHub's
runners) with its `env:` resolved from the event. The events have the shape GitHub sends
(octokit/webhooks records one: payload-examples/api.github.com/workflow_run/completed.payload.json),
with the head moved to a fork. GitHub's REST API cannot run here, so `gh` is a stand-in that
keeps the pull requests and comments in a JSON file and answers the four calls the step makes
(list pull requests by head, list a pull request's comments, post one, edit one) with gh's
own argument rules (`-X GET` turns fields into the query) and `jq` for `--jq`, as gh does.

The gate workflow's "Restore the gate's history" and "Keep the history" steps run in clones
of a bare repository standing for GitHub's: the first main run starts the branch
calldir-gate-history, the next restores the file and adds a commit, and main is never touched.

Exits 0 when every case holds; otherwise prints the case that failed and exits 1.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPOSITORY = "team/directory"
BOT = "github-actions[bot]"
MARKER = "<!-- calldir gate report -->"
GITHUB_COMMENT_LIMIT = 65536  # characters GitHub accepts in one comment body


def gh_stand_in(state_path, arguments):
    """The `gh api` calls the step makes, on the state file; prints what gh would print."""
    state = json.load(open(state_path))
    state["calls"].append(arguments)
    if not arguments or arguments[0] != "api":
        return fail_call(state, state_path, f"gh {' '.join(arguments)}: only `gh api` is known")
    method, fields, jq, endpoint = None, {}, None, None
    rest = iter(arguments[1:])
    for argument in rest:
        if argument == "-X":
            method = next(rest)
        elif argument in ("-f", "-F"):
            key, _, value = next(rest).partition("=")
            if argument == "-F" and value.startswith("@"):
                value = open(value[1:], encoding="utf-8").read()
            fields[key] = value
        elif argument == "--paginate":
            pass  # one page holds every comment here
        elif argument == "--jq":
            jq = next(rest)
        elif argument.startswith("-"):
            return fail_call(state, state_path, f"gh api: unknown flag {argument}")
        else:
            endpoint = argument
    method = method or ("POST" if fields else "GET")
    if not endpoint.startswith(f"repos/{REPOSITORY}/"):
        return fail_call(state, state_path, f"gh: Not Found (HTTP 404): {endpoint}")
    path = endpoint[len(f"repos/{REPOSITORY}/"):]
    if method == "GET" and path == "pulls":
        answer = [p for p in state["pulls"]
                  if p["state"] == fields.get("state", "open")
                  and ("head" not in fields or p["head"]["label"] == fields["head"])]
    elif method == "GET" and re.fullmatch(r"issues/\d+/comments", path):
        answer = state["comments"].get(path.split("/")[1], [])
    elif method == "POST" and re.fullmatch(r"issues/\d+/comments", path):
        comment = {"id": state["next_id"], "user": {"login": BOT}, "body": fields["body"]}
        state["next_id"] += 1
        state["comments"].setdefault(path.split("/")[1], []).append(comment)
        answer = comment
    elif method == "PATCH" and re.fullmatch(r"issues/comments/\d+", path):
        wanted = int(path.split("/")[2])
        found = [c for cs in state["comments"].values() for c in cs if c["id"] == wanted]
        if not found:
            return fail_call(state, state_path, f"gh: Not Found (HTTP 404): {endpoint}")
        found[0]["body"] = fields["body"]
        answer = found[0]
    else:
        return fail_call(state, state_path, f"gh: no such call in the trial: {method} {endpoint}")
    json.dump(state, open(state_path, "w"))
    text = json.dumps(answer)
    if jq is not None:
        text = subprocess.run(["jq", "-r", jq], input=text, capture_output=True, text=True,
                              check=True).stdout
    sys.stdout.write(text)
    return 0


def fail_call(state, state_path, message):
    json.dump(state, open(state_path, "w"))
    print(message, file=sys.stderr)
    return 1


def context_value(expression, event, temp):
    """A `${{ }}` expression that is a plain context path, from the event; anything else fails."""
    expression = expression.strip()
    fixed = {"github.token": "trial-token", "github.repository": REPOSITORY, "runner.temp": temp}
    if expression in fixed:
        return fixed[expression]
    if not expression.startswith("github.event."):
        raise SystemExit(f"comment trial: cannot resolve the expression {expression!r}")
    value = event
    for key in expression[len("github.event."):].split("."):
        value = value[key]
    return value


def resolve(text, event, temp):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(context_value(m.group(1), event, temp)), text)


def condition_holds(condition, event):
    """The job's `if:`: comparisons of a context path with a quoted string, joined by &&."""
    for term in condition.split("&&"):
        match = re.fullmatch(r"\s*([\w.]+)\s*(==|!=)\s*'([^']*)'\s*", term)
        if not match:
            raise SystemExit(f"comment trial: cannot read the condition term {term.strip()!r}")
        value = context_value(match.group(1), event, "")
        if (value == match.group(3)) != (match.group(2) == "=="):
            return False
    return True


def make_event(head_sha, branch, *, event="pull_request", conclusion="failure"):
    return {"action": "completed", "repository": {"full_name": REPOSITORY},
            "workflow_run": {
                "id": 289782451, "event": event, "conclusion": conclusion,
                "head_branch": branch, "head_sha": head_sha,
                "head_repository": {"full_name": "contributor/directory",
                                    "owner": {"login": "contributor"}, "fork": True},
                "html_url": f"https://github.com/{REPOSITORY}/actions/runs/289782451",
                "pull_requests": []}}  # empty from a fork: GitHub fills it for its own branches


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workflow", default=os.path.join(
        ROOT, "Examples/GateWorkflow/calldir-gate-comment.yml"))
    parser.add_argument("--gate-workflow", default=os.path.join(
        ROOT, "Examples/GateWorkflow/calldir-gate.yml"))
    parser.add_argument("--gh-stand-in", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.gh_stand_in is not None:
        return gh_stand_in(options.gh_stand_in[0], options.gh_stand_in[1:])

    workflow = yaml.safe_load(open(options.workflow))
    job = workflow["jobs"]["comment"]
    step = next(s for s in job["steps"] if s.get("name") == "Post or update the comment")
    failures = []

    def check(case, holds, detail=""):
        print(f"{'ok' if holds else 'FAILED'}: {case}" + (f" ({detail})" if detail and not holds else ""))
        if not holds:
            failures.append(case)

    on = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1 reads `on` as true
    check("it runs when the gate's workflow completes",
          on["workflow_run"]["types"] == ["completed"] and on["workflow_run"]["workflows"] == ["calldir gate"])
    check("the workflow's token can do nothing; the job's can read artifacts and write to pull requests",
          workflow["permissions"] == {} and job["permissions"] == {"actions": "read", "pull-requests": "write"})
    check("nothing checks out the pull request's code",
          not any("checkout" in s.get("uses", "") for s in job["steps"]))
    sha = "3484a3fb816e0859fd6e1cea078d76385ff50625"
    check("it comments on a pull request's failed gate", condition_holds(job["if"], make_event(sha, "b")))
    check("...and on a passed one", condition_holds(job["if"], make_event(sha, "b", conclusion="success")))
    check("it skips a push's gate", not condition_holds(job["if"], make_event(sha, "b", event="push")))
    check("it skips a cancelled gate",
          not condition_holds(job["if"], make_event(sha, "b", conclusion="cancelled")))

    with tempfile.TemporaryDirectory() as temp:
        bin_folder = os.path.join(temp, "bin")
        os.mkdir(bin_folder)
        state_path = os.path.join(temp, "github.json")
        with open(os.path.join(bin_folder, "gh"), "w") as gh:
            gh.write(f"#!/bin/sh\nexec {sys.executable} {os.path.abspath(__file__)} "
                     f"--gh-stand-in {state_path} \"$@\"\n")
        os.chmod(os.path.join(bin_folder, "gh"), 0o755)
        report_folder = os.path.join(temp, "calldir-gate")
        # A branch name a fork chose: run as code, it would make this file.
        planted = os.path.join(temp, "pwned")
        branch = f"data-$(touch {planted})"
        pulls = [{"number": 7, "state": "open",
                  "head": {"sha": sha, "ref": branch, "label": f"contributor:{branch}"}},
                 {"number": 8, "state": "open",  # another fork's branch of the same name
                  "head": {"sha": "1" * 40, "ref": branch, "label": f"other:{branch}"}}]
        someone = {"id": 1, "user": {"login": "reviewer"}, "body": MARKER + "\nquoted by hand"}
        json.dump({"pulls": pulls, "comments": {"7": [someone]}, "next_id": 100, "calls": []},
                  open(state_path, "w"))

        def run(event, report):
            if report is None:
                subprocess.run(["rm", "-rf", report_folder], check=True)
            else:
                os.makedirs(report_folder, exist_ok=True)
                open(os.path.join(report_folder, "gate.md"), "w").write(report)
            environment = {k: resolve(str(v), event, temp) for k, v in step["env"].items()}
            environment["PATH"] = bin_folder + os.pathsep + os.environ["PATH"]
            return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                                  env=environment, capture_output=True, text=True)

        def comments():
            return json.load(open(state_path))["comments"]["7"]

        report = ("## calldir gate: ❌ failed\n\n| budget | figure |\n| --- | --- |\n| footprint | 3.1 MiB |\n"
                  "\nChart: [gate.svg](/home/runner/work/_temp/gate.svg)\n")
        first = run(make_event(sha, branch), report)
        posted = [c for c in comments() if c["user"]["login"] == BOT]
        shown = report.split("\nChart: ")[0]
        check("a fork's pull request gets one comment, the report with a link to the run",
              first.returncode == 0 and len(posted) == 1 and posted[0]["body"].startswith(MARKER)
              and shown in posted[0]["body"] and "/actions/runs/289782451" in posted[0]["body"],
              first.stdout + first.stderr)
        check("...without the report's chart line, a path on the gate's runner",
              "Chart: [gate.svg]" not in posted[0]["body"])
        check("...found from the event's owner and branch, not from the other fork's", not any(
            "8" in c for c in json.load(open(state_path))["comments"]))
        check("the branch name never runs as code", not os.path.exists(planted))

        second = run(make_event(sha, branch, conclusion="success"), report.replace("❌ failed", "✅ passed"))
        posted = [c for c in comments() if c["user"]["login"] == BOT]
        check("the next run edits that comment rather than adding one",
              second.returncode == 0 and len(posted) == 1 and "✅ passed" in posted[0]["body"]
              and "updated" in second.stdout, second.stdout + second.stderr)
        check("a reviewer's comment that quotes the marker is left alone",
              comments()[0] == someone)

        moved = run(make_event("2" * 40, branch), report)
        check("a pull request pushed again since is not commented on by the older run",
              moved.returncode == 0 and "nothing to comment on" in moved.stdout
              and len(comments()) == 2, moved.stdout + moved.stderr)

        none = run(make_event(sha, branch), None)
        check("a run that uploaded no report says so in the comment",
              none.returncode == 0 and "uploaded no report" in comments()[1]["body"],
              none.stdout + none.stderr)

        long_report = "".join(f"| row {i} | {'x' * 80} |\n" for i in range(2000))
        long = run(make_event(sha, branch), long_report)
        body = comments()[1]["body"]
        check("a report longer than a comment holds is cut at a line, under GitHub's limit",
              long.returncode == 0 and len(body) <= GITHUB_COMMENT_LIMIT and "is in the run" in body
              and body.split("\n…")[0].rstrip().endswith("|"), long.stdout + long.stderr)

        bad = run(make_event("not-a-sha; echo planted", branch), report)
        check("an event whose head is not a commit id is refused", bad.returncode == 1
              and "not a commit id" in bad.stderr, bad.stdout + bad.stderr)

    history_trial(yaml.safe_load(open(options.gate_workflow)), check)

    if failures:
        print(f"workflow trial: {len(failures)} case(s) failed", file=sys.stderr)
        return 1
    print("workflow trial: every case holds")
    return 0


def history_trial(workflow, check):
    """The gate workflow's history steps, twice, in clones of a local bare origin."""
    steps = {s.get("name"): s for s in workflow["jobs"]["gate"]["steps"]}
    restore, keep = steps["Restore the gate's history"], steps["Keep the history"]
    with tempfile.TemporaryDirectory() as temp:
        def git(*arguments, cwd=temp):
            return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com",
                                   *arguments], cwd=cwd, capture_output=True, text=True, check=True).stdout
        origin = os.path.join(temp, "origin.git")
        git("init", "-q", "--bare", "-b", "main", origin)
        seed = os.path.join(temp, "seed")
        git("clone", "-q", origin, seed)
        open(os.path.join(seed, "dump.tsv"), "w").write("number\tlabel\n")
        git("add", "-A", cwd=seed)
        git("commit", "-qm", "data", cwd=seed)
        git("push", "-q", "origin", "HEAD:main", cwd=seed)
        main_before = git("rev-parse", "main", cwd=origin)

        def run_main(number, history_bytes):
            checkout = os.path.join(temp, f"run{number}")
            git("clone", "-q", origin, checkout)  # actions/checkout with fetch-depth 0
            runner_temp = os.path.join(temp, f"runner{number}")
            os.mkdir(runner_temp)
            environment = dict(os.environ, RUNNER_TEMP=runner_temp, GITHUB_SHA="a" * 40)
            shell = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c"]
            restored = subprocess.run(shell + [restore["run"]], cwd=checkout, env=environment,
                                      capture_output=True, text=True)
            file = os.path.join(runner_temp, "gate-history.sqlite")
            before = open(file, "rb").read() if os.path.exists(file) else None
            open(file, "wb").write(history_bytes)  # what calldir gate --record-history leaves
            kept = subprocess.run(shell + [keep["run"]], cwd=checkout, env=environment,
                                  capture_output=True, text=True)
            return restored, before, kept

        restored, before, kept = run_main(1, b"history one")
        check("the first main run finds no history and starts the branch",
              restored.returncode == 0 and before is None and kept.returncode == 0,
              restored.stderr + kept.stderr)
        restored, before, kept = run_main(2, b"history two")
        check("the next main run restores the kept history and adds to it",
              restored.returncode == 0 and before == b"history one" and kept.returncode == 0,
              restored.stderr + kept.stderr)
        files = git("ls-tree", "--name-only", "calldir-gate-history", cwd=origin).split()
        kept_bytes = subprocess.run(["git", "show", "calldir-gate-history:gate-history.sqlite"],
                                    cwd=origin, capture_output=True).stdout
        commits = git("rev-list", "--count", "calldir-gate-history", cwd=origin).strip()
        check("the branch holds the history file alone, one commit a run",
              files == ["gate-history.sqlite"] and kept_bytes == b"history two" and commits == "2",
              f"{files} {kept_bytes!r} {commits}")
        check("main is never touched", git("rev-parse", "main", cwd=origin) == main_before)


if __name__ == "__main__":
    sys.exit(main())
