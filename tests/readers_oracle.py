"""Mutated documents for every untrusted document the engine reads (both games' states,
catalogs and set-ups), and what reading each answers: the oracle of
tests/common/test_reader_equivalence.py. The answers in tests/data/readers_golden.json were
written by the readers before they were declared (msgspec structs), by
`python -m readers_oracle` (from tests/); a reader rewritten since must answer alike:
same codes, pointers, clauses, details and order. Rewritten once by the readers themselves
(2026-11-30), when a value refused for its type stopped reporting the fields read from its
stand-in, and null and true were named as JSON names them: every answer that changed lost
problems inside a `wrong_type` pointer, or said null/true for None/True.

The mutations are drawn from a seeded generator over documents the engine writes itself,
so the same cases come back on every run: one to three of drop a field, a wrong type, a
number out of range, an unknown field, a huge list, nested garbage, a repeated entry.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

import engine.architectura as arch
import engine.fora_de_prumo as fdp
from engine.errors import EngineError

GOLDEN = Path(__file__).parent / "data" / "readers_golden.json"
JUNK: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    3,
    7,
    2**70,
    1.5,
    "",
    "x",
    "blue.palace",
    "SP02",
    [],
    [1, 2],
    {},
    {"a": 1},
]


def places(x: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value, parents before children."""
    if path:
        yield path
    children = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()
    if len(x) > 500 if isinstance(x, list | dict) else False:
        return  # a huge list put there by an earlier mutation: its entries are no places
    for k, v in children:
        yield from places(v, (*path, k))


def junk(rnd: random.Random) -> Any:
    return fresh(rnd.choice(JUNK))


def fresh(v: Any) -> Any:
    """A junk value of its own: JUNK's lists and objects hold only numbers, so a shallow copy
    is a whole one (a huge list holds 20,000 junk values: a deep copy each cost seconds)."""
    return v.copy() if isinstance(v, list | dict) else v


def junk_list(rnd: random.Random, count: int) -> list[Any]:
    """`count` junk values: `junk` drawn `count` times, inlined (Random.choice is getrandbits
    with rejection: the same values from the same stream, at a third of the cost)."""
    n = len(JUNK)
    k, bits, out = n.bit_length(), rnd.getrandbits, []
    for _ in range(count):
        r = bits(k)
        while r >= n:
            r = bits(k)
        out.append(fresh(JUNK[r]))
    return out


def garbage(rnd: random.Random, depth: int = 3) -> Any:
    """A nested JSON value of junk."""
    if depth == 0 or rnd.random() < 0.3:
        return junk(rnd)
    if rnd.random() < 0.5:
        return [garbage(rnd, depth - 1) for _ in range(rnd.randint(0, 3))]
    return {rnd.choice(("a", "id", "type", "k", "~/")): garbage(rnd, depth - 1)}


def mutate_once(doc: Any, rnd: random.Random) -> None:
    spots = list(places(doc))
    if not spots:
        return
    path = rnd.choice(spots)
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    key, v, roll = path[-1], parent[path[-1]], rnd.random()
    if roll < 0.15 and isinstance(parent, dict):
        del parent[key]  # drop a field
    elif roll < 0.22 and isinstance(parent, dict):
        parent[rnd.choice(("extra", "Extra", "~x/y"))] = junk(rnd)  # unknown field
    elif roll < 0.3 and isinstance(parent, list):
        parent.append(copy.deepcopy(v))  # repeated entry
    elif roll < 0.4 and isinstance(v, int) and not isinstance(v, bool):
        parent[key] = v + rnd.choice((-1000, -1, 1, 2, 1000, 2**64))  # out of range
    elif roll < 0.45:
        parent[key] = junk_list(rnd, rnd.choice((600, 20_000)))  # huge list
    elif roll < 0.55:
        parent[key] = garbage(rnd)  # nested garbage
    else:
        parent[key] = junk(rnd)  # wrong type


def mutated(doc: Any, rnd: random.Random) -> Any:
    out = copy.deepcopy(doc)
    for _ in range(rnd.choice((1, 1, 2, 3))):
        mutate_once(out, rnd)
    return out


def answer(read: Callable[[], Any]) -> Any:
    """What reading gives: a digest of what was read, or the error with its problems."""
    try:
        got = read()
    except EngineError as e:
        return {"error": e.to_json()}
    return {
        "ok": hashlib.sha256(
            orjson.dumps(got, default=sorted, option=orjson.OPT_SORT_KEYS)
        ).hexdigest()
    }


