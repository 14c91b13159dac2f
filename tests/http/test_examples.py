"""examples/: the README's walkthrough runs as pasted against gunicorn (its commands are the
script's, and the answers it shows are the ones the script prints), and the bot client plays
whole games of both games over HTTP from each seat's view."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator

import pytest
from http_support import ROOT

from ai.redis_server import free_port
from benchmarks.local import gunicorn

SCRIPT = ROOT / "examples" / "walkthrough.sh"


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with gunicorn(env={"WEB_CONCURRENCY": "1", "LOG_LEVEL": "WARNING"}) as url:
        yield url


@pytest.fixture(scope="module")
def walkthrough(base: str) -> str:
    assert shutil.which("jq") and shutil.which("curl"), "the walkthrough needs curl and jq"
    run = subprocess.run(
        ["bash", str(SCRIPT)],
        env={"PATH": "/usr/bin:/bin", "BASE": base},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    return run.stdout


def _readme_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^## Walkthrough.*?(?=^## )", text, re.M | re.S)
    assert m, "README.md has no Walkthrough section"
    return m.group(0)


def _blocks(section: str, lang: str) -> list[str]:
    return [
        line
        for block in re.findall(rf"```{lang}\n(.*?)```", section, re.S)
        for line in block.splitlines()
        if line.strip()
    ]


def test_the_walkthrough_plays_a_turn_an_illegal_move_a_view_a_suggestion_and_a_replay(
    walkthrough: str,
) -> None:
    out = walkthrough
    assert '"notation":"blue.palace@1,1"' in out
    assert '{"status":422,"code":"cell_not_eligible","clause":"A-4.1"' in out
    assert "A cell is eligible when" in out  # the clause's text from /v1/rules
    assert '"view_of":0' in out and '"opponent_hand":null' in out
    assert re.search(
        r'\{"decision":\{"seat":0,"type":"[a-z_]+".*"bot":"ismcts","level":"easy"\}', out
    )
    assert out.count('{"ok":true,"applied":3') == 2  # the replay, then the record replayed


def test_the_readme_commands_are_the_scripts(walkthrough: str) -> None:
    section = _readme_section()
    script_lines = set(SCRIPT.read_text(encoding="utf-8").splitlines())
    commands = _blocks(section, "sh")
    assert len(commands) >= 15
    for line in commands:
        if line.startswith("BASE="):
            continue
        assert line in script_lines, f"README command not in examples/walkthrough.sh: {line}"
    for shown in _blocks(section, "jsonc"):  # every answer the README shows is a real one
        assert shown in walkthrough.splitlines(), (
            f"README shows an answer the script does not print: {shown}"
        )


GAMES = ("architectura", "fora-de-prumo")


@pytest.mark.parametrize(
    "args",
    [
        ["--game", game, "--seats", str(seats), "--seed", str(seats), "--bot", bot]
        for game in GAMES
        for seats, bot in ((2, "greedy"), (3, "local"), (4, "random"))
    ],
    ids=[f"{game}-{seats}" for game in GAMES for seats in (2, 3, 4)],
)
def test_the_bot_client_plays_a_whole_game_from_views(base: str, args: list[str]) -> None:
    """Both games with 2, 3 and 4 seats (issue 29; docs/clients.md), cheap bots: the service's
    greedy and random bots from the view, and a local random choice."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "bot_client.py"), "--base", base, *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "final:" in run.stdout and '"winners"' in run.stdout
    assert "replayed ok=True" in run.stdout
    moves = [line for line in run.stdout.splitlines() if re.match(r"\s*\d+  seat \d: ", line)]
    assert len(moves) > 10
    seats = int(args[args.index("--seats") + 1])
    relayed = re.search(r"events relayed: (.*)", run.stdout)
    assert relayed and relayed.group(1).count("seat ") == seats  # one call served them all


def test_the_bot_client_reads_base_and_explains_a_refused_connection(base: str) -> None:
    """BASE (as the README sets it) is its default; nothing listening is one sentence, not a
    traceback."""
    client = [sys.executable, str(ROOT / "examples" / "bot_client.py"), "--quiet"]
    env = {**os.environ, "BASE": base}
    run = subprocess.run(client, capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0 and '"winners"' in run.stdout, run.stdout + run.stderr
    dead = f"http://127.0.0.1:{free_port()}"
    run = subprocess.run(
        client, capture_output=True, text=True, timeout=60, env={**env, "BASE": dead}
    )
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert f"cannot reach the referee at {dead}" in run.stderr and "--base or BASE" in run.stderr
