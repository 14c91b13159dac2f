"""Shared helpers for the bot tests (tests/bots/test_ai_*.py)."""

from __future__ import annotations

import copy
import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType
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


class VirtualClock:
    """A stand-in for the `time` module whose clock only moves when the engine steps, so
    deadline tests count engine steps instead of racing a loaded machine's wall clock."""

    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now


class SlowEngine:
    """A game's engine whose every step (on any copy) takes `delay` seconds of the virtual
    clock: a stand-in for a custom catalog whose games are very long."""

    def __init__(self, eng: Any, delay: float, clock: VirtualClock) -> None:
        self.eng, self.delay, self.clock = eng, delay, clock
        self.steps = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.eng, name)

    def apply_action(self, g: Any, a: Any) -> None:
        self.steps += 1
        self.clock.now += self.delay
        self.eng.apply_action(g, a)


def slow_search(monkeypatch: Any, eng: Any, delay: float, *modules: Any) -> SlowEngine:
    """Every bot reads the view's engine as `eng` slowed to `delay` virtual seconds a step, and
    the search (ai.base, ai.mcts, ai.evaluators and `modules`) reads the virtual clock."""
    import ai.base
    import ai.evaluators
    import ai.mcts

    clock = VirtualClock()
    slow = SlowEngine(eng, delay, clock)
    monkeypatch.setattr(ai.base, "engine_for_state", lambda document: slow)
    for module in (ai.base, ai.mcts, ai.evaluators, *modules):
        monkeypatch.setattr(module, "time", clock)
    return slow


def wide_position(game_id: str, least: int = 8) -> dict[str, Any]:
    """A 2-seat state of `game_id` at a decision with at least `least` options."""
    eng = engine(game_id)
    for seed in range(60):
        rnd = random.Random(seed)
        state = eng.new_game(eng.tournament_setup(seed, 2, None))
        for _ in range(40):
            moves = eng.legal_decisions(state)
            if moves["game_over"]:
                break
            if len(moves["options"]) >= least:
                return state
            state, _ = eng.apply_all(state, [rnd.choice(moves["options"])])
    raise AssertionError(f"{game_id}: no decision with {least} options")


def seat_view(state: dict[str, Any]) -> dict[str, Any]:
    eng = engine(state["game"])
    return eng.player_view(state, eng.legal_decisions(state)["pending"]["seat"])


def stats(res: Any) -> list[tuple[Any, int, float | None]]:
    return [(o.action, o.visits, o.value) for o in res.options]


def same_answer_behind_the_view(bot: Bot, game_id: str, redeals: int = 2) -> Any:
    """`bot`'s answer on a wide position's view, checked to be the same when asked again and
    on other states behind the same view (the hidden cards dealt again); returned."""
    eng = engine(game_id)
    view = seat_view(wide_position(game_id))
    seat = view["view_of"]
    first = bot.choose(view, 5)
    assert stats(bot.choose(view, 5)) == stats(first)
    sampler = eng.WorldSampler(view, None)
    for k in range(redeals):
        other = eng.game_to_json(sampler.sample(random.Random(k)))
        assert eng.player_view(other, seat) == view
        again = bot.choose(eng.player_view(other, seat), 5)
        assert again.action == first.action and stats(again) == stats(first)
    return first


def old_bots() -> ModuleType:
    """5928220's ai/bots.py (the search before it was split into phases and evaluators), kept
    as tests/data/bots_5928220.py and loaded on today's engine as the module `bots_5928220`."""
    if (module := sys.modules.get("bots_5928220")) is not None:
        return module
    path = Path(__file__).resolve().parent / "data" / "bots_5928220.py"
    spec = importlib.util.spec_from_file_location("bots_5928220", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def answer(res: Any) -> tuple[Any, ...]:
    """A search result's every number: the move, iterations, truncated, per option stats."""
    return (
        res.action,
        res.iterations,
        res.truncated,
        [(o.action, o.visits, o.value) for o in res.options],
    )


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
