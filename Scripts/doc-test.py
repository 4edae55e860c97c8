#!/usr/bin/env python3
"""Runs every shell block of the README files, so the documentation stays true.

usage: Scripts/doc-test.py [--calldir PATH] [--list] [FILE.md ...]
       (default files: README.md, CONTRIBUTING.md, Datasets/samples/README.md,
        Examples/CallerID/README.md and every article of the DocC catalogs, Sources/*/*.docc;
        default calldir: .build/release/calldir)

A synopsis names every flag its command's help lists, or a group that stands for them:
[DATASET OPTIONS] (the generator's parameters) and [BENCH OPTIONS] (every flag of `bench
strategies`). A placeholder left in a file (a word between double underscores, such as __REAL_HISTORY__)
fails it, wherever it stands.

Every fenced block tagged `sh` (or `bash`, `shell`) is
  - parsed: `bash -n` checks its syntax, and every `calldir` command in it is read against the
    real command line: the subcommand must exist and every `--flag` the block names must be one
    the subcommand's help lists (so a synopsis cannot drift from the parser), and
  - run, unless the line before it marks it:
      <!-- doc-test: synopsis -->            a usage summary ([optional] flags, placeholders)
      <!-- doc-test: skip REASON -->         runs elsewhere or cannot run here; REASON says which
The runnable blocks of one file run in order, in one scratch folder (a walkthrough's later
blocks use what its earlier ones made), with `calldir` first on PATH, HOME inside the scratch
folder, and the checkout's Datasets/ linked and Results/ copied there, under `bash -e -o
pipefail`. A block that fails prints its file, line, output and exit status.

Exit status: 0 every block parsed and ran; 1 a block failed (named on stderr); 2 usage.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import glob
import tempfile

FENCE = re.compile(r"^```(\w*)\s*$")
# What a synopsis's [DATASET OPTIONS] stands for: the generator's parameters every bench and
# generate take (DatasetOptions in the command line).
DATASET_OPTIONS = ["--entries", "--seed", "--kind", "--plans", "--labels", "--duplicate-share", "--cache"]
PLACEHOLDER = re.compile(r"__[A-Z][A-Z0-9_]*__")
MARK = re.compile(r"^<!--\s*doc-test:\s*(synopsis|skip)\b\s*(.*?)\s*-->\s*$")
SHELL_TAGS = {"sh", "bash", "shell"}
# A subcommand word: lowercase, digits, dashes (not a file like box/bases or an ID with dots).
WORD = re.compile(r"^[a-z][a-z0-9-]*$")
FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


class Block:
    def __init__(self, path, line, tag, mark, reason, text):
        self.path, self.line, self.tag = path, line, tag
        self.mark, self.reason, self.text = mark, reason, text

    @property
    def where(self):
        return f"{self.path}:{self.line}"


def blocks(path):
    """The fenced blocks of a Markdown file, with the mark on the line before each."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found, index = [], 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        start = index
        index += 1
        while index < len(lines) and not lines[index].startswith("```"):
            index += 1
        if index == len(lines):
            sys.exit(f"doc-test: {path}:{start + 1}: a fenced block is never closed")
        previous = start - 1
        while previous >= 0 and not lines[previous].strip():
            previous -= 1
        mark = MARK.match(lines[previous]) if previous >= 0 else None
        if lines[previous].lstrip().startswith("<!-- doc-test") and not mark:
            sys.exit(f"doc-test: {path}:{previous + 1}: unknown mark (synopsis or skip REASON)")
        if mark and mark.group(1) == "skip" and not mark.group(2):
            sys.exit(f"doc-test: {path}:{previous + 1}: a skip says why")
        found.append(
            Block(
                path, start + 1, opening.group(1), mark.group(1) if mark else None,
                mark.group(2) if mark else "", "\n".join(lines[start + 1 : index]) + "\n"))
        index += 1
    return found


def inline_commands(path):
    """The `calldir …` code spans of a file's prose (outside fenced blocks; a span may wrap)."""
    prose, fenced = [], False
    for line in open(path, encoding="utf-8").read().split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            prose.append(line)
    spans = re.findall(r"`(calldir [^`]+)`", " ".join(prose))
    return [span[len("calldir ") :] for span in spans]


