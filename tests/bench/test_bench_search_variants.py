"""benchmarks/search_variants.py and benchmarks.local.publish: a head-to-head of two search
settings reports every game once, with each side's CPU per decision (issue 19 item 3)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from benchmarks.local import publish
from benchmarks.search_variants import match


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_a_match_counts_every_game_and_times_both_sides(game: str) -> None:
    out = match(game, {"iterations": 3, "prior_widening": 1}, {"iterations": 3}, 2, 7)
    assert out["a_wins"] + out["draws"] + out["b_wins"] == out["games"] == 2
    assert 0 <= out["ci95"][0] <= out["a_win_rate"] <= out["ci95"][1] <= 1
    for side in ("a", "b"):
        cpu = out[f"{side}_cpu_ms_per_decision"]
        assert 0 <= cpu["min"] <= cpu["median"] <= cpu["max"]
    assert all(n > 0 for n in out["decisions"])


def test_publish_prints_and_writes_the_summary_with_its_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["x", "--games", "4"])
    target = tmp_path / "out.json"
    publish({"games": 4}, "benchmarks.demo", str(target))
    written = json.loads(target.read_text())
    assert written == {"games": 4, "command": "python -m benchmarks.demo --games 4"}
    assert json.loads(capsys.readouterr().out) == written
