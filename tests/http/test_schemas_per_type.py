"""openapi.yaml has one schema per decision type and per event type, for both games
(discriminated by `type`), and they do not drift from the engines: seeded random games of both
games are played and every option and every event (the referee's log, each seat's copy, with
notation) is validated against its own type's schema."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from http_support import advanced_setup, resolve_ref, spec, validator

from app import notation
from engine.architectura.serialize import DECISION_TYPES
from engine.games import GameModule, engine

# (game, decision union, event union); the set-ups (_setup): Architectura's basic and advanced
# games and Fora de Prumo's market variants, 2 to 4 seats.
GAMES = [
    ("architectura", "Decision", "Event"),
    ("fora-de-prumo", "ForaDePrumoDecision", "ForaDePrumoEvent"),
]
GAMES_PLAYED = 12  # per game: a few seconds in all


def _setup(game: str, i: int) -> dict[str, Any]:
    seats = 2 + i % 3
    if game == "architectura":
        return advanced_setup(seats, i) if i % 2 else {"seats": seats, "seed": i}
    return {"game": game, "seats": seats, "seed": i, "market_size": 4 + i % 3}


@cache
def _validator(name: str) -> Any:
    return validator(f"/components/schemas/{name}")


def schema_errors(name: str, value: Any) -> list[str]:
    return [e.message for e in _validator(name).iter_errors(value)]


def _distinct(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each different object once (the same option is listed at many steps)."""
    return list({json.dumps(x, sort_keys=True): x for x in items}.values())


def _mapping(union: str) -> dict[str, str]:
    schema = spec()["components"]["schemas"][union]
    assert schema["discriminator"]["propertyName"] == "type"
    mapping: dict[str, str] = schema["discriminator"]["mapping"]
    return {t: ref.rsplit("/", 1)[1] for t, ref in mapping.items()}


def _played(game: str) -> Iterator[tuple[GameModule, dict[str, Any], list[dict[str, Any]]]]:
    """(engine, an option listed, the events of applying the option chosen) for every
    decision of GAMES_PLAYED seeded random games; each option is yielded once per step."""
    eng = engine(game)
    for i in range(GAMES_PLAYED):
        state = eng.new_game(_setup(game, i))
        rnd = random.Random(i)
        while not state["game_over"]:
            options = eng.legal_decisions(state)["options"]
            choice = rnd.choice(options)
            state, events = eng.apply_all(state, [choice])
            for o in options:
                yield eng, o, (events if o is choice else [])


@pytest.fixture(scope="module", params=GAMES, ids=[g for g, *_ in GAMES])
def played(request: Any) -> tuple[str, str, str, list[Any], list[Any]]:
    """(game, decision union, event union, options, events) of the random games, each
    different one once; the events in the referee's copy, each seat's copy (events_for) and
    with notation."""
    game, dec_union, ev_union = request.param
    options, events = [], []
    for eng, option, evs in _played(game):
        options.append(option)
        if not evs:
            continue
        events += evs
        for seat in range(4):
            events += eng.events_for_seat(evs, seat)
        annotated = [dict(e) for e in evs]
        notation.annotate(eng, annotated, [option])
        events += annotated
    return game, dec_union, ev_union, _distinct(options), _distinct(events)


def test_every_per_type_schema_names_its_type() -> None:
    for _, dec_union, ev_union in GAMES:
        for union in (dec_union, ev_union):
            schemas = spec()["components"]["schemas"]
            mapping = _mapping(union)
            refs = [r["$ref"].rsplit("/", 1)[1] for r in schemas[union]["oneOf"]]
            assert sorted(refs) == sorted(mapping.values()), union
            for t, name in mapping.items():
                props = schemas[name]["properties"]
                assert props["type"] == {"const": t}, name
                assert "type" in schemas[name]["required"]
                assert schemas[name]["additionalProperties"] is False


