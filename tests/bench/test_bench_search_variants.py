"""benchmarks/search_variants.py and benchmarks.local.publish: a head-to-head of two search
settings reports every game once, with each side's CPU per decision (issue 19 item 3)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from benchmarks.local import publish
from benchmarks.search_variants import make, match, side
from benchmarks.variants import MastBot


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_a_match_counts_every_game_and_times_both_sides(game: str) -> None:
    out = match(game, {"iterations": 3, "prior_widening": 1}, {"iterations": 3}, 2, 7)
    assert out["a_wins"] + out["draws"] + out["b_wins"] == out["games"] == 2
    assert 0 <= out["ci95"][0] <= out["a_win_rate"] <= out["ci95"][1] <= 1
    for who in ("a", "b"):
        cpu = out[f"{who}_cpu_ms_per_decision"]
        assert 0 <= cpu["min"] <= cpu["median"] <= cpu["max"]
    assert all(n > 0 for n in out["decisions"])


def test_a_side_is_settings_or_a_bot_spec() -> None:
    """`--a`/`--b`: JSON settings (a variant measured and not kept included) or a bot spec;
    a variant plays a match against the greedy bot."""
    assert side('{"iterations": 5, "mast_eps": 0.2}') == {"iterations": 5, "mast_eps": 0.2}
    assert side("greedy") == "greedy"
    assert make("greedy").name == "greedy"
    assert isinstance(make({"iterations": 5, "mast_eps": 0.2}), MastBot)
    out = match("architectura", {"iterations": 3, "mast_eps": 0.2}, "greedy", 2, 7)
    assert out["a_wins"] + out["draws"] + out["b_wins"] == 2


def test_publish_prints_and_writes_the_summary_with_its_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["x", "--games", "4"])
    target = tmp_path / "out.json"
    publish({"games": 4}, "benchmarks.demo", str(target))
    written = json.loads(target.read_text())
    assert written == {"games": 4, "command": "python -m benchmarks.demo --games 4"}
    assert json.loads(capsys.readouterr().out) == written
