"""python -m ai.ratings: the Bradley-Terry fit recovers known orderings from synthetic result
tables, its bootstrap intervals cover them, and the command writes a valid ladder file."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from ai.bots import LEVELS
from ai.ratings import ELO, Game, bootstrap, fit, ladder, main
from engine.games import GAMES


def synthetic(strengths: dict[str, float], per_pair: int, seed: int = 0) -> list[Game]:
    """Games between every two bots drawn from the Bradley-Terry model with these Elo
    ratings."""
    rnd = random.Random(seed)
    bots = list(strengths)
    games: list[Game] = []
    for i, a in enumerate(bots):
        for b in bots[i + 1 :]:
            p = 1 / (1 + math.exp(-(strengths[a] - strengths[b]) / ELO))
            for _ in range(per_pair):
                games.append((a, b, 1.0 if rnd.random() < p else 0.0))
    return games


def test_fit_recovers_a_known_ladder() -> None:
    truth = {"random": 0.0, "greedy": 300.0, "easy": 450.0, "medium": 650.0, "hard": 800.0}
    games = synthetic(truth, 400)
    got = fit(games, list(truth))
    assert got["random"] == 0.0  # the anchor
    assert sorted(truth, key=got.__getitem__) == list(truth)
    for bot, elo in truth.items():
        assert got[bot] == pytest.approx(elo, abs=60)


def test_fit_orders_bots_listed_in_any_order_and_anchors_random() -> None:
    truth = {"hard": 500.0, "random": 0.0, "easy": 200.0}
    got = fit(synthetic(truth, 300, seed=3), list(truth))
    assert got["random"] == 0.0 and 0 < got["easy"] < got["hard"]


def test_a_pair_one_bot_always_wins_gives_finite_ratings() -> None:
    games: list[Game] = [("greedy", "random", 1.0)] * 50 + [("easy", "greedy", 1.0)] * 50
    got = fit(games, ["random", "greedy", "easy"])
    assert all(math.isfinite(v) for v in got.values())
    assert 0 < got["greedy"] < got["easy"]


def test_bootstrap_intervals_cover_the_truth_and_separate_distinct_levels() -> None:
    truth = {"random": 0.0, "greedy": 250.0, "easy": 250.0, "medium": 600.0}
    games = synthetic(truth, 200, seed=5)
    result = bootstrap(games, list(truth), samples=200, seed=1)
    for bot, elo in truth.items():
        lo, hi = result.ci(bot)
        assert lo - 1e-9 <= result.ratings[bot] <= hi + 1e-9
        assert lo - 30 <= elo <= hi + 30
    steps = {(s["lower"], s["higher"]): s for s in ladder(games, list(truth), result)}
    assert steps[("easy", "medium")]["significant"]
    assert steps[("easy", "medium")]["significant_head_to_head"]
    assert not steps[("greedy", "easy")]["significant"]  # equal strengths: not told apart


def test_the_command_writes_a_valid_ladder_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    for game in GAMES:
        out = tmp_path / f"ratings-{game}.json"
        argv = ["--game", game, "--bots", "random,greedy,easy", "--games", "2"]
        argv += ["--processes", "1", "--bootstrap", "20", "--out", str(out)]
        assert main(argv) == 0
        doc = json.loads(out.read_text())
        assert doc["game"] == game and doc["seed"] == 1
        assert doc["games_per_pair"] == {
            "random vs greedy": 2,
            "random vs easy": 2,
            "greedy vs easy": 2,
        }
        assert doc["engine_build"] in ("compiled", "pure")
        assert doc["command"].startswith("python -m ai.ratings --game")
        assert [b["name"] for b in doc["bots"]] == ["random", "greedy", "easy"]
        by_name = {b["name"]: b for b in doc["bots"]}
        assert by_name["random"]["rating"] == 0.0
        assert by_name["easy"]["budget"] == LEVELS["easy"].to_json()
        for b in doc["bots"]:
            lo, hi = b["ci95"]
            assert lo <= b["rating"] <= hi
        assert by_name["easy"]["ms_per_decision"] > 0 and by_name["easy"]["decisions"] > 0
        assert len(doc["pairs"]) == 3 and all(len(p["games"]) == 2 for p in doc["pairs"])
        assert [(s["lower"], s["higher"]) for s in doc["steps"]] == [
            ("random", "greedy"),
            ("greedy", "easy"),
        ]
        assert isinstance(doc["ordered"], bool)


def test_merged_ladders_add_their_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--pairs none --merge A --merge B` fits the games of both files, and keeps their runs."""
    monkeypatch.delenv("REDIS_URL", raising=False)
    game = next(iter(GAMES))
    first, both = tmp_path / "first.json", tmp_path / "both.json"
    common = ["--game", game, "--bots", "random,greedy", "--processes", "1", "--bootstrap", "10"]
    assert main([*common, "--games", "2", "--out", str(first)]) == 0
    argv = [*common, "--pairs", "none", "--merge", str(first), "--merge", str(first)]
    assert main([*argv, "--out", str(both)]) == 0
    doc = json.loads(both.read_text())
    assert doc["games_per_pair"] == {"random vs greedy": 4}
    assert len(doc["runs"]) == 3 and doc["runs"][-1]["pairs"] == "none"
    think = json.loads(first.read_text())["think"]["greedy"]
    assert doc["think"]["greedy"][1] == 2 * think[1]


def test_a_level_added_to_a_ladder_plays_only_its_own_pairs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--with BOT` keeps, of the chosen pairs, those that include BOT: a new level's games,
    merged with the earlier file, complete the round robin without replaying it."""
    monkeypatch.delenv("REDIS_URL", raising=False)
    game = next(iter(GAMES))
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    common = ["--game", game, "--processes", "1", "--bootstrap", "10", "--games", "2"]
    assert main([*common, "--bots", "random,greedy", "--out", str(old)]) == 0
    argv = [*common, "--bots", "random,greedy,easy", "--with", "easy", "--merge", str(old)]
    assert main([*argv, "--out", str(new)]) == 0
    doc = json.loads(new.read_text())
    assert doc["games_per_pair"] == {
        "random vs greedy": 2,
        "random vs easy": 2,
        "greedy vs easy": 2,
    }
    assert doc["runs"][-1]["with"] == "easy"
    with pytest.raises(SystemExit):
        main([*common, "--bots", "random,greedy", "--with", "easy"])
