"""Hostile Fora de Prumo inputs: the cost of reading a state, a view, a set-up or a catalog is
bounded by what the game can hold, not by the input (a list longer than the game could hold is
refused whole, unread: `too_long`). Each test failed on
the code before the fix: a 2 MB state could hold a worker for up to 25 s and 1 GB.

Cost is judged by deterministic proxies, never by the wall clock of a shared machine:
- `reads`: the values the strict reader looked at (objects, integers, card ids) plus the
  Problem objects built (an unknown field each, before);
- `dumped`: the characters of canonical JSON written while checking a view;
- the rise of the process's peak resident memory (as tests/http/test_hostile.py measures it).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest
from http_support import check_response, make_app

import engine.fora_de_prumo as fdp
from engine import canonical, declared
from engine.errors import CatalogError, Problem, SetupError
from engine.fora_de_prumo import serialize
from engine.fora_de_prumo.catalog import builtin_catalogs, load_catalog

APP = make_app()
CLIENT = APP.test_client()
BODY_LIMIT = 2 * 1024 * 1024
MAX_ANSWER = 64 * 1024
MAX_READS = 3_000  # a valid 3-seat state reads a few hundred values; the junk, 120,000+
MAX_RISE = 64 * 2**20  # was 145 MiB to 1 GiB
STATE = fdp.new_game({"game": "fora-de-prumo", "seats": 3, "seed": 5})
VIEW = fdp.player_view(STATE, 0)
REFERENCE = builtin_catalogs()["reference"]

ZEROS = [0] * 700_000  # 1.4 MB of JSON
IDS = ["SP02"] * 250_000  # a card of the game, over and over: 1.75 MB
MANY_KEYS = {f"k{i}": 0 for i in range(120_000)}  # 1.3 MB


class Cost:
    """Counts what the reader does while installed (see the module docstring)."""

    def __init__(self) -> None:
        self.reads = 0
        self.dumped = 0


@pytest.fixture
def cost(monkeypatch: pytest.MonkeyPatch) -> Iterator[Cost]:
    c = Cost()

    def counting(fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            c.reads += 1
            return fn(*args, **kwargs)

        return wrapper

    for cls, name in (
        (declared.Problems, "obj"),
        (declared.Problems, "int_or_none"),
        (serialize._Cards, "known"),
        (Problem, "__init__"),
    ):
        monkeypatch.setattr(cls, name, counting(getattr(cls, name)))
    dumps = canonical.dumps

    def counted_dumps(value: Any) -> str:
        out = dumps(value)
        c.dumped += len(out)
        return out

    monkeypatch.setattr(canonical, "dumps", counted_dumps)
    yield c


def _peak_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        return int(re.search(r"VmHWM:\s+(\d+) kB", f.read()).group(1))  # type: ignore[union-attr]


def peak_rise(fn: Callable[[], Any]) -> tuple[Any, int]:
    """fn's result and how far the peak resident memory rose (reset first, clear_refs)."""
    with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
        f.write("5")
    before = _peak_kib()
    out = fn()
    return out, (_peak_kib() - before) * 1024


