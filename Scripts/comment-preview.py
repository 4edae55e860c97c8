#!/usr/bin/env python3
"""The gate's report as a pull-request comment, to look at in a browser before a team sees it.

    Scripts/comment-preview.py GATE.md OUT.html [--png OUT.png] [--chromium chromium]

Writes the comment the fork-safe workflow posts (Examples/GateWorkflow/calldir-gate-comment.yml:
its marker, the report, the run's link) as an HTML page in a comment's frame, the Markdown
rendered by Python-Markdown (PyPI `markdown`, with its tables extension: GitHub Flavored
Markdown's tables) under styles close to GitHub's: an approximation, not GitHub's renderer.
With --png, headless Chromium takes its screenshot.
"""
import argparse
import html
import subprocess
import sys

import markdown

STYLE = """
body { background: #f6f8fa; margin: 0; padding: 24px;
  font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif,
  "Noto Color Emoji"; color: #1f2328; }
.comment { max-width: 1180px; border: 1px solid #d1d9e0; border-radius: 6px; background: #fff; }
.header { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px;
  border-radius: 6px 6px 0 0; color: #59636e; }
.header b { color: #1f2328; }
.body { padding: 16px; }
h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; margin-top: 0; }
h3 { font-size: 1.25em; margin-top: 24px; }
table { border-collapse: collapse; margin: 12px 0; display: block; overflow: auto; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
th { font-weight: 600; }
tr:nth-child(2n) { background: #f6f8fa; }
code { background: #eff1f3; border-radius: 6px; padding: .2em .4em; font-size: 85%;
  font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; }
a { color: #0969da; text-decoration: none; }
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("report")
    parser.add_argument("html")
    parser.add_argument("--png")
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--width", type=int, default=1240)
    parser.add_argument("--height", type=int, default=1400)
    options = parser.parse_args()
    report = open(options.report, encoding="utf-8").read()
    link = "\n[The gate's run](https://github.com/team/directory/actions/runs/1): gate.md, gate.svg and gate.csv in its calldir-gate artifact.\n"
    body = markdown.markdown(report + link, extensions=["tables"])
    page = (f"<!doctype html><meta charset='utf-8'><title>{html.escape(options.report)}</title>"
            f"<style>{STYLE}</style><div class='comment'><div class='header'><b>github-actions</b> "
            f"<span>bot</span> commented</div><div class='body'>{body}</div></div>")
    open(options.html, "w", encoding="utf-8").write(page)
    if options.png:
        done = subprocess.run([options.chromium, "--headless", "--no-sandbox", "--disable-gpu",
                               "--hide-scrollbars", f"--window-size={options.width},{options.height}",
                               f"--screenshot={options.png}", "file://" + __import__("os").path.abspath(options.html)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"comment preview: chromium failed: {done.stderr.strip()[-300:]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
