"""ISMCTS's phases one by one (ai/mcts.py): select/expand adds one node an iteration, back up
adds the evaluator's rewards along the path, undo takes a cut iteration out of the tree
exactly; and an evaluator plugged in (ai/evaluators.py's interface) is what the tree learns
from. Every registered game."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from ai_support import SlowEngine, VirtualClock, seat_view, wide_position

import ai.mcts
from ai.bots import Budget, IsmctsBot
from ai.evaluators import RandomRollout
from ai.mcts import Node, backup, select_expand, undo
from engine.games import GAMES, GameModule, engine


def snapshot(node: Node) -> Any:
    return (
        node.mover,
        node.visits,
        node.reward_sum,
        node.available,
        {key: snapshot(ch) for key, ch in node.children.items()},
    )


def grow(
    game_id: str, iterations: int, least: int = 8
) -> tuple[GameModule, Any, Node, random.Random]:
    """A tree of `iterations` phases run by hand on the view of a position with `least`
    options or more."""
    eng = engine(game_id)
    sampler = eng.WorldSampler(seat_view(wide_position(game_id, least)), None)
    rnd = random.Random(1)
    root = Node(-1)
    rollout = RandomRollout()
    for i in range(iterations):
        g = sampler.sample(rnd)
        descent = select_expand(eng, root, g, rnd, 0.7, math.inf, None)
        assert descent is not None
        path, expanded = descent.path, descent.expanded
        assert expanded is not None and expanded[0][expanded[1]] is path[-1]
        assert path[-1].visits == 0 and not path[-1].children  # the new node, last
        reward = rollout.evaluate(eng, g, rnd, math.inf)
        assert reward is not None and g.over
        backup(path, reward)
        assert sum(ch.visits for ch in root.children.values()) == i + 1
        assert all(nd.reward_sum <= nd.visits for nd in path)
    return eng, sampler, root, rnd


@pytest.mark.parametrize("game_id", list(GAMES))
def test_undo_leaves_the_tree_as_it_was(game_id: str) -> None:
    eng, sampler, root, rnd = grow(game_id, 40)
    for _ in range(10):
        before = snapshot(root)
        descent = select_expand(eng, root, sampler.sample(rnd), rnd, 0.7, math.inf, None)
        assert descent is not None
        assert snapshot(root) != before  # control: the descent changed the tree
        undo(descent)
        assert snapshot(root) == before


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_descent_cut_by_its_deadline_changes_nothing(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock read at every step (instead of every DEADLINE_CHECK_STEPS: the reference
    games' descents are shorter than that) and a step taking 1 s of a virtual clock: a
    descent whose deadline falls between its k-th step and the next stops there, having
    raised availability counts on the way, and leaves the tree as it was."""
    eng, sampler, root, rnd = grow(game_id, 60, least=2)
    slow = SlowEngine(eng, 1.0, VirtualClock())
    monkeypatch.setattr(ai.mcts, "DEADLINE_CHECK_STEPS", 1)
    monkeypatch.setattr(ai.mcts, "time", slow.clock)
    before = snapshot(root)
    cut = 0
    for k in range(1, 4):
        for _ in range(10):
            end = slow.clock.now + k - 0.5
            world = sampler.sample(rnd)
            descent = select_expand(slow, root, world, rnd, 0.7, end, None)  # type: ignore[arg-type]
            if descent is None:
                cut += 1
            else:  # a descent of k steps or fewer ended in time: taken back here
                undo(descent)
            assert snapshot(root) == before
    assert cut >= 10


class Fixed:
    """An evaluator that gives each seat s the reward (s + 1) / (n + 1) and counts its calls,
    checking it gets a full world (every seat's hand dealt)."""

    def __init__(self) -> None:
        self.calls = 0

    def evaluate(
        self, eng: GameModule, g: Any, rnd: random.Random, deadline: float
    ) -> list[float] | None:
        self.calls += 1
        assert deadline < math.inf
        return [(s + 1) / (g.n + 1) for s in range(g.n)]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_an_evaluator_plugs_in_and_is_what_the_tree_learns(game_id: str) -> None:
    view = seat_view(wide_position(game_id))
    seat = view["view_of"]
    fixed = Fixed()
    res = IsmctsBot(Budget(iterations=30), evaluator=fixed, prior_widening=0.0).choose(view, 4)
    assert res.iterations == fixed.calls == 30
    n = engine(game_id).WorldSampler(view, None).base.n
    values = {o.value for o in res.options if o.visits}
    assert values == {(seat + 1) / (n + 1)}
    # the default is random rollouts with the margin weight 0.1
    assert IsmctsBot(Budget(iterations=5)).evaluator == RandomRollout(margin_weight=0.1)
