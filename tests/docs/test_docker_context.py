"""The Dockerfile can be built from this tree: every file it COPYs exists and is in the
build context that .dockerignore leaves (no Docker daemon runs in CI, so this is checked
from the two files). A `docs` line without exceptions once hid the rule texts /v1/rules
answers from, and `docker build` would have stopped at their COPY."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _regex(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern (Go's filepath.Match, plus `**` for any number of
    directories) as a regex over a slash-separated path relative to the context."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


def _rules() -> list[tuple[bool, re.Pattern[str]]]:
    rules = []
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keep = line.startswith("!")
            rules.append((keep, _regex(line.lstrip("!").strip("/"))))
    return rules


def in_context(path: str, rules: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Docker's rule: the last pattern matching the path or one of its parent directories
    decides; an exception (`!`) brings a path back."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: k + 1]) for k in range(len(parts))]
    included = True
    for keep, rx in rules:
        if any(rx.match(p) for p in prefixes):
            included = keep
    return included


def _copied() -> list[str]:
    sources = []
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        words = line.split()
        if words and words[0] in ("COPY", "ADD") and not words[1].startswith("--from"):
            sources += [w for w in words[1:-1] if not w.startswith("--")]
    return sources


def test_the_matcher_follows_docker() -> None:
    rules = [(False, _regex("docs")), (True, _regex("docs/a.md")), (False, _regex("**/*.so"))]
    assert not in_context("docs/b.md", rules)
    assert in_context("docs/a.md", rules)
    assert not in_context("engine/x/y.so", rules) and in_context("engine/x/y.py", rules)


def test_every_copied_file_exists_and_is_in_the_build_context() -> None:
    rules = _rules()
    sources = _copied()
    assert "docs/rulings.md" in sources and "engine" in sources  # the parse found them
    for src in sources:
        assert (ROOT / src).exists(), f"COPY {src}: no such file in the tree"
        assert in_context(src, rules), f"COPY {src}: excluded by .dockerignore"
        if (ROOT / src).is_dir():  # its Python sources are sent too
            for f in (ROOT / src).rglob("*.py"):
                rel = f.relative_to(ROOT).as_posix()
                assert in_context(rel, rules), f"{rel}: excluded by .dockerignore"


def test_the_context_leaves_out_what_the_image_does_not_need() -> None:
    rules = _rules()
    for path in ("tests/docs/test_docker_context.py", ".venv/bin/python", "docs/speed.md"):
        assert not in_context(path, rules), path
