"""Shared helpers for the bot tests (tests/bots/test_ai_*.py)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import engine.architectura as arch
from ai.bots import Bot
from ai.tournament import play_game
from engine.games import engine


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


def play_checked(
    deal: int, bots: list[Bot], variant: str | None = None, game: str = "architectura"
) -> tuple[dict[str, Any], list[int]]:
    """ai.tournament.play_game, checked by the referee's public face: the decisions it took,
    replayed from the set-up as JSON (which refuses an illegal one), all apply and end the
    game, and its returns are the final standings' (1/k for each of k winners, else 0; a win
    on score goes to the best total). The final scores and each seat's decision count."""
    eng = engine(game)
    decisions: list[Any] = []
    returns, _, count = play_game(
        deal,
        bots,
        variant,
        game=game,
        observe=lambda g, seat, a: decisions.append(eng.action_to_json(g, seat, a)),
    )
    setup = {**eng.tournament_setup(deal, len(bots), variant), "first_seat": 0}
    replayed = eng.replay({"setup": setup}, decisions)
    assert replayed["ok"], replayed.get("error")
    assert replayed["applied"] == len(decisions) and replayed["state"]["game_over"]
    scores = replayed["state"]["scores"]
    winners = scores["winners"]
    assert winners and returns == [
        1 / len(winners) if s in winners else 0.0 for s in range(len(bots))
    ]
    if scores["decided_by"] == "score":
        totals = [s["total"] for s in scores["seats"]]
        assert winners == [s for s, total in enumerate(totals) if total == max(totals)]
    return scores, count