def post(path: str, body: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """A refused request (422, small, as documented): its answer and the memory rise."""
    raw = orjson.dumps(body)
    assert 1_000_000 < len(raw) < BODY_LIMIT, len(raw)
    r, rise = peak_rise(lambda: CLIENT.post(path, data=raw, content_type="application/json"))
    assert r.status_code == 422, r.data[:300]
    assert len(r.data) <= MAX_ANSWER
    answer: dict[str, Any] = check_response("POST", path, r)
    return answer, rise


def total(answer: dict[str, Any]) -> int:
    return int(answer.get("problems_total", len(answer["problems"])))


def put(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A deep copy of doc with the value at path replaced (a dict at "*": its keys merged
    into the object at path)."""
    doc = copy.deepcopy(doc)
    node = doc
    for k in path[:-1]:
        node = node[k]
    if path[-1] == "*":
        node.update(value)
    else:
        node[path[-1]] = value
    return doc


def test_a_valid_state_reads_far_fewer_values_than_the_bound(cost: Cost) -> None:
    """The proxy's yardstick: a valid state is read well under MAX_READS."""
    assert fdp.validate(STATE) == []
    assert 50 < cost.reads < MAX_READS // 4


# -- lists: refused whole, unread --------------------------------------------------------------

N_CARDS = len([c for c in REFERENCE.cards.values() if c.min_players <= 3])
# field -> (path in the state, the most entries the game holds, clause)
LISTS = {
    "building": (("seats", 1, "work", "building"), N_CARDS, "F-1.3"),
    "clones": (("seats", 1, "work", "clones"), N_CARDS, "F-1.3"),
    "spent": (("seats", 1, "work", "spent"), N_CARDS, "F-1.3"),
    "site": (("seats", 1, "work", "site"), N_CARDS, "F-1.3"),
    "converted": (("seats", 1, "work", "converted"), N_CARDS, "F-1.3"),
    "hand": (("seats", 1, "hand"), N_CARDS, "F-1.3"),
    "deck": (("deck",), N_CARDS, "F-1.3"),
    "market": (("market",), N_CARDS, "F-1.3"),
    "peeked": (("turn", "peeked"), 2, "F-R19"),
    "remaining": (("final_round", "remaining"), 3, "F-R25"),
}


def hostile_state(field: str, junk: list[Any]) -> dict[str, Any]:
    path = LISTS[field][0]
    s = copy.deepcopy(STATE)
    if field == "remaining":
        s["final_round"] = {"triggered_by": 0, "remaining": None}
    return put(s, path, junk)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("field", "junk"),
    [(f, ZEROS) for f in LISTS] + [(f, IDS) for f in ("hand", "deck", "site", "converted")],
    ids=[f"{f}-zeros" for f in LISTS] + [f"{f}-ids" for f in ("hand", "deck", "site", "converted")],
)
def test_a_list_longer_than_the_game_holds_is_refused_unread(
    cost: Cost, field: str, junk: list[Any]
) -> None:
    """Was: every entry read and reported (building: 25 s and +1 GiB for 700,000 zeros)."""
    path, most, clause = LISTS[field]
    answer, rise = post("/v1/legal-moves", {"state": hostile_state(field, junk)})
    assert cost.reads < MAX_READS, cost.reads
    assert rise < MAX_RISE, rise
    assert answer["code"] == "invalid_state"
    pointer = "/state/" + "/".join(map(str, path))
    too_long = [p for p in answer["problems"] if p["code"] == "too_long"]
    assert [(p["pointer"], p["clause"]) for p in too_long] == [(pointer, clause)]
    assert f"at most {most} entries" in too_long[0]["detail"]
    assert f"not {len(junk)}" in too_long[0]["detail"]
    assert total(answer) < 50  # a problem per entry, before
    # the cards of a list refused unread are not reported missing from every zone
    assert "missing_cards" not in {p["code"] for p in answer["problems"]}


def test_lists_as_long_as_the_game_holds_are_still_read() -> None:
    """The bound is what the game holds, not less: at the bound the entries are read (and
    here refused for what they are, duplicates), one entry more and the list is refused."""
    for field in ("hand", "peeked"):
        path, most, _ = LISTS[field]
        got = fdp.validate(put(STATE, path, ["SP02"] * most))
        assert "too_long" not in {p.code for p in got}
        assert "duplicate_card" in {p.code for p in got} or field == "peeked"
        got = fdp.validate(put(STATE, path, ["SP02"] * (most + 1)))
        assert [p.code for p in got if p.pointer == "/" + "/".join(map(str, path))] == ["too_long"]


# -- objects: unknown fields are counted, not written --------------------------------------------

OBJECTS = {
    "state": ("*",),
    "turn": ("turn", "*"),
    "work": ("seats", 0, "work", "*"),
    "seat": ("seats", 0, "*"),
    "catalog": ("catalog", "*"),
    "final_round": ("final_round",),
}


@pytest.mark.parametrize("where", list(OBJECTS))
def test_an_object_of_many_unknown_fields_costs_a_count(cost: Cost, where: str) -> None:
    """Was: a Problem built and sorted for each of 120,000 keys (0.4 to 1.1 s each)."""
    answer, _ = post("/v1/legal-moves", {"state": put(STATE, OBJECTS[where], MANY_KEYS)})
    assert answer["code"] == "invalid_state"
    assert total(answer) >= len(MANY_KEYS)  # every one counted
    assert len(answer["problems"]) <= 100
    shown = [p for p in answer["problems"] if p["code"] == "unknown_field"]
    assert shown and shown[0]["detail"] == "unknown field 'k0'"  # in key order
    assert cost.reads < MAX_READS, cost.reads


def test_keys_in_pointers_are_escaped() -> None:
    got = fdp.validate(put(STATE, ("turn", "*"), {"a/b~c": 1}))
    assert [p.pointer for p in got if p.code == "unknown_field"] == ["/turn/a~1b~0c"]


# -- views (suggest accepts a view: the world sampler reads it) ----------------------------------

VIEW_CASES = {
    "unseen": (("unseen",), ZEROS, "too_long", "/view/unseen"),
    "peeked": (("turn", "peeked"), ZEROS, "too_long", "/view/turn/peeked"),
    "building": (
        ("seats", 0, "work", "building"),
        ZEROS,
        "too_long",
        "/view/seats/0/work/building",
    ),
    "pending": (("pending",), ZEROS, "invalid_view", "/view/pending"),  # the field named
    "seat_fields": (("seats", 1, "*"), MANY_KEYS, "unknown_field", None),
    "view_fields": (("*",), MANY_KEYS, "unknown_field", None),
}


@pytest.mark.parametrize("case", list(VIEW_CASES))
def test_a_hostile_view_is_refused_at_a_bounded_cost(cost: Cost, case: str) -> None:
    """Was: the sampler sorted, shuffled and dealt 700,000 unseen cards (4 s, +385 MiB), read
    a 2 MB peeked list into the deck, or serialized 2 MB it had never read to compare it."""
    path, junk, code, pointer = VIEW_CASES[case]
    answer, rise = post("/v1/suggest", {"view": put(VIEW, path, junk), "seat": 0})
    assert cost.reads < MAX_READS, cost.reads
    assert cost.dumped < 200_000, cost.dumped  # never the 2 MB sent
    assert rise < MAX_RISE, rise
    assert answer["code"] == "invalid_view"
    first = answer["problems"][0]
    assert first["code"] == code
    if pointer is not None:
        assert first["pointer"] == pointer
    if code == "unknown_field":
        assert total(answer) >= len(MANY_KEYS)


def test_a_valid_view_is_still_accepted() -> None:
    """The bounds refuse nothing a view can hold: every seat's view of a game under way."""
    s = STATE
    for _ in range(12):
        opts = fdp.legal_decisions(s)["options"]
        s, _ = fdp.apply(s, opts[len(opts) // 2])
    for seat in range(3):
        view = fdp.player_view(s, seat)
        sampler = fdp.WorldSampler(view)
        assert fdp.game_view(sampler.base, seat) == view


# -- catalogs and set-ups ------------------------------------------------------------------------


class CountingList(list[Any]):
    """A JSON array that counts the entries read from it."""

    read = 0

    def __iter__(self) -> Iterator[Any]:
        for x in super().__iter__():
            CountingList.read += 1
            yield x


def test_a_long_list_of_suits_is_refused_unread() -> None:
    """Was: all 150,000 suits checked, then put in a set, before the length was."""
    doc = REFERENCE.to_json()
    j = next(i for i, c in enumerate(doc["cards"]) if c["type"] == "space")
    CountingList.read = 0
    doc = put(doc, ("cards", j, "suits"), CountingList(["conforto"] * 150_000))
    with pytest.raises(CatalogError) as e:
        load_catalog(doc)
    assert [p.pointer for p in e.value.problems] == [f"/cards/{j}/suits"]
    assert CountingList.read == 0


def _first_of_type(kind: str) -> int:
    return next(i for i, c in enumerate(REFERENCE.to_json()["cards"]) if c["type"] == kind)


@pytest.mark.parametrize(
    "path",
    [("*",), ("cards", 0, "*"), ("cards", _first_of_type("concept"), "objective", "*")],
    ids=["document", "card", "objective"],
)
def test_a_catalog_of_many_unknown_fields_costs_a_count(cost: Cost, path: tuple[Any, ...]) -> None:
    """Was: 120,000 problems built, each key sorted by its repr (0.5 to 0.6 s)."""
    doc = put(REFERENCE.to_json(), path, MANY_KEYS)
    answer, _ = post("/v1/games", {"game": "fora-de-prumo", "seats": 3, "seed": 1, "catalog": doc})
    assert answer["code"] == "invalid_catalog"
    assert answer["clause"] == "F-2.8"
    assert all(p["clause"] == "F-2.8" for p in answer["problems"])
    assert total(answer) >= len(MANY_KEYS)
    assert cost.reads < MAX_READS, cost.reads


def test_a_set_up_of_many_unknown_fields_costs_a_count(cost: Cost) -> None:
    """Was: 120,000 problems built and sorted (engine call: the HTTP envelope refuses them)."""
    with pytest.raises(SetupError) as e:
        fdp.new_game({"game": "fora-de-prumo", "seats": 3, "seed": 1, **MANY_KEYS})
    assert e.value.problems_total == len(MANY_KEYS)
    assert e.value.problems[0].clause == "F-1"
    assert cost.reads < MAX_READS, cost.reads