def played(game: Any, setup: dict[str, Any], seed: int, decisions: int) -> list[Any]:
    rnd = random.Random(seed)
    state = game.new_game(setup)
    out = [state]
    for _ in range(decisions):
        if state["game_over"]:
            break
        state, _ = game.apply(state, rnd.choice(game.legal_decisions(state)["options"]))
        out.append(state)
    return out


def catalog_json(cat: Any) -> Any:
    """A catalog as read: its summary and every card as built."""
    return {"summary": cat.summary(), "cards": list(cat.cards.values())}


def reference(game: Any) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(json.dumps(game.builtin_catalogs()["reference"].to_json()))
    return doc


def fdp_states() -> list[Any]:
    out: list[Any] = []
    for seed, seats in ((1, 2), (2, 3), (3, 4)):
        setup = {"game": "fora-de-prumo", "seats": seats, "seed": seed}
        out.extend(played(fdp, setup, seed, 60)[::8])
    return out


def arch_states() -> list[Any]:
    out: list[Any] = []
    for seed, seats in ((1, 2), (2, 3), (3, 4)):
        variant = "advanced" if seed % 2 else "basic"
        setup = {"seats": seats, "seed": seed, "variant": variant}
        out.extend(played(arch, setup, seed, 60)[::8])
    return out


ARCH_SETUPS: list[dict[str, Any]] = [
    {"game": "architectura", "seats": 2, "seed": 1},
    {
        "seats": 3,
        "seed": 9,
        "variant": "advanced",
        "first_seat": 2,
        "colours": ["red", "blue", "green"],
    },
    {
        "seats": 2,
        "seed": 4,
        "variant": "advanced",
        "replacements": [{"fountain": "well"}, {}],
        "catalog": "reference",
    },
]
FDP_SETUPS: list[dict[str, Any]] = [
    {"game": "fora-de-prumo", "seats": 2, "seed": 1},
    {"seats": 4, "seed": 7, "first_seat": 3, "market_size": 6, "catalog": "reference"},
]


def read_setup(game: Any, setup: Any) -> Any:
    """A set-up read into its game; one without a seed is dealt from a seed chosen at random
    (engine.setup_fields.seeded), so only that it reads is compared, not what it dealt."""
    got = game.new_game(setup)
    if isinstance(setup, dict) and "seed" not in setup:
        return "dealt from a seed chosen at random"
    return got


def cases() -> dict[str, list[tuple[Any, Callable[[], Any]]]]:
    """Each document kind: its (document, read) cases, valid ones and mutations."""
    rnd = random.Random(17)
    out: dict[str, list[tuple[Any, Callable[[], Any]]]] = {}

    def add(kind: str, docs: list[Any], n: int, read: Callable[[Any], Any]) -> None:
        docs = docs + [mutated(rnd.choice(docs), rnd) for _ in range(n)]
        out[kind] = [(d, functools.partial(read, d)) for d in docs]

    add("fdp_state", fdp_states(), 500, lambda d: fdp.game_to_json(fdp.load(d)))
    add("arch_state", arch_states(), 200, lambda d: arch.game_to_json(arch.load(d)))
    add("fdp_catalog", [reference(fdp)], 400, lambda d: catalog_json(fdp.load_catalog(d)))
    add("arch_catalog", [reference(arch)], 400, lambda d: catalog_json(arch.load_catalog(d)))
    add("fdp_setup", FDP_SETUPS, 250, functools.partial(read_setup, fdp))
    add("arch_setup", ARCH_SETUPS, 250, functools.partial(read_setup, arch))
    # a set-up carrying a catalog of its own: the catalog's problems join the set-up's
    fdp_cat, arch_cat = reference(fdp), reference(arch)
    fdp_setup = {"seats": 2, "seed": 3, "catalog": fdp_cat}
    arch_setup = {"seats": 2, "seed": 3, "catalog": arch_cat}
    add("fdp_setup_catalog", [fdp_setup], 150, functools.partial(read_setup, fdp))
    add("arch_setup_catalog", [arch_setup], 150, functools.partial(read_setup, arch))
    return out


def answers() -> dict[str, list[Any]]:
    return {kind: [answer(read) for _, read in cs] for kind, cs in cases().items()}


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(answers(), indent=0, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}", file=sys.stderr)
