"""Every path a docstring or comment of the code names (or any text of a script, a
configuration file or the page) is a file or directory of the repository, as every link of the
documents is (test_docs_links.py): the engines' docstrings once sent a reader to rule pages
that had moved. A path is one under a top-level directory of the
repository (`docs/…`, `tests/…`, `engine/…`, …) or a bare document name (`review.md`: some
document of that name exists); a path a command writes (after `--out`, `--plot`, …) and a
pattern (`*`, `{…}`, `<…>`) are not checked."""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOP = ("docs", "tests", "engine", "app", "ai", "scripts", "examples", "benchmarks", "deploy", ".ci")
TEXTS = (".sh", ".yaml", ".toml", ".cfg", ".conf", ".js", ".html", ".css")
PATH = re.compile(
    r"(?<![\w/.~-])(?:--[\w-]+[ =])?"
    r"((?:" + "|".join(re.escape(t) for t in TOP) + r")/[\w./*{}<>-]*[\w*}>/]|[\w-]+\.md)"
    r"(?![\w/(])"
)


def _repository_files() -> list[str]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        return [f for f in out.decode().split("\0") if f and (ROOT / f).exists()]
    except (OSError, subprocess.CalledProcessError):  # not a checkout: what is on disk
        return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file()]


def _prose(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every comment and docstring of a Python source."""
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None and node.body:
                yield node.body[0].lineno, doc


def _named_paths(text: str) -> Iterator[str]:
    for m in PATH.finditer(text):
        if m.group(0).startswith("--") or re.search(r"[*{}<>]", m.group(1)):
            continue  # written by a command, or a pattern
        yield m.group(1).rstrip("/.")


def test_every_path_the_code_names_exists() -> None:
    files = _repository_files()
    known = set(files) | {str(p) for f in files for p in Path(f).parents}
    names = {Path(f).name for f in files}
    missing, checked = [], 0
    for f in files:
        if f.endswith(".py"):
            texts = list(_prose((ROOT / f).read_text(encoding="utf-8")))
        elif f.endswith(TEXTS) or Path(f).name in ("Dockerfile", "run"):
            texts = list(enumerate((ROOT / f).read_text(encoding="utf-8").splitlines(), 1))
        else:
            continue
        for line, text in texts:
            for path in _named_paths(text):
                checked += 1
                if path not in (known if "/" in path else names):
                    missing.append(f"{f}:{line}: {path}")
    assert checked > 200  # the scan sees the code's references
    assert missing == []


def test_the_scan_finds_a_broken_path_and_passes_a_pattern() -> None:
    text = '"""See docs/rules.md and fora-de-prumo.md."""\n# out: --out docs/x.json, engine/*.py\n'
    assert [p for _, t in _prose(text) for p in _named_paths(t)] == [
        "docs/rules.md",
        "fora-de-prumo.md",
    ]