def commands(text):
    """Each `calldir …` command of a block with its continuation lines (a synopsis wraps)."""
    found = []
    for line in text.split("\n"):
        code = line.split(" # ")[0] if " # " in line else line
        # A synopsis wraps onto indented lines that name no command.
        if found and line.startswith(" ") and "calldir" not in line.split():
            found[-1] += " " + code
            continue
        # Commands joined on one line (`a; b`, `a | b`, `a && b`) are read one by one; a `|`
        # without spaces is a synopsis's alternation (`--kind identification|blocking`).
        for part in re.split(r";|&&|\s\|\|?\s", code):
            words = part.split()
            if "calldir" in words:
                found.append(" ".join(words[words.index("calldir") + 1 :]))
    return found


class Parser:
    """What the real command line accepts, from its help, asked once per subcommand."""

    def __init__(self, calldir):
        self.calldir, self.helps = calldir, {}

    def help(self, words):
        key = tuple(words)
        if key not in self.helps:
            result = subprocess.run(
                [self.calldir, *words, "--help"], capture_output=True, text=True)
            self.helps[key] = result.stdout if result.returncode == 0 else None
        return self.helps[key]

    def lists(self, words, token):
        """Whether `calldir WORDS --help` lists `token` among its subcommands."""
        text = self.help(words) or ""
        section = text.split("SUBCOMMANDS:", 1)[1] if "SUBCOMMANDS:" in text else ""
        return re.search(r"^\s+" + re.escape(token) + r"(?![\w-])", section, re.M) is not None

    def problems(self, command):
        """Why a command does not match the parser, if it does not."""
        words, tokens = [], command.split()
        for token in tokens:
            # A subcommand only if its parent's help lists it (a parent with a default
            # subcommand would take an unknown word as that one's argument).
            if not WORD.match(token) or not self.lists(words, token):
                break
            words.append(token)
        text = self.help(words)
        if text is None:
            return [f"calldir {' '.join(words)}: no such command"]
        following = tokens[len(words)] if len(tokens) > len(words) else ""
        if "SUBCOMMANDS:" in text and WORD.match(following):
            return [f"calldir {' '.join(words + [following])}: no such command"]
        # A command with a default subcommand (`bench` runs `bench strategies`) takes its flags.
        default = re.search(r"^\s+([a-z][a-z0-9-]*) \(default\)", text, re.M)
        if default:
            words.append(default.group(1))
            text = self.help(words)
        # A subcommand's help lists its flags; `bench`'s lists its subcommands too.
        return [
            f"calldir {' '.join(words)} has no {flag}"
            for flag in dict.fromkeys(FLAG.findall(command))
            if not re.search(re.escape(flag) + r"(?![\w-])", text)
        ]

    def subcommand(self, command):
        """The subcommand words a command starts with (`bench sweep`)."""
        words = []
        for token in command.split():
            if not WORD.match(token) or not self.lists(words, token):
                break
            words.append(token)
        return words

    def missing(self, command):
        """The flags the command's help lists that a synopsis of it leaves out."""
        words = self.subcommand(command)
        text = self.help(words) or ""
        default = re.search(r"^\s+([a-z][a-z0-9-]*) \(default\)", text, re.M)
        if default:
            words.append(default.group(1))
            text = self.help(words) or ""
        options = text.split("OPTIONS:", 1)[1] if "OPTIONS:" in text else ""
        listed = dict.fromkeys(re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z0-9-]*)", options, re.M))
        named = set(FLAG.findall(command))
        # A synopsis may name a group of flags documented once beside it.
        if "[DATASET OPTIONS]" in command:
            named |= set(DATASET_OPTIONS)
        if "[BENCH OPTIONS]" in command:
            strategies = self.help(["bench", "strategies"]) or ""
            named |= set(re.findall(r"^\s+(--[a-z][a-z0-9-]*)", strategies, re.M))
        return [flag for flag in listed if flag not in named and flag not in ("--help", "--version")]


