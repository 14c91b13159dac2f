"""Helpers for the Fora de Prumo tests: positions are made from a fresh set-up by moving cards
between the hands, the market and the deck before play (the result must validate), then
reached only through decisions that `apply` accepts."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

import engine.fora_de_prumo as fdp
from engine.errors import IllegalDecision
from engine.fora_de_prumo import building

State = dict[str, Any]


def fresh(seats: int = 2, seed: int = 0, market_size: int = 5, first_seat: int = 0) -> State:
    return fdp.new_game(
        {"seats": seats, "seed": seed, "market_size": market_size, "first_seat": first_seat}
    )


def arrange(
    state: State,
    hands: dict[int, list[str]] | None = None,
    market: list[str] | None = None,
    deck_top: Iterable[str] = (),
) -> State:
    """Deal chosen cards before play: the given hands (others keep what they hold, less any
    card claimed here), the given market (else the old market's free cards, topped up from the
    deck), the deck with `deck_top` first. Checked by the strict reader."""
    s = copy.deepcopy(state)
    hands = hands or {}
    claimed = {c for h in hands.values() for c in h} | set(market or []) | set(deck_top)
    pool = [c for c in s["deck"] + s["market"] if c not in claimed]
    for i, seat in enumerate(s["seats"]):
        if i in hands:
            pool.extend(c for c in seat["hand"] if c not in claimed)
            seat["hand"] = list(hands[i])
        else:
            seat["hand"] = [c for c in seat["hand"] if c not in claimed]
    k = s["market_size"]
    if market is None:
        market = [c for c in s["market"] if c not in claimed][:k]
        market += [c for c in pool if c not in market][: k - len(market)]
    pool = [c for c in pool if c not in market]
    s["market"] = list(market)
    s["deck"] = list(deck_top) + pool
    s["pending"] = None
    problems = fdp.validate(s)
    assert problems == [], problems
    return fdp.game_to_json(fdp.load(s))


def play(state: State, *decisions: dict[str, Any]) -> State:
    """Apply decisions one by one, each of which must be among the listed options."""
    for d in decisions:
        seat = state["pending"]["seat"]
        full = {"seat": seat, **d}
        assert full in state["pending"]["options"], (full, state["turn"])
        state, _ = fdp.apply(state, full)
    return state


def lay(
    card: str, x: int | None = None, y: int | None = None, r: int | None = None
) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "lay", "card": card}
    if x is not None:
        d.update(x=x, y=y, r=r)
    return d


def deep_list(n: int) -> Any:
    """A card id nested in `n` lists (a hostile document's depth)."""
    v: Any = "SP01"
    for _ in range(n):
        v = [v]
    return v


SKIP = {"type": "skip"}
PASS = {"type": "pass"}


def turn(state: State, decision: dict[str, Any]) -> State:
    """A whole normal turn: no purchase, then `decision` in the lay step."""
    return play(state, SKIP, decision)


def refused(state: State, decision: dict[str, Any]) -> IllegalDecision:
    """The error `apply` raises for a decision (which must be refused)."""
    try:
        fdp.apply(state, decision)
    except IllegalDecision as e:
        return e
    raise AssertionError(f"{decision} was accepted")


def parse_compact(text: str) -> dict[str, Any]:
    """`SP09@0,-1r0` (F-2.7) to a lay decision."""
    p = building.parse_compact(text)
    assert p is not None, text
    return lay(p.card, p.x, p.y, p.r)


def two_engineers_catalog() -> dict[str, Any]:
    """The reference catalog document with one card more, a second engineer (PE10), under
    the id `two-engineers`."""
    doc: dict[str, Any] = copy.deepcopy(fdp.builtin_catalogs()["reference"].to_json())
    doc["id"] = "two-engineers"
    doc["cards"].append(
        {
            "id": "PE10",
            "type": "person",
            "name": "Engenheira",
            "gloss": "engineer",
            "phase": 1,
            "min_players": 2,
            "ability": "engenheiro",
        }
    )
    return doc
