"""The envelope's fast path (app/schemas.py `load`): for any body, the same data or the same
ValidationError as marshmallow's `schema.load` (issue 10)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from marshmallow import Schema, ValidationError

from app import schemas

SCHEMAS = {
    "state": schemas.STATE,
    "resolve": schemas.RESOLVE,
    "view": schemas.VIEW,
    "replay": schemas.REPLAY,
    "game_setup": schemas.GAME_SETUP,
}
# values of every kind the fields meet: right and wrong types, edges of lengths and ranges
VALUES: list[Any] = [
    None, True, False, 0, 1, 3, 4, -1, 3.0, 2.5, 2**70, "", "x", "a" * 200, "a" * 201,
    {}, {"game": "architectura"}, [], [{}], ["p"], [{"type": "play"}, "p 1 2"], [1], [None],
    [{}] * 101, [""], ["a" * 201],
]  # fmt: skip
GOOD: dict[str, list[Any]] = {  # values each field accepts
    "state": [{}, {"game": "architectura"}], "decisions": [[{}], ["p"], [{"t": 1}, "x"]],
    "catalog": [{}], "events_for": [0, 3, [0, 2]], "notation": [True, False], "seat": [0, 3],
    "setup": [{"seats": 2, "seed": 1}], "record": [{}], "game": ["fora-de-prumo"],
    "seats": [2, 16], "seed": [0, 2**64 - 1],
}  # fmt: skip


def outcome(schema: Schema, body: dict[str, Any], fast: bool) -> tuple[str, Any]:
    try:
        out = schemas.load(schema, body) if fast else schema.load(body)
    except ValidationError as e:
        return "error", e.messages
    return "data", out


def random_body(rnd: random.Random, schema: Schema) -> dict[str, Any]:
    """Mostly the schema's own fields with values they accept; now and then a wrong value,
    a field left out or an unknown one."""
    body = {}
    for name in schema.fields:
        if rnd.random() < 0.75:
            good = GOOD.get(name, [])
            body[name] = rnd.choice(good if good and rnd.random() < 0.8 else VALUES)
    if rnd.random() < 0.05:
        body["unknown"] = rnd.choice(VALUES)
    return body


@pytest.mark.parametrize("name", list(SCHEMAS))
def test_fast_load_answers_as_marshmallow(
    make_app: Any, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a set-up without a seed gets one at random (engine.setup_fields.seeded): the same here
    monkeypatch.setattr("engine.setup_fields.random_seed", lambda: 7)
    schema = SCHEMAS[name]
    rnd = random.Random(name)
    with make_app(MAX_DECISIONS=100).test_request_context():
        taken = 0
        for _ in range(3000):
            body = random_body(rnd, schema)
            got = outcome(schema, body, fast=True)
            assert got == outcome(schema, body, fast=False), body
            taken += got[0] == "data"
        assert taken > 50  # the bodies reach the accepting side too


def test_well_formed_resolve_skips_marshmallow(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    state = {"game": "architectura", "seats": []}
    body = {"state": state, "decisions": [{"type": "pass"}, "p 1"], "events_for": 1}
    with app.test_request_context():

        def refuse(*a: Any, **k: Any) -> Any:
            raise AssertionError("marshmallow was asked")

        monkeypatch.setattr(schemas.RESOLVE, "load", refuse)
        out = schemas.load(schemas.RESOLVE, body)
    assert out == body and out["state"] is not state  # a copy, as fields.Dict loads it
    assert out["decisions"] is not body["decisions"]


def test_schemas_beyond_the_fast_path_go_to_marshmallow() -> None:
    """A schema-level validator (replay's one start) or a field kind the fast path does not
    cover (the Architectura set-up's strings) keeps marshmallow for every body."""
    assert schemas._plain_schema(schemas.REPLAY) is None
    assert schemas._plain_schema(schemas.SETUP) is None
    assert schemas._plain_schema(schemas.RESOLVE) is not None
