"""Shared helpers for the bot tests (tests/bots/test_ai_*.py)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import engine.architectura as arch


def midgame(seed: int, decisions: int = 8, variant: str = "basic") -> dict[str, Any]:
    """A 2-seat state after `decisions` random decisions, stopped at a real choice (two or
    more options) with cards still hidden in both seats' decks."""
    setup: dict[str, Any] = {"seats": 2, "seed": seed, "variant": variant}
    g = arch.new_game_internal(setup)
    rnd = random.Random(seed)
    for _ in range(decisions):
        arch.apply_action(g, rnd.choice(arch.legal_actions(g)))
    while len(arch.legal_actions(g)) < 2:
        arch.apply_action(g, arch.legal_actions(g)[0])
    assert not arch.is_terminal(g)
    return arch.game_to_json(g)


def lab_state() -> dict[str, Any]:
    """Advanced game, seat 0 (blue) to play with a Laboratory in hand."""
    for seed in range(200):
        state = arch.new_game(
            {
                "seats": 2,
                "seed": seed,
                "variant": "advanced",
                "replacements": [{"laboratory": "theatre"}, {}],
            }
        )
        if "blue.laboratory" in state["seats"][0]["hand"]:
            return state
    raise AssertionError("no seed deals the Laboratory into the first hand")


def hide_differently(state: dict[str, Any], seat: int, rnd: random.Random) -> dict[str, Any]:
    """The same position as far as `seat` can tell: other seats' hands and decks re-dealt
    from the same cards, every deck reordered, the generator changed."""
    out = copy.deepcopy(state)
    for j, s in enumerate(out["seats"]):
        if j == seat:
            rnd.shuffle(s["deck"])
            continue
        pool = s["hand"] + s["deck"]
        rnd.shuffle(pool)
        s["hand"], s["deck"] = pool[: len(s["hand"])], pool[len(s["hand"]) :]
    out["rng"] = f"{rnd.getrandbits(64):016x}"
    return out


# the kinds of bad value `poisons` makes
POISONS = (
    "deep",
    "too_large",
    "not_utf8",
    "not_json",
    "array",
    "wrong_shape",
    "huge_count",
    "nan",
    "illegal",
)


def poisons(state: dict[str, Any], seat: int, good: dict[str, Any]) -> dict[str, bytes]:
    """Bad values to plant in the position cache in place of `good` (an answer of /v1/suggest
    for `seat` in `state`), one of each kind the cache or the service must treat as a miss."""
    from ai.cache import MAX_VALUE_BYTES

    entry = {"decision": good["decision"], "stats": good["stats"]}
    entry["stats"] = {k: v for k, v in entry["stats"].items() if k != "elapsed_ms"}
    card = state["seats"][1 - seat]["hand"][0]  # a card of the opponent's hand
    bad = {**good["decision"], "card": card}
    illegal = {
        "decision": bad,
        "stats": {**entry["stats"], "options": [{"decision": bad, "visits": 40, "value": 0.9}]},
    }
    pad = "x" * (MAX_VALUE_BYTES + 1)
    out = {
        "deep": b"[" * 100_000 + b"]" * 100_000,
        "too_large": json.dumps({**entry, "pad": pad}).encode(),
        "not_utf8": b'{"decision": "\xff\xfe"}',
        "not_json": b"{'decision': pass",
        "array": json.dumps([entry]).encode(),
        "wrong_shape": json.dumps({"decision": entry["decision"]}).encode(),
        "huge_count": json.dumps(
            {**entry, "stats": {**entry["stats"], "iterations": 10**30}}
        ).encode(),
        "nan": json.dumps({**entry, "stats": {**entry["stats"], "time_ms": float("nan")}}).encode(),
        "illegal": json.dumps(illegal).encode(),
    }
    assert tuple(out) == POISONS
    return out