def test_architectura_decision_schemas_are_the_engines_decision_types() -> None:
    schemas = spec()["components"]["schemas"]
    mapping = _mapping("Decision")
    assert set(mapping) == set(DECISION_TYPES)
    for t, fields in DECISION_TYPES.items():
        schema = schemas[mapping[t]]
        assert set(schema["properties"]) == {"seat", "type", *fields}, t
        assert set(schema["required"]) == {"seat", "type", *fields}, t


def test_every_option_matches_its_types_schema(played: Any) -> None:
    game, dec_union, _, options, _ = played
    mapping = _mapping(dec_union)
    seen = set()
    for o in options:
        assert o["type"] in mapping, f"{game}: no schema for decision type {o['type']!r}"
        errors = schema_errors(mapping[o["type"]], o)
        assert not errors, f"{game} option {o}: {errors[:3]}"
        if o["type"] not in seen:  # the union too (once per type: its oneOf is slow)
            assert not schema_errors(dec_union, o), f"{game} option {o} fails the union"
        seen.add(o["type"])
    # every option is seen: the games really were played through
    assert len(seen) >= 3


def test_every_event_matches_its_types_schema(played: Any) -> None:
    game, _, ev_union, _, events = played
    mapping = _mapping(ev_union)
    seen: set[str] = set()
    for ev in events:
        assert ev["type"] in mapping, f"{game}: no schema for event type {ev['type']!r}: {ev}"
        seen.add(ev["type"])
        errors = schema_errors(mapping[ev["type"]], ev)
        assert not errors, f"{game} event {ev}: {errors[:3]}"
    firsts = {e["type"]: e for e in reversed(events)}.values()
    assert not [e for e in firsts if schema_errors(ev_union, e)]
    assert "game_over" in seen
    assert any("notation" in e for e in events) and any("hidden" in e for e in events)


def test_a_wrong_event_or_decision_is_refused_by_its_schema() -> None:
    """The per-type schemas are strict: a field of another type, or a missing one, fails."""
    assert schema_errors("Event", {"type": "passed", "seat": 0, "clause": "A-3.2"})  # decision
    assert schema_errors(
        "Event", {"type": "passed", "seat": 0, "clause": "A-3.2", "decision": 0, "card": "x.y"}
    )
    assert schema_errors("Event", {"type": "no_such_event", "clause": "A-1", "decision": 0})
    assert schema_errors("Decision", {"seat": 0, "type": "play", "card": "blue.villa"})
    assert schema_errors("Decision", {"seat": 0, "type": "mulligan", "card": "blue.villa"})
    assert not schema_errors(
        "Decision", {"seat": 0, "type": "play", "card": "blue.villa", "cell": None}
    )
    assert resolve_ref({"$ref": "#/components/schemas/ArchitecturaPlay"})["required"] == [
        "seat",
        "type",
        "card",
        "cell",
    ]


@pytest.mark.parametrize("game", [g for g, *_ in GAMES])
def test_every_seats_view_matches_the_view_schema(game: str) -> None:
    """Each seat's view of every few states of random games validates against PlayerView
    (Architectura's generated from the state's declaration and the view's changes to it)."""
    eng = engine(game)
    checked = 0
    for i in range(4):
        state = eng.new_game(_setup(game, i))
        rnd = random.Random(i)
        step = 0
        while True:
            if step % 7 == 0 or state["game_over"]:
                for seat in range(len(state["seats"])):
                    view = eng.player_view(state, seat)
                    errors = schema_errors("PlayerView", view)
                    assert not errors, f"{game} view of seat {seat}: {errors[:3]}"
                    checked += 1
            if state["game_over"]:
                break
            choice = rnd.choice(eng.legal_decisions(state)["options"])
            state, _ = eng.apply_all(state, [choice])
            step += 1
    assert checked > 20
    # strict: a view with a seat's hidden deck shown, or a state, is no view
    view = eng.player_view(eng.new_game(_setup(game, 0)), 0)
    assert schema_errors("PlayerView", {**view, "rng": "0123456789abcdef"})
    assert schema_errors("PlayerView", eng.new_game(_setup(game, 0)))
