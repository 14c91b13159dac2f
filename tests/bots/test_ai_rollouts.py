"""ISMCTS's greedy rollouts (`IsmctsBot(greedy_eps=...)`, docs/bots.md "Tried: greedy
rollouts"): epsilon-greedy on the greedy bot's one-ply margin, for the first `greedy_steps`
choices of a rollout, on at most `greedy_sample` options a step; deterministic for a seed,
blind to what the seat cannot see, held to the deadline. Every registered game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_ai_prior import same_answer_behind_the_view, seat_view, stats, wide_position

import ai.bots
from ai.bots import Budget, GreedyRollout, IsmctsBot, margin, rollout_reward
from engine.games import GAMES, engine


class Recorder:
    """A game's engine that records the rollout's own steps (on `target`) with the position
    before each, and the options the greedy evaluation applied (to copies) in between."""

    def __init__(self, eng: Any, target: Any) -> None:
        self.eng, self.target = eng, target
        self.steps: list[tuple[Any, Any, list[Any]]] = []  # position before, action, evaluated
        self.evaluated: list[Any] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self.eng, name)

    def apply_action(self, g: Any, a: Any) -> None:
        if g is self.target:
            self.steps.append((g.copy(), a, self.evaluated))
            self.evaluated = []
        else:
            self.evaluated.append(a)
        self.eng.apply_action(g, a)


def one_ply(eng: Any, g: Any, a: Any, seat: int) -> int:
    h = g.copy()
    eng.apply_action(h, a)
    return margin(eng, h, seat)


def play_out(game_id: str, greedy: GreedyRollout, seed: int) -> list[tuple[Any, Any, list[Any]]]:
    eng = engine(game_id)
    g = eng.load(wide_position(game_id))
    rec = Recorder(eng, g)
    reward = rollout_reward(rec, g, random.Random(seed), greedy=greedy)  # type: ignore[arg-type]
    assert reward is not None and g.over
    return rec.steps


@pytest.mark.parametrize("game_id", list(GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_with_eps_0_every_choice_is_a_best_one_ply_margin(game_id: str, seed: int) -> None:
    """Every rollout step with a choice evaluates every option and takes one whose one-ply
    margin, for the seat deciding, is the largest."""
    eng = engine(game_id)
    chosen = 0
    for before, a, evaluated in play_out(game_id, GreedyRollout(0.0), seed):
        opts = eng.legal_actions(before)
        if len(opts) == 1:
            assert not evaluated
            continue
        chosen += 1
        seat = eng.current_player(before)
        assert evaluated == list(opts)
        best = max(one_ply(eng, before, o, seat) for o in opts)
        assert one_ply(eng, before, a, seat) == best
    assert chosen >= 5


@pytest.mark.parametrize("game_id", list(GAMES))
def test_only_the_first_k_choices_on_a_sample_of_m_options(game_id: str) -> None:
    """`steps`: the first k choices are greedy, the later ones random (nothing evaluated);
    `sample`: at most m options evaluated a step, distinct, the best of them taken."""
    eng = engine(game_id)
    k, m = 5, 3
    choices = [s for s in play_out(game_id, GreedyRollout(0.0, k, m), 4) if s[2] or _wide(eng, s)]
    assert len(choices) > k
    for i, (before, a, evaluated) in enumerate(choices):
        opts = eng.legal_actions(before)
        if i >= k:
            assert not evaluated
            continue
        seat = eng.current_player(before)
        assert len(evaluated) == min(m, len(opts)) == len(set(evaluated))
        assert set(evaluated) <= set(opts) and a in evaluated
        assert one_ply(eng, before, a, seat) == max(
            one_ply(eng, before, o, seat) for o in evaluated
        )


def _wide(eng: Any, step: tuple[Any, Any, list[Any]]) -> bool:
    return len(eng.legal_actions(step[0])) > 1


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_greedy_rollout_search_is_deterministic_and_reads_only_the_view(game_id: str) -> None:
    bot = IsmctsBot(Budget(iterations=30), greedy_eps=0.3, greedy_steps=6, greedy_sample=4)
    first = same_answer_behind_the_view(bot, game_id, redeals=1)
    assert first.iterations == 30
    # the option changes the search (control), and at 1 it is off: the default search
    view = seat_view(wide_position(game_id))
    plain = IsmctsBot(Budget(iterations=30)).choose(view, 5)
    assert stats(plain) != stats(first)
    assert stats(IsmctsBot(Budget(iterations=30), greedy_eps=1.0).choose(view, 5)) == stats(plain)


def test_greedy_and_mast_rollouts_exclude_each_other() -> None:
    with pytest.raises(ValueError, match="exclude"):
        IsmctsBot(Budget(iterations=10), mast_eps=0.2, greedy_eps=0.2)


class VirtualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now


class SlowEngine:
    """A game whose every step (the greedy evaluation's included) takes `delay` seconds of
    the virtual clock."""

    def __init__(self, eng: Any, delay: float, clock: VirtualClock) -> None:
        self.eng, self.delay, self.clock = eng, delay, clock

    def __getattr__(self, name: str) -> object:
        return getattr(self.eng, name)

    def apply_action(self, g: Any, a: Any) -> None:
        self.clock.now += self.delay
        self.eng.apply_action(g, a)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_deadline_holds_inside_a_greedy_evaluation(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock is read every DEADLINE_CHECK_STEPS engine steps, the greedy evaluation's
    copies included: a time budget ends within that many steps of its end, and the cut
    iteration leaves nothing in the tree."""
    eng = engine(game_id)
    clock = VirtualClock()
    slow = SlowEngine(eng, 0.002, clock)
    monkeypatch.setattr(ai.bots, "engine_for_state", lambda document: slow)
    monkeypatch.setattr(ai.bots, "time", clock)
    overrun = ai.bots.DEADLINE_CHECK_STEPS * slow.delay
    view = seat_view(wide_position(game_id, least=12))
    # a full greedy rollout outlasts 20 ms; two greedy choices a rollout let some complete
    for budget_ms, k, least in ((20, None, 0), (1500, 2, 1)):
        bot = IsmctsBot(Budget(time_ms=budget_ms), greedy_eps=0.0, greedy_steps=k)
        t0 = clock.now
        res = bot.choose(view, 0)
        assert clock.now - t0 <= budget_ms / 1000 + overrun + 1e-9, clock.now - t0
        assert res.iterations >= least and not res.truncated
        root = bot.last_root
        assert root is not None
        assert sum(ch.n for ch in root.children.values()) == res.iterations
    # a caller's deadline cuts an iteration budget: truncated
    deadline = clock.now + 0.05
    res = IsmctsBot(Budget(iterations=50), greedy_eps=0.0).choose(view, 0, deadline=deadline)
    assert clock.now - deadline <= overrun + 1e-9
    assert res.truncated and res.iterations < 50
