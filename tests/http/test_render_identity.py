"""Byte identity of the pictures (POST /v1/render) with commit bcfcb88 (issue 17).

The drawing code was rewritten for shorter functions; the pictures must not move by one byte.
A fixed set of seeded games of both games is played in memory and stopped at several points
(opening, middle game, finished); each position is drawn through the HTTP route from the
referee's side and from seats' sides, in several languages, plus a custom catalog with hostile
names and a composed position. Each picture's SHA-256 is compared with the digests recorded
from bcfcb88 in tests/data/render_identity_bcfcb88.json, except Fora de Prumo's 70, which
issue 18 changed on purpose (space cards in hands and the market drawn with their walls and
doors, chips 52 px tall) and re-recorded (the fixture's `fora-de-prumo` key says so), and 37 in
pt, fr or de that issue 30 changed on purpose (German's "Sie", Fora de Prumo's decision kind
translated: the `issue-30` key; every English picture unchanged); pictures
asked for with `last_events` are not among these (tests/http/test_render_marks.py). The
fixture was written by this same file run against a checkout of that commit:

    mkdir /tmp/base && git archive bcfcb88 | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base .venv/bin/python -P tests/http/test_render_identity.py \\
        --write tests/data/render_identity_bcfcb88.json
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import sys
from functools import cache, partial
from pathlib import Path
from typing import Any

from app import create_app
from app.i18n import gettext
from app.render import RENDERERS
from engine.games import engine
from engine.render.board import Board

FIXTURE = Path(__file__).parents[1] / "data" / "render_identity_bcfcb88.json"
LANGS = ("en", "pt", "fr", "de")
# (game, seats, seed, decisions before stopping; None = the whole game)
POSITIONS = [
    (game, seats, seed, stop)
    for game in ("architectura", "fora-de-prumo")
    for seats, seed in ((2, 1), (3, 2), (4, 3))
    for stop in (6, 40, 160, None)
] + [  # Fora de Prumo: a spent designer and a converted space; a clone and the final round
    ("fora-de-prumo", 2, 3, 30),
    ("fora-de-prumo", 2, 0, 58),
]
HOSTILE = '<script>alert("x")</script>&<b'


def position(game: str, seats: int, seed: int, stop: int | None) -> dict[str, Any]:
    eng: Any = engine(game)
    g = eng.new_game_internal(eng.tournament_setup(seed, seats, "advanced"))
    rnd = random.Random(seed)
    done = 0
    while not eng.is_terminal(g) and (stop is None or done < stop):
        eng.apply_action(g, rnd.choice(eng.legal_actions(g)))
        done += 1
    state: dict[str, Any] = eng.game_to_json(g)
    return state


@cache
def _client() -> Any:
    return create_app({"TESTING": True, "LOG_LEVEL": "WARNING"}).test_client()


def draw(body: dict[str, Any], lang: str) -> bytes:
    r = _client().post("/v1/render", json=body, headers={"Accept-Language": lang})
    assert r.status_code == 200, r.get_data(as_text=True)[:400]
    data: bytes = r.get_data()
    return data


def _hostile(game: str) -> tuple[dict[str, Any], dict[str, Any]]:
    eng: Any = engine(game)
    doc = copy.deepcopy(eng.builtin_catalogs()["reference"].to_json())
    doc["id"] = "hostile"
    for card in doc["cards"]:
        for key in ("name", "text", "gloss"):
            if key in card:
                card[key] = HOSTILE
    setup = {**eng.tournament_setup(4, 2, None), "catalog": doc}
    state, _ = eng.apply_all(eng.new_game(setup), [], doc)
    rnd = random.Random(4)
    for _ in range(30):
        if state["game_over"]:
            break
        state, _ = eng.apply_all(state, [rnd.choice(state["pending"]["options"])], doc)
    return state, doc


def _composed(game: str, lang: str) -> bytes:
    """A composed position's picture (its heading says so), drawn by the renderer itself."""
    eng: Any = engine(game)
    state = position(game, 2, 7, 20)
    g = eng.load(state)
    board = Board(
        state, g, None, eng.final_scores(g), translate=partial(gettext, lang), composed=True
    )
    return RENDERERS[game](board).encode()


def pictures() -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for k, (game, seats, seed, stop) in enumerate(POSITIONS):
        state = position(game, seats, seed, stop)
        name = f"{game}-{seats}p-{seed}-{stop or 'end'}"
        lang = LANGS[k % len(LANGS)]
        out[f"{name}-referee-{lang}"] = draw({"state": state}, lang)
        out[f"{name}-referee-en"] = draw({"state": state}, "en")
        for seat in range(seats):
            out[f"{name}-seat{seat}-{lang}"] = draw({"state": state, "seat": seat}, lang)
    for game in ("architectura", "fora-de-prumo"):
        state, doc = _hostile(game)
        for lang in ("en", "de"):
            out[f"{game}-hostile-{lang}"] = draw({"state": state, "catalog": doc}, lang)
            out[f"{game}-hostile-seat1-{lang}"] = draw(
                {"state": state, "catalog": doc, "seat": 1}, lang
            )
        for lang in ("en", "fr"):
            out[f"{game}-composed-{lang}"] = _composed(game, lang)
    return out


@cache
def digests() -> dict[str, str]:
    return {k: hashlib.sha256(v).hexdigest() for k, v in pictures().items()}


def _recorded() -> dict[str, str]:
    data: dict[str, str] = json.loads(FIXTURE.read_text())["digests"]
    return data


def test_every_picture_matches_bcfcb88() -> None:
    now, then = digests(), _recorded()
    assert set(now) == set(then)
    moved = sorted(k for k in now if now[k] != then[k])
    assert not moved, f"{len(moved)} pictures differ from bcfcb88's: {moved[:8]}"


if __name__ == "__main__":
    if sys.argv[1:2] != ["--write"] or len(sys.argv) != 3:
        sys.exit("usage: test_render_identity.py --write FILE")
    record = {
        "recorded_from": "bcfcb88",
        "how": "see tests/http/test_render_identity.py",
        "digests": digests(),
    }
    Path(sys.argv[2]).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"{len(record['digests'])} digests written")
