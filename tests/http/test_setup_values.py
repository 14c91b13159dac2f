"""A set-up's bad values are answered alike in both games and wherever a set-up is read.

The set-up is its game's document, read by its engine as a state or a catalog is: a value of
the wrong type, out of range, not one of the allowed ones, null, or a boolean where an
integer belongs is a 422 naming its game's clause, with the same code in both games for the
same field, every problem listed with its pointer: in POST /v1/games, in a replay's `setup`
and in a state's `history.setup` (POST /v1/record). Only a set-up that is not an object, or
whose `game` is no game, is refused by the HTTP layer (400): nothing reads it then.
"""

from __future__ import annotations

from typing import Any

import pytest
from http_support import check_response

MISSING = object()  # the field left out


# each game's valid set-up, and the clause of each field it shares with the other game
GAMES = {
    "architectura": {
        "setup": {"seats": 2, "seed": 1},
        "clauses": {"seats": "A-1.1", "seed": "A-1.6", "first_seat": "A-1.4", "catalog": "A-10"},
    },
    "fora-de-prumo": {
        "setup": {"game": "fora-de-prumo", "seats": 2, "seed": 1},
        "clauses": {"seats": "F-1.1", "seed": "F-1.9", "first_seat": "F-R5", "catalog": "F-2.1"},
    },
}

# the fields both games have: (field, bad value, code); the same code in both games
SHARED = [
    *[("seats", v, "invalid_seat_count") for v in ("3", 2.5, True, None, 1, 5, 20, -1, [2])],
    ("seats", MISSING, "missing_field"),
    *[("seed", v, "invalid_seed") for v in (-1, 2**64, "1", None, True, 1.5, {})],
    *[("first_seat", v, "invalid_first_seat") for v in (2, 9, -1, "0", None, True, 0.5)],
    *[("catalog", v, "unknown_catalog") for v in (5, "", None, [], "x" * 65, "nope", True)],
]
# each game's own fields: (field, bad value, code, clause, pointer below the field)
OWN = {
    "architectura": [
        *[("variant", v, "invalid_variant", "A-1.5", "") for v in ("expert", 1, None, True)],
        *[
            ("colours", v, "invalid_colours", "A-1.1", "")
            for v in ("red", [1, 2], ["red", "red"], None, ["red", "blue", "green", "x", "y"])
        ],
        *[
            ("replacements", v, "invalid_replacements", "A-1.5", "")
            for v in ({"a": "b"}, None, [{}] * 5, "x")
        ],
        ("replacements", [None], "invalid_replacements", "A-1.5", "/0"),
    ],
    "fora-de-prumo": [
        ("market_size", v, "invalid_market_size", "F-1.7", "")
        for v in (7, 3, "5", None, True, 4.5, [5])
    ],
}


def cases() -> list[tuple[str, str, Any, str, str, str]]:
    out = []
    for game, spec in GAMES.items():
        for field, value, code in SHARED:
            out.append((game, field, value, code, spec["clauses"][field], ""))
        for field, value, code, clause, below in OWN[game]:
            out.append((game, field, value, code, clause, below))
    return out


def with_value(setup: dict[str, Any], field: str, value: Any) -> dict[str, Any]:
    out = dict(setup)
    if value is MISSING:
        out.pop(field, None)
    else:
        out[field] = value
    return out


def problem(r: Any, path: str) -> dict[str, Any]:
    assert r.status_code == 422, (path, r.get_json())
    body: dict[str, Any] = check_response("POST", path, r)
    return body


@pytest.mark.parametrize(
    ("game", "field", "value", "code", "clause", "below"),
    cases(),
    ids=lambda v: repr(v)[:20],
)
def test_a_bad_set_up_value_is_one_answer_in_every_game_and_every_path(
    client: Any, game: str, field: str, value: Any, code: str, clause: str, below: str
) -> None:
    setup = GAMES[game]["setup"]
    state = client.post("/v1/games", json=setup).get_json()["state"]
    hist = state["history"]
    forged = {**state, "history": {**hist, "setup": with_value(hist["setup"], field, value)}}
    bad = with_value(setup, field, value)
    for path, body, at in [
        ("/v1/games", bad, ""),
        ("/v1/replay", {"setup": bad, "decisions": []}, "/setup"),
        ("/v1/record", {"state": forged}, "/state/history/setup"),
    ]:
        p = problem(client.post(path, json=body), path)
        where = f"{at}/{field}{below}"
        assert (p["code"], p["clause"], p["pointer"]) == (code, clause, where), (path, p)
        assert [(x["code"], x["clause"], x["pointer"]) for x in p["problems"]] == [
            (code, clause, where)
        ], path


