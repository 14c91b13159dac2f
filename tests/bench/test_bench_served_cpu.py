"""benchmarks/served_cpu.py: one tree's side of the comparison is each game's CPU a decision
and the moves its served search chose, which the comparison requires to be the same in both
trees (a change of speed that changed the moves would not be measured as one)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from benchmarks import served_cpu


def test_a_tree_reports_its_cpu_and_moves_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    served_cpu.child(4)
    first: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert set(first) == set(served_cpu.GAMES)
    for game in served_cpu.GAMES:
        assert first[game]["cpu_ms"] > 0
        assert len(json.loads(first[game]["moves"])) >= 6  # one per mid-game position
    served_cpu.child(4)  # the same seeds: the same moves again
    again = json.loads(capsys.readouterr().out)
    assert [again[g]["moves"] for g in served_cpu.GAMES] == [
        first[g]["moves"] for g in served_cpu.GAMES
    ]
