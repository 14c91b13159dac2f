"""GET /v1/bots: each registered game's bots and levels with their measured strength.

The bots are `ai.bots`' (random, greedy, then every level of `LEVELS` with its budget); the
ratings, their 95 % intervals and the time per decision come from the rating ladder's file of
the game, docs/measurements/ratings-<game id>.json (`python -m ai.ratings`, docs/bots.md),
read beside this package as the rule pages are. A level whose budget is not the one the file
measured, and every bot of a game without a readable file, has null figures: the answer never
gives a figure for a bot that was not measured as it is now.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, request

from ai.bots import LEVELS
from ai.review import DEFAULT_LEVELS
from ai.service import DEFAULT_LEVEL
from ai.tournament import MATCH_SEATS
from app.errors import ApiError
from app.jsonio import json_response
from app.query import reads_query
from app.review import REVIEW_LEVEL
from engine.games import GAMES, unknown_game

bp = Blueprint("bots", __name__, url_prefix="/v1")

ROOT = Path(__file__).resolve().parent.parent
MEASUREMENTS = "docs/measurements"
FIGURES = ("rating", "ci95", "ms_per_decision")


def ladder_path(game: str) -> Path:
    return ROOT / MEASUREMENTS / f"ratings-{game}.json"


@lru_cache(maxsize=16)
def _read(path: str, mtime_ns: int) -> dict[str, Any] | None:
    """A ladder file's document (cached per path and modification time); None when it is
    not a JSON object."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def ladder(game: str) -> dict[str, Any] | None:
    """The rating ladder of `game`, or None when there is no readable file."""
    path = ladder_path(game)
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        return None
    return _read(str(path), mtime)


def _measured(doc: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """The file's bot entries by name (those shaped as `ai.ratings` writes them)."""
    bots = doc.get("bots") if doc else None
    if not isinstance(bots, list):
        return {}
    return {b["name"]: b for b in bots if isinstance(b, dict) and isinstance(b.get("name"), str)}


def _number(x: Any) -> float | None:
    return float(x) if isinstance(x, int | float) and not isinstance(x, bool) else None


def _figures(entry: dict[str, Any] | None) -> dict[str, Any]:
    """The rating, its interval and the time per decision of a file's entry (all null unless
    the rating and its interval are numbers)."""
    entry = entry or {}
    rating = _number(entry.get("rating"))
    ci = entry.get("ci95")
    bounds = [_number(x) for x in ci] if isinstance(ci, list) and len(ci) == 2 else [None]
    if rating is None or None in bounds:
        return {"rating": None, "ci95": None, "ms_per_decision": None}
    return {
        "rating": rating,
        "ci95": bounds,
        "ms_per_decision": _number(entry.get("ms_per_decision")),
    }


def _games(doc: dict[str, Any]) -> int:
    per_pair = doc.get("games_per_pair")
    if not isinstance(per_pair, dict):
        return 0
    return sum(n for n in per_pair.values() if isinstance(n, int) and not isinstance(n, bool))


def game_bots(game: str) -> dict[str, Any]:
    """One game's entry of GET /v1/bots."""
    doc = ladder(game)
    measured = _measured(doc)
    bots = []
    for name in ("random", "greedy", *LEVELS):
        level = name in LEVELS
        budget = LEVELS[name].to_json() if level else None
        entry = measured.get(name)
        if entry is not None and level and entry.get("budget") != budget:
            entry = None  # measured with another budget: not this level's figure
        figures = _figures(entry)
        bots.append(
            {
                "name": name,
                "bot": "ismcts" if level else name,
                "level": name if level else None,
                "budget": budget,
                **figures,
            }
        )
    out: dict[str, Any] = {"game": game, "bots": bots, "ladder": None}
    if doc is not None:
        out["ladder"] = {
            "source": f"{MEASUREMENTS}/ratings-{game}.json",
            "date": str(doc.get("date", "")),
            "engine_build": str(doc.get("engine_build", "")),
            "games": _games(doc),
            "seats": MATCH_SEATS,  # its figures are of 2-seat games
            "ordered": doc.get("ordered") is True,
        }
    return out


@bp.get("/bots")
@reads_query("game")
def bots_index() -> Response:
    """Every registered game's bots and levels (or one game's, `?game=`)."""
    wanted = request.args.get("game")
    if wanted is not None and wanted not in GAMES:
        raise ApiError(404, "unknown_game", unknown_game(wanted), "/game")
    return json_response(
        {
            # the level of POST /v1/suggest with neither a level nor a budget, and of a review
            "default_level": DEFAULT_LEVEL,
            "review_default_level": REVIEW_LEVEL,
            "review_default_levels": list(DEFAULT_LEVELS),
            "games": [game_bots(g) for g in GAMES if wanted in (None, g)],
        }
    )
