"""GET /v1/bots: every registered game's bots and levels, with the rating ladder's figures
(docs/measurements/ratings-<game>.json) and nothing for a bot the ladder did not measure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from http_support import check_response, make_app

import app.bots
from ai.bots import LEVELS
from engine.games import GAMES

CLIENT = make_app().test_client()
NAMES = ["random", "greedy", *LEVELS]


def get(query: str = "") -> tuple[int, Any]:
    r = CLIENT.get(f"/v1/bots{query}")
    return r.status_code, check_response("GET", "/v1/bots", r)


def ladder_file(root: Path, game: str, doc: Any) -> None:
    path = root / "docs" / "measurements" / f"ratings-{game}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))


def entry(name: str, rating: float, budget: Any = None) -> dict[str, Any]:
    if budget is None and name in LEVELS:
        budget = LEVELS[name].to_json()
    return {
        "name": name,
        "rating": rating,
        "ci95": [rating - 10, rating + 10],
        "ms_per_decision": 1.5,
        "budget": budget,
    }


def test_every_game_lists_its_bots_and_levels_in_order() -> None:
    status, body = get()
    assert status == 200
    assert [g["game"] for g in body["games"]] == list(GAMES)
    for g in body["games"]:
        assert [b["name"] for b in g["bots"]] == NAMES
        for b in g["bots"]:
            level = b["name"] in LEVELS
            assert b["bot"] == ("ismcts" if level else b["name"])
            assert b["budget"] == (LEVELS[b["name"]].to_json() if level else None)


def test_the_repository_ladders_are_served_and_ordered() -> None:
    """The measured files of the repository: every bot of every game has its figures, each
    level up to `hard` rates above the one below it, and `master` above `hard` and `expert`
    (with the model alone `expert` was hardly above `hard`: docs/bots.md, "Rating ladder";
    the file's `ordered` says whether every step is significant)."""
    _, body = get()
    for g in body["games"]:
        doc = json.loads((app.bots.ladder_path(g["game"])).read_text())
        assert g["ladder"]["source"] == f"docs/measurements/ratings-{g['game']}.json"
        assert g["ladder"]["ordered"] is doc["ordered"]
        measured = {b["name"]: b for b in doc["bots"]}
        for b in g["bots"]:
            assert b["rating"] == measured[b["name"]]["rating"]
            assert b["ci95"] == measured[b["name"]]["ci95"]
            assert b["ms_per_decision"] is not None and b["ms_per_decision"] > 0
        ratings = [b["rating"] for b in g["bots"] if b["level"] and b["level"] != "expert"]
        assert ratings == sorted(ratings) and len(ratings) == 4
        rated = {b["name"]: b["rating"] for b in g["bots"]}
        assert rated["master"] > rated["expert"]
        # `ordered` is what the steps say: each significant by its rating or its own match
        assert doc["ordered"] is all(
            st["significant"] or st["significant_head_to_head"] for st in doc["steps"]
        )


def test_figures_come_from_the_file_and_only_for_the_budget_it_measured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app.bots, "ROOT", tmp_path)
    game, *others = list(GAMES)
    bots = [entry("random", 0.0), entry("greedy", 300.0), entry("easy", 250.0)]
    bots.append(entry("medium", 500.0, budget={"iterations": 7}))  # another budget
    doc = {
        "date": "2026-11-26T12:00:00Z",
        "engine_build": "compiled",
        "ordered": True,
        "games_per_pair": {"random vs greedy": 10, "greedy vs easy": 30},
        "bots": bots,
    }
    ladder_file(tmp_path, game, doc)
    status, body = get(f"?game={game}")
    assert status == 200 and [g["game"] for g in body["games"]] == [game]
    got = {b["name"]: b for b in body["games"][0]["bots"]}
    assert got["greedy"]["rating"] == 300.0 and got["greedy"]["ci95"] == [290.0, 310.0]
    assert got["easy"]["ms_per_decision"] == 1.5
    for name in ("medium", "hard", "expert"):  # another budget, or not in the file
        assert got[name]["rating"] is None and got[name]["ci95"] is None
    ladder = body["games"][0]["ladder"]
    assert ladder["games"] == 40 and ladder["ordered"] is True
    assert ladder["engine_build"] == "compiled"
    for other in others:  # no file: listed, not measured
        _, body = get(f"?game={other}")
        assert body["games"][0]["ladder"] is None
        assert all(b["rating"] is None for b in body["games"][0]["bots"])


@pytest.mark.parametrize(
    "doc",
    [
        "not json",
        "[1, 2]",
        {"bots": "x"},
        {"bots": [{"name": "easy", "rating": "high"}]},
        {"bots": [{"name": "random", "rating": 0, "ci95": [0]}], "games_per_pair": [1]},
    ],
)
def test_an_unreadable_ladder_gives_no_figures_never_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, doc: Any
) -> None:
    monkeypatch.setattr(app.bots, "ROOT", tmp_path)
    for game in GAMES:
        ladder_file(tmp_path, game, doc)
    status, body = get()
    assert status == 200
    for g in body["games"]:
        assert all(b["rating"] is None and b["ci95"] is None for b in g["bots"])


def test_an_unknown_game_is_404() -> None:
    status, body = get("?game=chess")
    assert status == 404 and body["code"] == "unknown_game"