def prepare_scratch(root, scratch, calldir):
    bin_folder = os.path.join(scratch, ".bin")
    os.makedirs(bin_folder)
    os.symlink(os.path.abspath(calldir), os.path.join(bin_folder, "calldir"))
    extension = os.path.join(os.path.dirname(os.path.abspath(calldir)), "calldir-extension")
    if os.path.exists(extension):
        os.symlink(extension, os.path.join(bin_folder, "calldir-extension"))
    os.symlink(os.path.join(root, "Datasets"), os.path.join(scratch, "Datasets"))
    shutil.copytree(os.path.join(root, "Results"), os.path.join(scratch, "Results"))
    environment = dict(os.environ)
    environment["PATH"] = bin_folder + os.pathsep + environment.get("PATH", "")
    environment["HOME"] = scratch
    return environment


def main():
    arguments = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    arguments.add_argument("files", nargs="*", default=None)
    arguments.add_argument("--calldir", default=".build/release/calldir")
    arguments.add_argument("--list", action="store_true", help="list the blocks and their marks")
    options = arguments.parse_args()
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    os.chdir(root)
    if not os.access(options.calldir, os.X_OK):
        print(f"doc-test: no calldir at {options.calldir} (swift build -c release)", file=sys.stderr)
        return 2
    parser, failures, counts = Parser(options.calldir), [], {"run": 0, "synopsis": 0, "skip": 0, "inline": 0}
    files = options.files or (
        ["README.md", "CONTRIBUTING.md", "Datasets/samples/README.md", "Examples/CallerID/README.md"]
        + sorted(glob.glob("Sources/*/*.docc/*.md")))
    for path in files:
        for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
            for placeholder in PLACEHOLDER.findall(line):
                failures.append(f"{path}:{number}: the placeholder {placeholder} was never filled in")
        shell = [block for block in blocks(path) if block.tag in SHELL_TAGS]
        if options.list:
            for block in shell:
                print(f"{block.where}\t{block.mark or 'run'}\t{block.reason}")
            continue
        # Commands quoted in the prose are parsed too (their flags must exist), not run.
        for command in dict.fromkeys(inline_commands(path)):
            found = parser.problems(command)
            if found:
                failures.append(f"{path}: `calldir {command}`: " + "; ".join(found))
            else:
                counts["inline"] += 1
        with tempfile.TemporaryDirectory(prefix="calldir-doc-test-") as scratch:
            environment = prepare_scratch(root, scratch, options.calldir)
            for block in shell:
                syntax = subprocess.run(["bash", "-n"], input=block.text, capture_output=True,
                                        text=True)
                found = [] if syntax.returncode == 0 else [syntax.stderr.strip()]
                synopsis = {}
                for command in commands(block.text):
                    found += parser.problems(command)
                    # A synopsis names every flag its command takes, over all its lines in the
                    # block: one left out is drift.
                    if block.mark == "synopsis":
                        name = " ".join(command.split()[: len(parser.subcommand(command))])
                        synopsis[name] = synopsis.get(name, "") + " " + command
                for name, text in synopsis.items():
                    left_out = parser.missing(name + " " + text)
                    if left_out:
                        found.append(f"the synopsis of calldir {name} leaves out {', '.join(left_out)}")
                if found:
                    failures.append(f"{block.where}: " + "; ".join(found))
                    continue
                counts[block.mark or "run"] += 1
                if block.mark:
                    continue
                result = subprocess.run(
                    ["bash", "-e", "-o", "pipefail", "-c", block.text], cwd=scratch,
                    env=environment, capture_output=True, text=True)
                if result.returncode != 0:
                    output = (result.stdout + result.stderr).strip().split("\n")[-8:]
                    failures.append(
                        f"{block.where}: exit {result.returncode}\n    " + "\n    ".join(output))
                else:
                    print(f"ran {block.where}")
    if options.list:
        return 0
    for failure in failures:
        print(f"doc-test: {failure}", file=sys.stderr)
    print(
        f"doc-test: {counts['run']} blocks ran, {counts['synopsis']} synopses and "
        f"{counts['skip']} skipped blocks parsed, {counts['inline']} commands quoted in the "
        f"prose parsed; {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
