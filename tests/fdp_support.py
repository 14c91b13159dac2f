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


def big_catalog(cards: int) -> dict[str, Any]:
    """The reference catalog's cards repeated, each copy under its own id, up to `cards`
    cards (a custom catalog as large as F-2.8 allows at 500)."""
    doc: dict[str, Any] = copy.deepcopy(fdp.builtin_catalogs()["reference"].to_json())
    base, out = doc["cards"], []
    while len(out) < cards:
        copy_no = len(out) // len(base)
        for card in base[: cards - len(out)]:
            out.append({**card, "id": card["id"] + (f"Z{copy_no}" if copy_no else "")})
    return {**doc, "id": "big", "name": "Big", "cards": out}


def stalling_game(setup: dict[str, Any]) -> list[dict[str, Any]]:
    """A game played to last (F-8.3): every seat looks when it may, passes while its pass
    does not end the game, and otherwise lays from its hand before it buys. Its decisions,
    in the JSON face's spelling."""
    g = fdp.new_game_internal(setup)
    out: list[dict[str, Any]] = []
    while not fdp.is_terminal(g):
        options = fdp.legal_actions(g)
        by_kind: dict[str, list[Any]] = {}
        for a in options:
            by_kind.setdefault(a[0], []).append(a)
        may_pass = g.final is not None or g.bought is not None or g.passes + 1 < g.n
        if "look" in by_kind:
            a = by_kind["look"][0]
        elif "skip" in by_kind:  # the buy step: buy only to keep the game from ending
            acts = g.hands[g.seat] or by_kind.get("buy") is None
            a = by_kind["skip"][0] if may_pass or acts else by_kind["buy"][0]
        elif may_pass or len(options) == 1:
            a = by_kind.get("pass", options)[0]
        else:
            a = next(o for o in options if o[0] != "pass")
        out.append(fdp.action_to_json(g, g.seat, a))
        fdp.apply_action(g, a)
    return out
