"""One standard for every refusal of a request's envelope (issue 29): a field sent with the
wrong type says the type and range it takes and what was sent, and a misspelt field name gets
the closest names, as the games' readers say it of a set-up or a decision.

The fields are those of openapi.yaml: every property of every POST operation's request
schema (each branch of a `oneOf`, and the fields of an object property that lists its own),
sent beside the operation's first request example (tests/http/test_envelope.py walks them
alike). A set-up's fields are its game's (POST /v1/games: tests/http/test_setup_values.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from http_support import check_response, make_app, resolve_ref, spec
from test_envelope import POSTS, post

from engine.describe import brief

CLIENT = make_app().test_client()
SETUP_PATHS = ("/v1/games",)  # its fields are its game's, read by its engine (422)

# a value of another JSON type than each type's
WRONG = {"integer": "0", "number": "0", "string": 7, "boolean": "yes", "array": 7, "object": 7}


def _branches(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    schema = resolve_ref(schema)
    if "oneOf" in schema:
        for sub in schema["oneOf"]:
            yield from _branches(sub)
    else:
        yield schema


def _fields() -> Iterator[tuple[str, tuple[str, ...], dict[str, Any]]]:
    """(path, the field's place in the body, its schema) of every request field."""
    for path, ops in spec()["paths"].items():
        if "post" not in ops or path in SETUP_PATHS:
            continue
        content = resolve_ref(ops["post"]["requestBody"])["content"]["application/json"]
        for branch in _branches(content["schema"]):
            for name, sub in branch.get("properties", {}).items():
                sub = resolve_ref(sub)
                yield path, (name,), sub
                if sub.get("additionalProperties") is False and "properties" in sub:
                    for inner, inner_schema in sub["properties"].items():
                        yield path, (name, inner), resolve_ref(inner_schema)


FIELDS = sorted({(p, place): s for p, place, s in _fields()}.items())


def _with(body: dict[str, Any], place: tuple[str, ...], value: Any) -> dict[str, Any]:
    out = dict(body)
    if len(place) == 1:
        out[place[0]] = value
    else:
        out[place[0]] = {place[1]: value}
    return out


def _problem(r: Any, path: str, pointer: str) -> dict[str, Any]:
    body = check_response("POST", path, r)
    assert r.status_code == 400, body
    found = [p for p in body["problems"] if p["pointer"] == pointer]
    assert found, body
    problem: dict[str, Any] = found[0]
    return problem


def test_the_walk_reaches_every_wrapper() -> None:
    paths = {p for (p, _), _ in FIELDS}
    assert paths == set(POSTS) - set(SETUP_PATHS)
    places = {(p, place) for (p, place), _ in FIELDS}
    for want in [
        ("/v1/suggest", ("seat",)),
        ("/v1/suggest", ("budget", "iterations")),
        ("/v1/review", ("level",)),
        ("/v1/resolve", ("events_for",)),
        ("/v1/render", ("last_events",)),
        ("/v1/replay", ("setup",)),
    ]:
        assert want in places, want


@pytest.mark.parametrize(("path", "place", "schema"), [(p, pl, s) for (p, pl), s in FIELDS])
def test_a_wrong_type_names_the_type_and_range(
    path: str, place: tuple[str, ...], schema: dict[str, Any]
) -> None:
    wrong = WRONG.get(schema.get("type", "object"), 7)
    r = post(path, _with(POSTS[path], place, wrong))
    pointer = "/" + "/".join(place)
    detail = _problem(r, path, pointer)["detail"]
    name = place[-1]
    assert detail.startswith(f"{name} must be "), detail
    assert detail.endswith(f", not {brief(wrong)}."), detail
    if schema.get("type") == "integer":
        assert f"an integer from {schema.get('minimum', 0)} to {schema['maximum']}" in detail
    for choice in schema.get("enum", []):
        assert repr(choice) in detail, detail


@pytest.mark.parametrize(("path", "place"), [(p, pl) for (p, pl), _ in FIELDS if len(pl[-1]) >= 3])
def test_a_misspelt_name_gets_a_did_you_mean(path: str, place: tuple[str, ...]) -> None:
    name = place[-1]
    misspelt = name[:-2] + name[-1] + name[-2]  # the last two letters swapped
    body = dict(POSTS[path])
    if len(place) == 1:
        body[misspelt] = body.pop(name, 1)
    else:
        body[place[0]] = {misspelt: 1}
    pointer = "/" + "/".join([*place[:-1], misspelt])
    problem = _problem(post(path, body), path, pointer)
    assert problem["code"] == "unknown_field"
    assert "Did you mean" in problem["detail"] and repr(name) in problem["detail"], problem


def test_the_sentences_of_the_issue() -> None:
    r = CLIENT.post("/v1/view", json={"state": {}, "seat": "0"})
    assert r.get_json()["detail"] == "/seat: seat must be an integer from 0 to 3, not '0'."
    r = CLIENT.post("/v1/suggest", json={"state": {}, "seat": 0, "levle": "easy"})
    assert r.get_json()["detail"] == "/levle: Unknown field. Did you mean 'level'?"
    r = CLIENT.post("/v1/resolve", json={"state": {}, "decision": [{}]})
    assert "/decision: Unknown field. Did you mean 'decisions'?" in [
        f"{p['pointer']}: {p['detail']}" for p in r.get_json()["problems"]
    ]
    r = CLIENT.post("/v1/suggest", json={"state": {}, "level": "expret"})
    assert r.get_json()["detail"] == (
        "/level: level must be one of 'easy', 'medium', 'hard', 'expert', 'master', not 'expret'. "
        "Did you mean 'expert'?"
    )
    # an array's entry is named by its place
    r = CLIENT.post("/v1/review", json={"state": {}, "seats": [0, "1"]})
    assert r.get_json()["pointer"] == "/seats/1"
    assert r.get_json()["detail"] == "/seats/1: seats[1] must be an integer from 0 to 3, not '1'."
    # a name far from every field's: the fields the request takes
    r = CLIENT.post("/v1/view", json={"state": {}, "seat": 0, "zzzz": 1})
    assert r.get_json()["detail"] == (
        "/zzzz: Unknown field; this request takes 'catalog', 'seat', 'state'."
    )


def test_a_schema_check_on_a_good_value_is_kept() -> None:
    """A field the field itself takes but the body's own checks refuse keeps their sentence."""
    r = CLIENT.post(
        "/v1/suggest", json={"state": {}, "seat": 0, "level": "easy", "budget": {"iterations": 5}}
    )
    assert r.get_json()["detail"] == "/budget: Give either a level or a budget, not both."


def test_every_combination_is_one_answer() -> None:
    """Several wrong fields: each named in its own words (and counted)."""
    r = CLIENT.post("/v1/resolve", json={"state": 1, "decisions": 2, "notation": 3})
    details = sorted(p["detail"] for p in r.get_json()["problems"])
    assert details == [
        "decisions must be an array of at most 2000 decisions (MAX_DECISIONS), not 2.",
        "notation must be true or false, not 3.",
        "state must be an object, not 1.",
    ]


def _state_problems(game: str, change: Any) -> list[tuple[str, str]]:
    """The (pointer, detail) problems of POST /v1/view for a new game's state that `change`
    made malformed."""
    state = CLIENT.post("/v1/games", json={"game": game, "seats": 2, "seed": 3}).get_json()
    state = state["state"]
    change(state)
    r = CLIENT.post("/v1/view", json={"state": state, "seat": 0})
    body = check_response("POST", "/v1/view", r)
    assert r.status_code == 422
    return [(p["pointer"], p["detail"]) for p in body["problems"]]


@pytest.mark.parametrize(
    "game, change, expected",
    [
        # a string where a fountain belongs: not also its seat and its cell "not null"
        (
            "architectura",
            lambda s: s.update(fountains=["zz"]),
            [("/state/fountains/0", "must be an object")],
        ),
        # a stack's entry that is not an object: not also "None is not a card"
        (
            "architectura",
            lambda s: s["city"][0].__setitem__(0, ["zz"]),
            [("/state/city/0/0/0", "must be an object")],
        ),
        (
            "fora-de-prumo",
            lambda s: s["seats"][0]["work"].update(building=["zz"]),
            [("/state/seats/0/work/building/0", "must be an object, not 'zz'")],
        ),
        # an array of the wrong length where a cell belongs is quoted, not "not an array"
        (
            "architectura",
            lambda s: s.update(fountains=[{"cell": [1, 2, 3], "seat": 0}]),
            [
                (
                    "/state/fountains/0/cell",
                    "a cell is an array [street, block] of two integers, both counted from 1, "
                    "not [1, 2, 3]",
                )
            ],
        ),
        # null and true named as JSON names them, not as Python's None and True
        (
            "architectura",
            lambda s: s["city"][0].__setitem__(0, [{"card": None}]),
            [("/state/city/0/0/0/card", "null is not a card of this game")],
        ),
    ],
)
def test_a_malformed_state_names_each_problem_once_as_sent(
    game: str, change: Any, expected: list[tuple[str, str]]
) -> None:
    """A value refused for its type is one problem: before, its fields were read from a
    stand-in and each reported too (a string where a Fora de Prumo card entry belongs gave
    3 problems, where one seat's entry gave 25), pointing at fields the client never sent."""
    assert _state_problems(game, change) == expected
