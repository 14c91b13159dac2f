"""The position notation (engine/<game>/position.py, POST /v1/position): every position at the
start of a turn of real games of both games, written and read back, is the same state; a puzzle
names only the cards that matter; inconsistent or unreadable positions are 422 problems."""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from http_support import check_response, schema_errors

import engine.architectura as arch
import engine.fora_de_prumo as fdp
from engine.architectura.position import read, write
from engine.errors import EngineError
from engine.games import engine


def _unreadable(read_position: Callable[[str], object], text: str, why: str) -> EngineError:
    """The error a game's position reader raises on `text`: an invalid_position saying `why`."""
    with pytest.raises(EngineError) as e:
        read_position(text)
    assert e.value.code == "invalid_position" and why in e.value.detail
    return e.value


def _turn_starts(setup: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    state = arch.new_game(setup)
    rng = random.Random(seed)
    out = []
    while not state["game_over"]:
        if state["resolving"] == [{"k": "turn", "seat": state["turn"]["seat"]}]:
            out.append(state)
        options = arch.legal_decisions(state)["options"]
        state, _ = arch.apply_all(state, [rng.choice(options)])
    return out


@pytest.mark.parametrize(
    ("seats", "variant", "seed"),
    [(2, "basic", 1), (3, "advanced", 2), (4, "advanced", 3), (4, "basic", 4)],
)
def test_every_turn_start_of_a_game_reads_back_to_the_same_state(
    seats: int, variant: str, seed: int
) -> None:
    states = _turn_starts(arch.tournament_setup(seed, seats, variant), seed)
    assert len(states) > 10
    for state in states:
        text = write(state)
        assert "\n" not in text and text.startswith(f"architectura {variant} ")
        assert arch.state_from_position(text) == state
        assert arch.position_of(state) == text


def test_a_puzzle_names_only_the_cards_that_matter() -> None:
    text = (
        "architectura basic 0:4 blue.palace,green.villa*,6/8 "
        "hand=theatre,barracks rest=deck flags=mf | hand=school tokens=1 rest=removed flags=mf"
    )
    state = arch.state_from_position(text)
    blue, green = state["seats"]
    assert blue["hand"] == ["blue.theatre", "blue.barracks"] and len(blue["deck"]) == 9
    assert green["deck"] == [] and len(green["removed"]) == 10 and green["tokens"] == 1
    assert state["city"][0][1][0]["token"] is True and state["city"][0][1][0]["value"] is not None
    assert state["pending"]["seat"] == 0
    assert {o["card"] for o in state["pending"]["options"]} == {"blue.theatre", "blue.barracks"}
    # written back, the rest is spelt out, and reads to the same state
    assert arch.state_from_position(arch.position_of(state)) == state


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("chess rnbqkbnr/pppppppp 0:1", "A position reads"),
        ("architectura expert 0:1 8/8 - | -", "basic or advanced"),
        ("architectura basic x:1 8/8 - | -", "must be a number"),
        ("architectura basic 0:1 8 - | -", "one street per seat"),
        ("architectura basic 0:1 7/8 - | -", "must have 8 cells, not 7"),
        ("architectura basic 0:1 blue.palace!,7/8 - | -", "not a city entry"),
        ("architectura basic 0:1 8/8 hand=palace flags=z | -", "flags are m and f"),
        ("architectura basic 0:1 8/8 colour=red | -", "Unknown seat key"),
        ("architectura basic 0:1 8/8 rest=hand | -", "rest is deck or removed"),
        ("architectura basic 0:1 8/8 -", "2 to 4 seats"),
        # a run of empty cells is counted before it is laid out, in ASCII digits only
        ("architectura basic 0:1 5,9/8 - | -", "must have 8 cells, not 14"),
        ("architectura basic 0:1 8/3000000 - | -", "must have 8 cells, not 3000000"),
        ("architectura basic 0:1 8/" + "9" * 1000 + " - | -", "not a city entry"),
        ("architectura basic 0:1 8/\u00b2 - | -", "not a city entry"),
        ("architectura basic 0:1 8/\u0668 - | -", "not a city entry"),
        ("architectura basic 0:1 8/\uff18 - | -", "not a city entry"),
        ("architectura basic 0:\u0661 8/8 - | -", "must be a number"),
        # one spelling (audit: each of these was read and written back otherwise)
        ("architectura basic 0:1 8/8 hand=school,,theatre | -", "empty item"),
        ("architectura basic 0:1 8/8 hand=school, | -", "empty item"),
        ("architectura basic 0:1 0,8/8 - | -", "not a city entry"),
        ("architectura basic 0:1 08/8 - | -", "not a city entry"),
        ("architectura basic -0:1 8/8 - | -", "must be a number"),
        ("architectura basic 00:1 8/8 - | -", "must be a number"),
    ],
)
def test_unreadable_positions_say_why(text: str, why: str) -> None:
    assert _unreadable(read, text, why).pointer.startswith("/position")


