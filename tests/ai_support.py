"""Shared helpers for the bot tests (tests/test_ai_*.py)."""

from __future__ import annotations

import copy
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
