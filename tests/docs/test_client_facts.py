"""What a bot client's author reads must be what the service does (issue 29): the default
level docs/bots.md names, the set-up defaults of docs/fora-de-prumo/state.md, and what
GET /v1/bots says of its defaults and its ratings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from http_support import check_response, make_app

from ai.service import DEFAULT_LEVEL
from app.review import REVIEW_LEVEL

ROOT = Path(__file__).resolve().parents[2]
CLIENT = make_app().test_client()


def test_the_default_level_of_the_docs_is_the_services() -> None:
    text = (ROOT / "docs" / "bots.md").read_text()
    said = re.findall(r"With neither a level nor a budget, `(\w+)` is used", text)
    assert said == [DEFAULT_LEVEL]
    state = CLIENT.post("/v1/games", json={"seats": 2, "seed": 1}).get_json()["state"]
    answer = CLIENT.post("/v1/suggest", json={"state": state}).get_json()
    assert answer["level"] == DEFAULT_LEVEL


def _setup_rows() -> list[tuple[str, str]]:
    """(field, default) of the set-up table of docs/fora-de-prumo/state.md."""
    text = (ROOT / "docs" / "fora-de-prumo" / "state.md").read_text()
    table = text.split("## Set-up", 1)[1].split("\n\n")[2]
    rows = [line.split("|")[1:3] for line in table.splitlines()[2:]]
    return [(f.strip().strip("`"), d.strip()) for f, d in rows]


@pytest.mark.parametrize(("field", "default"), _setup_rows())
def test_each_set_up_default_of_the_docs_is_the_services(field: str, default: str) -> None:
    """A set-up without the field: refused when the table says it is required, a seed
    chosen at random when it says so, else the state holds the default it names."""
    setup = {"game": "fora-de-prumo", "seats": 2, "seed": 1}
    if field == "game":
        assert default == "—"
        return
    without = {k: v for k, v in setup.items() if k != field}
    r = CLIENT.post("/v1/games", json=without)
    if "required" in default:
        assert r.status_code == 422 and field in r.get_json()["detail"]
        return
    state = check_response("POST", "/v1/games", r)["state"]
    if default == "chosen at random":
        seeds = {state["history"]["setup"][field]}
        seeds |= {
            CLIENT.post("/v1/games", json=without).get_json()["state"]["history"]["setup"][field]
            for _ in range(3)
        }
        assert len(seeds) > 1
        return
    value = state[field]["id"] if field == "catalog" else state[field]
    assert str(value) == default.strip('`"'), (field, value, default)


def test_the_bots_say_their_defaults_and_the_seats_of_their_ratings() -> None:
    body = check_response("GET", "/v1/bots", CLIENT.get("/v1/bots"))
    assert body["default_level"] == DEFAULT_LEVEL == "hard"
    assert body["review_default_level"] == REVIEW_LEVEL == "expert"
    assert body["review_default_levels"] == ["medium", "hard", "expert"]  # ai/review.py
    for game in body["games"]:
        assert game["ladder"]["seats"] == 2
