"""The documentation stays readable: README.md short, Markdown lines at most
100 characters, every relative link resolving to a file, and no reference to
issue-tracker numbers (the word "issue" and a number) that readers cannot
follow.

Pure Python and fast: it reads the tracked files (`git ls-files`, or a walk
of the tree that skips build/ and .git/ when git is not available).
"""
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 160
MAX_WIDTH = 100
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
ISSUE = re.compile(r"\bissues?[- ]?#?\d", re.IGNORECASE)


def tracked_files():
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        names = [n for n in out.split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                 if p.is_file() and not {"build", ".git"} & set(p.relative_to(ROOT).parts)]
    return sorted(n for n in names if (ROOT / n).is_file())


def doc_pages():
    return ["README.md"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))


def markdown_files():
    return [n for n in tracked_files() if n.endswith(".md")] + \
        [p for p in doc_pages() if p not in tracked_files()]


def text(name):
    return (ROOT / name).read_text(encoding="utf-8", errors="replace")


def anchors(path):
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to '-'."""
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+\s+(.*)$", path.read_text(encoding="utf-8"), re.M)}


def test_readme_is_short():
    n = len(text("README.md").splitlines())
    assert n <= README_MAX_LINES, f"README.md has {n} lines (at most {README_MAX_LINES})"


@pytest.mark.parametrize("name", doc_pages())
def test_no_long_lines(name):
    long = [f"{name}:{i}: {len(line)} characters"
            for i, line in enumerate(text(name).splitlines(), 1) if len(line) > MAX_WIDTH]
    assert not long, "\n".join(long)


def test_relative_links_resolve():
    bad = []
    for name in sorted(set(markdown_files())):
        in_fence = False
        for i, line in enumerate(text(name).splitlines(), 1):
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
            if in_fence:
                continue
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                    continue
                path, _, anchor = target.partition("#")
                dest = (ROOT / name).parent.joinpath(path).resolve()
                if not dest.exists():
                    bad.append(f"{name}:{i}: {target}")
                elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                    bad.append(f"{name}:{i}: {target} (no such heading)")
    assert not bad, "links to missing files:\n" + "\n".join(bad)


def test_no_issue_numbers():
    found = []
    for name in tracked_files():
        try:
            lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
        except (UnicodeDecodeError, OSError):
            continue
        for i, line in enumerate(lines, 1):
            if ISSUE.search(line):
                found.append(f"{name}:{i}: {line.strip()}")
    assert not found, "issue-tracker references:\n" + "\n".join(found)
