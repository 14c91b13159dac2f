"""The declared shape of an Architectura state (engine/architectura/schema.py): a
well-formed state is converted in one typed call, a malformed one is walked node by node
against the same declarations; both ways must read alike."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
import readers_oracle

import engine.architectura as arch
import engine.architectura.serialize as serialize
import engine.declared as declared
from engine.architectura.schema import EntryDoc, SeatDoc, StateDoc
from engine.errors import InvalidState


def played(seed: int, seats: int, decisions: int) -> list[dict[str, Any]]:
    """The states of a seeded game, from its start, `decisions` random decisions long."""
    variant = "advanced" if seed % 2 else "basic"
    setup = {"seats": seats, "seed": seed, "variant": variant}
    return readers_oracle.played(arch, setup, seed, decisions)


def force_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every node walked, none converted: the top level (serialize) and each below (declared)."""
    for module in (serialize, declared):
        monkeypatch.setattr(module, "convert", lambda data, cls: None)


def fields(cls: type[msgspec.Struct]) -> set[str]:
    return set(cls.__struct_fields__)


def test_the_declared_shape_is_the_written_shape() -> None:
    """Every field the writer writes is declared, and every declared field is written (an
    entry's `value` only on top cards)."""
    entry_keys: set[str] = set()
    for state in played(3, 4, 40)[::10]:
        assert set(state) == fields(StateDoc)
        for seat in state["seats"]:
            assert set(seat) == fields(SeatDoc)
        for stack in (stack for row in state["city"] for stack in row):
            for entry in stack:
                entry_keys |= set(entry)
            if stack:
                assert "value" in stack[-1]
    assert entry_keys == fields(EntryDoc)


JUNK: list[Any] = [None, True, 0, 1, -1, 3, 2**70, 1.5, "", "x", "blue.palace", [], [1, 2], {}]


