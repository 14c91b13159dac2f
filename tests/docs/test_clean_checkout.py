"""A checkout stays clean, and every script says what it needs.

What tools write into the checkout (Schemathesis's cache, the client the README's
openapi-python-client command generates, the set-up's .venv and build/) is ignored by git, and
nothing git tracks lies under an ignored path (`.schemathesis/` once was tracked, so that every
fuzzing run turned a clean checkout dirty). A script that needs the test tools says in one line
what to run first when the .venv is the service's alone (`bash scripts/serve.sh`), instead of
dying with a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# what tools and the README's commands write into the checkout
GENERATED = [
    ".schemathesis/default/cache/crashes/manifest.json",
    "card-game-referee-client/pyproject.toml",
    ".venv",
    ".hypothesis/examples/x",
    ".pytest_cache/v/cache/nodeids",
    "build/messages-code.pot",
    "engine/architectura/flow.cpython-311-x86_64-linux-gnu.so",
]


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)


@pytest.fixture(scope="module")
def checkout() -> None:
    if not (ROOT / ".git").exists() or _git("rev-parse", "--git-dir").returncode:
        pytest.skip("not a git checkout (an unpacked archive has no ignore rules to check)")


@pytest.mark.parametrize("path", GENERATED)
def test_what_tools_write_is_ignored(checkout: None, path: str) -> None:
    assert _git("check-ignore", "-q", "--no-index", path).returncode == 0, path


def test_nothing_tracked_lies_under_an_ignored_path(checkout: None) -> None:
    tracked_ignored = _git("ls-files", "-c", "-i", "--exclude-standard").stdout.split()
    assert tracked_ignored == []


# a script that needs a test tool, and the module it needs
NEEDS_DEV = [
    (["bash", "scripts/contract.sh", "--check"], "yaml"),
    (["bash", "scripts/test_pure.sh"], "pytest"),
    ([sys.executable, "scripts/openapi_examples.py", "--check"], "yaml"),
]


@pytest.mark.parametrize(("command", "module"), NEEDS_DEV, ids=lambda v: str(v))
def test_a_script_without_its_tools_says_what_to_run_first(
    tmp_path: Path, command: list[str], module: str
) -> None:
    # the module made unimportable, as in the service's .venv (scripts/serve.sh)
    (tmp_path / f"{module}.py").write_text("raise ImportError('not installed')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "run 'bash scripts/" in lines[0] and "first" in lines[0]