def test_a_run_of_empty_cells_costs_what_its_text_does() -> None:
    """'8/99999999' once laid out 10^8 empty cells (gigabytes) before counting them: the
    street's length is now checked first, so reading it allocates about what its text is."""
    tracemalloc.start()
    try:
        _unreadable(read, "architectura basic 0:1 8/99999999 - | -", "not 99999999")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


def test_a_digit_that_int_cannot_read_is_a_422_not_a_500(client: Any) -> None:
    """'\u00b2'.isdigit() is true and int('\u00b2') raises: the city's reader used the one, then
    the other, and the request got a 500."""
    r = client.post("/v1/position", json={"position": "architectura basic 0:1 8/\u00b2 - | -"})
    got = check_response("POST", "/v1/position", r)
    assert r.status_code == 422 and got["code"] == "invalid_position"
    assert got["pointer"] == "/position/city/1"


def test_http_builds_and_writes_positions(client: Any) -> None:
    text = (
        "architectura basic 0:1 8/8 hand=palace,theatre,barracks rest=deck | hand=school rest=deck"
    )
    r = client.post("/v1/position", json={"position": text})
    body = check_response("POST", "/v1/position", r)
    assert r.status_code == 200 and body["state"]["pending"]["seat"] == 0
    assert body["position"].startswith(
        "architectura basic 0:1 8/8 hand=palace,theatre,barracks deck="
    )
    back = check_response(
        "POST", "/v1/position", client.post("/v1/position", json={"state": body["state"]})
    )
    assert back == {"position": body["position"]}
    # the state plays on like any other
    move = client.post(
        "/v1/resolve", json={"state": body["state"], "decisions": ["blue.palace@1,1"]}
    )
    assert move.status_code == 200


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_a_catalog_beside_a_position_is_refused_not_ignored(client: Any, game: str) -> None:
    """Audit F7: a `catalog` sent beside a position was silently ignored (the state built was
    of the reference catalog, whatever was sent). A position is written with the reference
    catalog only, so the catalog is a 400 at /catalog that says to send the position alone,
    as the contract (PositionToBuild) already had it."""
    eng = engine(game)
    text = eng.position_of(eng.new_game({"game": game, "seats": 2, "seed": 1}))
    doc = {**eng.builtin_catalogs()["reference"].to_json(), "id": "mine"}
    body = {"position": text, "catalog": doc}
    assert schema_errors("PositionRequest", body)
    r = client.post("/v1/position", json=body)
    problem = check_response("POST", "/v1/position", r)
    assert r.status_code == 400 and problem["code"] == "invalid_request", problem
    assert problem["pointer"] == "/catalog" and "position alone" in problem["detail"]
    r = client.post("/v1/position", json={"position": text})
    assert r.status_code == 200 and r.get_json()["state"]["catalog"]["id"] == "reference"


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_a_key_given_twice_is_refused_not_read_last_wins(client: Any, game: str) -> None:
    """Audit: `hand=villa hand=school,…` (or `market=` twice) read the second and dropped the
    first without a word, as the JSON reader would with a duplicate key, which it refuses."""
    eng = engine(game)
    text = eng.position_of(eng.new_game({"game": game, "seats": 2, "seed": 1}))
    key = "hand=" if game == "architectura" else "market="
    at = text.index(key)
    twice = text[:at] + key + "x " + text[at:]
    r = client.post("/v1/position", json={"position": twice})
    problem = check_response("POST", "/v1/position", r)
    assert r.status_code == 422 and problem["code"] == "invalid_position", problem
    assert f"{key[:-1]!r} is given twice" in problem["detail"]
    assert client.post("/v1/position", json={"position": text}).status_code == 200


@pytest.mark.parametrize(
    ("body", "code", "pointer"),
    [
        ({"position": "architectura basic 0:1 8/8 hand=palace | -"}, "invalid_state", "/position"),
        (
            {"position": "architectura basic 0:1 8/8 hand=nothing rest=deck | rest=deck"},
            "invalid_state",
            "/position",
        ),
        ({"position": "chess 0:1 8/8"}, "position_not_supported", "/position"),
        ({"position": "fora-de-prumo 0:1 market=PR01 | - | -"}, "invalid_state", "/position"),
        (
            {"position": "fora-de-prumo 0:1 | building=SP01@0,0r9 | -"},
            "invalid_position",
            "/position",
        ),
        (
            {"position": "architectura basic 0:1 8/8 hand=p@lace | -"},
            "invalid_position",
            "/position",
        ),
    ],
)
def test_inconsistent_positions_are_422_problems(
    client: Any, body: dict[str, Any], code: str, pointer: str
) -> None:
    r = client.post("/v1/position", json=body)
    got = check_response("POST", "/v1/position", r)
    assert r.status_code == 422 and got["code"] == code and got["pointer"].startswith(pointer)