def places(x: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if path:
        yield path
    children = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()
    for k, v in children:
        yield from places(v, (*path, k))


def mutated(state: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """The state with one to three values replaced, removed, added or repeated."""
    s = copy.deepcopy(state)
    for _ in range(rnd.choice((1, 1, 2, 3))):
        path = rnd.choice(list(places(s)))
        parent = s
        for k in path[:-1]:
            parent = parent[k]
        roll, key = rnd.random(), path[-1]
        if roll < 0.15 and isinstance(parent, dict):
            del parent[key]
        elif roll < 0.2 and isinstance(parent, dict):
            parent["extra"] = 1
        elif roll < 0.3 and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        else:
            parent[key] = rnd.choice(JUNK)
    return s


def read(state: dict[str, Any]) -> Any:
    """What reading gives: the state written back, or the problems with their order."""
    try:
        return arch.game_to_json(arch.load(state))
    except InvalidState as e:
        return e.to_json()


def test_the_walk_reads_every_state_as_the_typed_conversion_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Forcing the node-by-node walk gives the same state or the same problems, in the
    same order, as the one-call conversion, for valid and broken states alike: the typed
    path accepts nothing the walk would refuse."""
    rnd = random.Random(7)
    cases = []
    for seed, seats in ((1, 2), (2, 3), (3, 4)):
        for state in played(seed, seats, 60)[::6]:
            cases.append(state)
            cases.extend(mutated(state, rnd) for _ in range(12))
    typed = [read(s) for s in cases]
    force_walk(monkeypatch)
    walked = [read(s) for s in cases]
    assert walked == typed
    refused = sum(1 for r in typed if "problems" in r)
    assert 0.5 * len(cases) < refused < len(cases)  # both kinds were tried


def test_shape_problems_are_listed_with_those_of_meaning() -> None:
    """A state that fails the typed conversion still lists every problem: wrong types,
    missing and unknown fields, and the checks that need the game (cards, orientations)."""
    s = copy.deepcopy(played(5, 2, 10)[-1])
    s["seats"][1]["tokens"] = "two"
    del s["seats"][0]["removed"]
    s["seats"][0]["colour_name"] = "blue"
    entry = s["city"][0][0][0]
    entry["face_up"] = 1
    entry["orientation"] = 7
    s["seats"][0]["deck"][0] = "blue.castle"
    del s["game_over"]
    with pytest.raises(InvalidState) as e:
        arch.load(s)
    got = {(p.code, p.pointer, p.clause) for p in e.value.problems}
    assert got == {
        ("wrong_type", "/seats/1/tokens", "A-6.1"),
        ("missing_field", "/seats/0/removed", None),
        ("wrong_type", "/seats/0/removed", None),
        ("unknown_field", "/seats/0/colour_name", None),
        ("wrong_type", "/city/0/0/0/face_up", None),
        ("out_of_range", "/city/0/0/0/orientation", "A-2.1"),
        ("unknown_card", "/seats/0/deck/0", "A-1.3"),
        ("missing_field", "/game_over", None),
        ("wrong_type", "/game_over", None),
        # what follows from the bad values: the replaced card is nowhere, and the tokens
        # read as none do not add up
        ("missing_cards", "/seats", "A-1.3"),
        ("token_count", "/seats/1/tokens", "A-1.3"),
    }


def test_a_huge_zone_is_refused_unread() -> None:
    """A seat's zone longer than the game's card count is refused as too long, whatever
    it holds, without a problem per entry."""
    s = copy.deepcopy(played(5, 2, 0)[0])
    s["seats"][0]["deck"] = [["x"]] * 200_000
    with pytest.raises(InvalidState) as e:
        arch.load(s)
    codes = [(p.code, p.pointer) for p in e.value.problems]
    assert ("too_long", "/seats/0/deck") in codes
    assert len(codes) < 10


@pytest.mark.parametrize(
    ("where", "code", "pointer"),
    [
        ("city", "wrong_city_size", "/city"),  # one street per seat
        ("street", "wrong_city_size", "/city/0"),  # 8 blocks a street
        ("seats", "invalid_seat_count", "/seats"),  # 2 to 4 seats
    ],
)
def test_a_huge_city_or_table_fails_the_typed_conversion_at_once(
    where: str, code: str, pointer: str
) -> None:
    """60,000 streets (2 MB), blocks or seats: the typed conversion refuses the list by its
    length before converting an entry (it used to convert all of them: 0.3 s), and the
    reader's refusal still names the rule."""
    s = copy.deepcopy(played(5, 2, 0)[0])
    if where == "city":
        s["city"] = [[[] for _ in range(8)] for _ in range(60_000)]
    elif where == "street":
        s["city"][0] = [[] for _ in range(60_000)]
    else:
        s["seats"] = [copy.deepcopy(s["seats"][0]) for _ in range(5_000)]
    assert declared.convert(s, StateDoc) is None
    with pytest.raises(InvalidState) as e:
        arch.load(s)
    assert (code, pointer) in [(p.code, p.pointer) for p in e.value.problems]
    assert len(e.value.problems) < 10


def test_a_boolean_where_an_integer_goes_is_a_wrong_type(monkeypatch: pytest.MonkeyPatch) -> None:
    """JSON `true` is not an integer (Python's bool is an int): it is refused as a wrong
    type, not as an integer out of range, by the typed conversion and by the walk alike."""
    s = copy.deepcopy(played(5, 2, 0)[0])
    s["seats"][0]["tokens"] = True
    s["seats"][1]["hand_limit"] = False
    s["turn"]["number"] = True
    for forced in (False, True):
        if forced:
            force_walk(monkeypatch)
        with pytest.raises(InvalidState) as e:
            arch.load(s)
        got = {(p.pointer, p.code) for p in e.value.problems}
        for pointer in ("/seats/0/tokens", "/seats/1/hand_limit", "/turn/number"):
            assert (pointer, "wrong_type") in got
            assert (pointer, "out_of_range") not in got
