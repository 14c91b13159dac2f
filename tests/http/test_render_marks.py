"""POST /v1/render's `last_events` (what the last decision changed, class `last-move`) and
Fora de Prumo's space cards drawn with their walls, doors and symbols off the building
(docs/render.md)."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_render import ARCH, FDP, SVG_NS, fdp_state, svg_of

from app.render.marks import MAX_EVENT_FIELDS, MAX_LAST_EVENTS


@pytest.fixture(scope="module")
def client(make_app: Any) -> Any:
    return make_app().test_client()


def after(eng: Any, state: dict[str, Any], seed: int, n: int) -> tuple[dict[str, Any], list[Any]]:
    """`n` random legal decisions: the state, and the events of the last."""
    rnd = random.Random(seed)
    events: list[Any] = []
    for _ in range(n):
        state, events = eng.apply_all(state, [rnd.choice(state["pending"]["options"])])
    return state, events


def marked(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter() if "last-move" in (e.get("class") or "").split()]


def named(events: list[dict[str, Any]]) -> tuple[set[str], set[str]]:
    """The cards and cells (as data-cell writes them) the events name, read independently."""
    cards: set[str] = set()
    cells: set[str] = set()
    for e in events:
        for f in ("card", "target", "designer"):
            if isinstance(e.get(f), str):
                cards.add(e[f])
        cards.update(c for c in e.get("cards", []) if isinstance(c, str))
        for f in ("cell", "from", "to"):
            if isinstance(e.get(f), list):
                cells.add(json.dumps(e[f]))
        cells.update(json.dumps(c) for c in e.get("cells", []))
    return cards, cells


def test_architectura_marks_the_cells_and_cards_the_last_decision_named(client: Any) -> None:
    start = ARCH.new_game({"seats": 2, "seed": 1})
    state, events = after(ARCH, start, 1, 4)
    assert any(e["type"] == "played" for e in events), events
    text, root = svg_of(client, {"state": state, "last_events": events})
    cards, cells = named(events)
    got = marked(root)
    assert got, "something is marked"
    for e in got:  # each mark is a card or cell the events name ...
        assert e.get("data-card") in cards or e.get("data-cell") in cells, e.attrib
    played = next(e for e in events if e["type"] == "played")
    cell = json.dumps(played["cell"])
    assert any(e.get("data-cell") == cell for e in got)  # ... the played card's cell among them
    drawn_hand = {e.get("data-card") for e in got if "hand-card" in (e.get("class") or "")}
    drew = next((e for e in events if e["type"] == "drew"), None)
    assert drew is None or set(drew["cards"]) <= drawn_hand
    assert "svg .last-move{" in text  # the marks are drawn (a glow), not only classed


def test_fora_de_prumo_marks_a_laid_space_and_a_bought_card(client: Any) -> None:
    start = FDP.new_game({"game": "fora-de-prumo", "seats": 2, "seed": 4})
    seen: set[str] = set()
    state, rnd = start, random.Random(4)
    for _ in range(40):
        state, events = FDP.apply_all(state, [rnd.choice(state["pending"]["options"])])
        if not events or events[0]["type"] not in ("bought", "laid") or "x" in seen:
            continue
        _, root = svg_of(client, {"state": state, "last_events": events})
        classes = {e.get("class", "").split()[0]: e.get("data-card") for e in marked(root)}
        assert classes, events
        card = events[0]["card"]
        if events[0]["type"] == "bought":
            assert classes.get("hand-card") == card, classes
            seen.add("bought")
        elif "x" in events[0]:
            assert classes.get("space") == card, classes
            seen.add("x")
    assert seen == {"bought", "x"}


def test_without_last_events_nothing_is_marked_and_the_bytes_are_the_same(client: Any) -> None:
    state, _ = after(ARCH, ARCH.new_game({"seats": 3, "seed": 2}), 2, 6)
    plain, root = svg_of(client, {"state": state})
    empty, _ = svg_of(client, {"state": state, "last_events": []})
    assert plain == empty and not marked(root) and "last-move" not in plain
    # a card named by no element on the board marks nothing, and is no error
    _, root = svg_of(client, {"state": state, "last_events": [{"type": "x", "card": "nope"}]})
    assert not marked(root)


def test_a_seats_view_marks_too(client: Any) -> None:
    state = fdp_state(2, 1, 9)
    state, events = after(FDP, state, 9, 1)
    _, root = svg_of(client, {"state": state, "seat": 0, "last_events": events})
    cards, _ = named(events)
    assert all(e.get("data-card") in cards for e in marked(root))


BAD = [
    ([1], "/last_events/0"),
    ([{"card": "SP01"}], "/last_events/0"),  # no type
    ([{"type": 3}], "/last_events/0"),
    ([{"type": "laid", "card": 7}], "/last_events/0/card"),
    ([{"type": "laid", "card": "x" * 65}], "/last_events/0/card"),
    ([{"type": "converted", "target": ["SP01"]}], "/last_events/0/target"),
    ([{"type": "drew", "cards": "a.b"}], "/last_events/0/cards"),
    ([{"type": "drew", "cards": ["a"] * 9}], "/last_events/0/cards"),
    ([{"type": "played"}, {"type": "played", "cell": [1, "2"]}], "/last_events/1/cell"),
    ([{"type": "played", "cell": [1, 2, 3]}], "/last_events/0/cell"),
    ([{"type": "played", "cell": [True, 2]}], "/last_events/0/cell"),
    ([{"type": "moved", "to": [10**7, 1]}], "/last_events/0/to"),
    ([{"type": "swapped", "cells": [[1, 1], "x"]}], "/last_events/0/cells"),
    ([{"type": "x", **{f"f{i}": 0 for i in range(MAX_EVENT_FIELDS)}}], "/last_events/0"),
    ([{"type": "passed"}] * (MAX_LAST_EVENTS + 1), "/last_events"),
    ({"type": "passed"}, "/last_events"),
]


@pytest.mark.parametrize(("events", "pointer"), BAD)
def test_malformed_last_events_are_400_with_a_pointer(
    client: Any, events: Any, pointer: str
) -> None:
    state = ARCH.new_game({"seats": 2, "seed": 1})
    r = client.post("/v1/render", json={"state": state, "last_events": events})
    assert r.status_code == 400, r.get_data(as_text=True)[:300]
    body = r.get_json()
    assert body["code"] == "invalid_request" and body["pointer"] == pointer, body


def test_every_event_of_seeded_games_is_accepted(client: Any) -> None:
    """Events as /v1/resolve answers them, of both games, whole games long (the fields not
    read, such as `scores` or `notation`, are left alone)."""
    for eng, start in (
        (ARCH, ARCH.new_game({"seats": 3, "seed": 5, "variant": "advanced"})),
        (FDP, FDP.new_game({"game": "fora-de-prumo", "seats": 3, "seed": 5})),
    ):
        state, rnd, every = start, random.Random(5), []
        while not state["game_over"]:
            state, events = eng.apply_all(state, [rnd.choice(state["pending"]["options"])])
            every += events
        assert every[-1]["type"] == "game_over"
        for k in range(0, len(every), MAX_LAST_EVENTS):
            svg_of(client, {"state": state, "last_events": every[k : k + MAX_LAST_EVENTS]})


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
EVENTS = st.lists(
    st.dictionaries(
        st.sampled_from(["type", "card", "cards", "cell", "cells", "from", "to", "target", "x"]),
        JSON,
    ),
    max_size=4,
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=EVENTS | JSON)
def test_any_last_events_is_a_picture_or_a_400(client: Any, events: Any) -> None:
    state = ARCH.new_game({"seats": 2, "seed": 3})
    r = client.post("/v1/render", json={"state": state, "last_events": events})
    assert r.status_code in (200, 400), r.get_data(as_text=True)[:300]
    if r.status_code == 400:
        assert r.get_json()["pointer"].startswith("/last_events")


def chip_lines(chip: ET.Element) -> int:
    return sum(1 for _ in chip.iter(f"{SVG_NS}line"))


def test_fora_de_prumo_spaces_off_the_building_show_their_slots(client: Any) -> None:
    """A space in a hand or the market is drawn as laid at r = 0 (F-2.5): one wall line per W
    slot, two stubs per door, a lettered dot per door with a suit symbol, in the chip's box."""
    state = fdp_state(3, 3, 12)
    _, root = svg_of(client, {"state": state})
    cat = FDP.builtin_catalogs()["reference"]
    chips = [
        e
        for e in root.iter(f"{SVG_NS}g")
        if (e.get("class") or "").split()[:1] in (["market-card"], ["hand-card"])
        and (e.get("data-card") or "").startswith("SP")
    ]
    assert len(chips) >= 3
    for chip in chips:
        slots = cat.cards[chip.get("data-card")].slots
        walls = slots.count("W")
        assert chip_lines(chip) == walls + 2 * (6 - walls), slots
        letters = [
            t.text
            for s in chip.iter(f"{SVG_NS}g")
            if s.get("class") == "symbol"
            for t in s.iter(f"{SVG_NS}text")
        ]
        assert letters == [c for c in slots if c in "GPBY"], (slots, letters)
        inner = chip.find(f"{SVG_NS}g")
        assert inner is not None and "scale(" in (inner.get("transform") or "")