@pytest.mark.parametrize("game", GAMES)
def test_every_bad_set_up_value_is_listed_at_once(client: Any, game: str) -> None:
    """Not the first problem only: each field's, in field order, in one 422."""
    setup = {**GAMES[game]["setup"], "seats": 5, "seed": None, "first_seat": "0"}
    clauses = GAMES[game]["clauses"]
    for path, body, at in [
        ("/v1/games", setup, ""),
        ("/v1/replay", {"setup": setup, "decisions": []}, "/setup"),
    ]:
        p = problem(client.post(path, json=body), path)
        assert [(x["code"], x["clause"], x["pointer"]) for x in p["problems"]] == [
            ("invalid_seat_count", clauses["seats"], f"{at}/seats"),
            ("invalid_seed", clauses["seed"], f"{at}/seed"),
            ("invalid_first_seat", clauses["first_seat"], f"{at}/first_seat"),
        ], path
        assert p["detail"].endswith("(and 2 more)")


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_catalog_is_listed_beside_the_other_problems(client: Any, game: str) -> None:
    setup = {**GAMES[game]["setup"], "seats": 5, "catalog": "nope"}
    p = problem(client.post("/v1/games", json=setup), "/v1/games")
    assert [(x["code"], x["pointer"]) for x in p["problems"]] == [
        ("invalid_seat_count", "/seats"),
        ("unknown_catalog", "/catalog"),
    ]


@pytest.mark.parametrize(
    ("game", "field", "value"),
    [
        ("architectura", "seats", 3.0),
        ("architectura", "first_seat", 1.0),
        ("fora-de-prumo", "seats", 3.0),
        ("fora-de-prumo", "first_seat", 1.0),
        ("fora-de-prumo", "market_size", 6.0),
        ("fora-de-prumo", "seed", 1e2),
    ],
)
def test_an_integral_number_is_an_integer_in_every_game(
    client: Any, game: str, field: str, value: float
) -> None:
    """JSON Schema's notion of an integer, for every integer of a set-up of either game:
    3.0 is 3, written as 3 in the state's history."""
    setup = {**GAMES[game]["setup"], field: value}
    r = client.post("/v1/games", json=setup)
    assert r.status_code == 200, r.get_json()
    written = check_response("POST", "/v1/games", r)["state"]["history"]["setup"][field]
    assert written == int(value) and type(written) is int


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"game": "chess", "seats": 2, "seed": 1}, "/game"),
        ({"game": 5, "seats": 2, "seed": 1}, "/game"),
        ({"game": None, "seats": 5}, "/game"),
    ],
)
def test_a_set_up_of_no_game_is_a_bad_request(client: Any, body: Any, pointer: str) -> None:
    """Which game's rules read a set-up is the envelope's to say: a `game` that names none
    is a 400, whatever the rest holds (alike in every game, since there is none)."""
    r = client.post("/v1/games", json=body)
    assert r.status_code == 400
    p = check_response("POST", "/v1/games", r)
    assert (p["code"], p["pointer"]) == ("invalid_request", pointer)
    assert [x["pointer"] for x in p["problems"]] == [pointer]


@pytest.mark.parametrize("game", GAMES)
def test_a_set_up_without_a_seed_gets_one_that_its_state_names(client: Any, game: str) -> None:
    """A-1.6, F-1.9: `seed` is optional; the service chooses one at random (0 to 2^64-1) and
    writes it in the state's history, so /v1/record and /v1/replay reproduce the game."""
    setup = {k: v for k, v in GAMES[game]["setup"].items() if k != "seed"}
    seeds = set()
    for _ in range(3):
        r = client.post("/v1/games", json=setup)
        state = check_response("POST", "/v1/games", r)["state"]
        seed = state["history"]["setup"]["seed"]
        assert isinstance(seed, int) and 0 <= seed < 2**64
        seeds.add(seed)
    assert len(seeds) == 3  # chosen at random, not a fixed default
    # the named seed deals the same game as sending it did
    again = client.post("/v1/games", json={**setup, "seed": seed}).get_json()["state"]
    assert again == state
    option = client.post("/v1/legal-moves", json={"state": state}).get_json()["options"][0]
    played = client.post("/v1/resolve", json={"state": state, "decisions": [option]})
    after = played.get_json()["state"]
    assert after["history"]["setup"]["seed"] == seed
    record = client.post("/v1/record", json={"state": after})
    assert record.status_code == 200 and record.get_json()["setup"]["seed"] == seed
    replay = client.post(
        "/v1/replay", json={"setup": after["history"]["setup"], "decisions": [option]}
    )
    assert replay.get_json()["state"] == after
    # a replay from a set-up without a seed names the one it chose too
    replayed = client.post("/v1/replay", json={"setup": setup, "decisions": []}).get_json()
    assert isinstance(replayed["state"]["history"]["setup"]["seed"], int)