def test_only_turn_starts_are_written(client: Any) -> None:
    state = arch.new_game({"seats": 2, "seed": 42})
    state, _ = arch.apply_all(state, [state["pending"]["options"][0]])
    state, _ = arch.apply_all(state, [arch.decision_from_notation("green.school@1,2")])
    assert state["resolving"] != [{"k": "turn", "seat": state["turn"]["seat"]}]
    r = client.post("/v1/position", json={"state": state})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid_position"
    for bad in ({}, {"position": "x", "state": state}, {"position": ""}):
        assert client.post("/v1/position", json=bad).status_code == 400


def _fdp_turn_starts(seats: int, seed: int) -> list[dict[str, Any]]:
    state = fdp.new_game({"game": "fora-de-prumo", "seats": seats, "seed": seed, "first_seat": 1})
    rng = random.Random(seed)
    out = []
    while not state["game_over"]:
        t = state["turn"]
        step = "final" if state["final_round"] is not None else "buy"
        if t["step"] == step and not t["peeked"] and t["bought"] is None:
            out.append(state)
        options = fdp.legal_decisions(state)["options"]
        state, _ = fdp.apply_all(state, [rng.choice(options)])
    return out


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_every_fora_de_prumo_turn_start_reads_back_to_the_same_state(seats: int, seed: int) -> None:
    states = _fdp_turn_starts(seats, seed)
    assert len(states) > 10 and any(s["final_round"] for s in states)
    assert any(s["seats"][0]["work"]["building"] for s in states)
    for state in states:
        text = fdp.position_of(state)
        assert "\n" not in text and text.startswith(f"fora-de-prumo {state['turn']['seat']}:")
        assert fdp.state_from_position(text) == state


def test_a_fora_de_prumo_position_over_http(client: Any) -> None:
    state = _fdp_turn_starts(2, 5)[6]
    r = client.post("/v1/position", json={"state": state})
    text = check_response("POST", "/v1/position", r)["position"]
    assert " building=" in text and " | " in text
    built = check_response(
        "POST", "/v1/position", client.post("/v1/position", json={"position": text})
    )
    assert built["state"] == {**state, "composed": True} and built["position"] == text


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("fora-de-prumo 0:1 market=PR01", "A position reads"),
        ("fora-de-prumo x:1 | - | -", "must be a number"),
        ("fora-de-prumo 0:1 colour=red | - | -", "Unknown table key"),
        ("fora-de-prumo 0:1 | wall=SP01 | -", "Unknown seat key"),
        ("fora-de-prumo 0:1 | building=SP01@0,0 | -", "is not a placement"),
        ("fora-de-prumo 0:1 | building=SP01@\u0660,0r0 | -", "is not a placement"),
        ("fora-de-prumo 0:1 | building=SP01@0,0r0;SP02@1,0r0 | -", "separated by commas"),
        ("fora-de-prumo 0:1 | clones=CO01 | -", "card>target"),
        ("fora-de-prumo 0:1 final=1 | - | -", "final is T>s,s"),
        ("fora-de-prumo 0:1 | hand=S P | -", "not key=value"),
        ("fora-de-prumo 0:1 | hand=SP01,,SP02 | -", "empty item"),
        ("fora-de-prumo 0:1 market=,PR01 | - | -", "empty item"),
        ("fora-de-prumo 01:1 | - | -", "must be a number"),
    ],
)
def test_unreadable_fora_de_prumo_positions_say_why(text: str, why: str) -> None:
    from engine.fora_de_prumo.position import read as fdp_read

    _unreadable(fdp_read, text, why)


def test_the_positions_of_the_notation_page_read_as_written(client: Any) -> None:
    """docs/notation.md's example positions are read by /v1/position as pasted (its Fora de
    Prumo example once left out most of the cards in use), and one that says where every
    card is (no `rest=`) is written back the same."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "notation.md").read_text()
    blocks = [b.strip() for b in page.split("```text\n")[1:]]
    examples = [b.split("\n```", 1)[0] for b in blocks]
    positions = [e for e in examples if e.startswith(("architectura ", "fora-de-prumo "))]
    assert {p.split()[0] for p in positions} == {"architectura", "fora-de-prumo"}
    for text in positions:
        r = client.post("/v1/position", json={"position": text})
        assert r.status_code == 200, (text, r.get_json())
        if "rest=" not in text:
            assert r.get_json()["position"] == text
