"""The search split into phases and evaluators (ai/mcts.py, ai/evaluators.py) answers exactly
as the one-loop search it replaced: 5928220's `ai/bots.py`, kept as tests/data/bots_5928220.py
and run here on today's engine. Same move, same iterations, same visits and values per option
(floats compared exactly), the same whole tree, for the levels, a time budget and the
review's search, on positions of every game with 2 to 4 seats and several seeds: the random
stream is drawn in the same order, so a seed's answer did not move."""

from __future__ import annotations

import random
from typing import Any

import pytest
from ai_support import answer, old_bots

import ai.mcts
from ai.bots import LEVELS, Budget, IsmctsBot
from ai.evaluators import RandomRollout
from engine.games import GAMES, engine

OLD = old_bots()


def views(game_id: str, count: int) -> list[dict[str, Any]]:
    """`count` views of `game_id` at a decision with a choice: 2, 3 and 4 seats in turn, each
    after a seeded number of random decisions."""
    eng = engine(game_id)
    found: list[dict[str, Any]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        seats = 2 + seed % 3
        rnd = random.Random(seed)
        g = eng.load(eng.new_game(eng.tournament_setup(seed, seats, None)))
        for _ in range(rnd.randrange(2, 50)):
            if g.over:
                break
            opts = eng.legal_actions(g)
            eng.apply_action(g, opts[rnd.randrange(len(opts))])
        if g.over or len(eng.legal_actions(g)) < 2:
            continue
        seat = eng.current_player(g)
        found.append(eng.player_view(eng.game_to_json(g), seat))
    return found


def tree(root: Any, old: bool) -> list[Any]:
    """The whole tree, depth first in insertion order: (edge, mover, visits, reward sum,
    availability) per node."""
    out: list[Any] = []
    stack = [((None,), root)]
    while stack:
        key, nd = stack.pop()
        if old:
            out.append((key, nd.mover, nd.n, nd.w, nd.avail))
        else:
            out.append((key, nd.mover, nd.visits, nd.reward_sum, nd.available))
        stack.extend(reversed(nd.children.items()))
    return out


def same(old_bot: Any, new_bot: IsmctsBot, view: dict[str, Any], seed: int) -> None:
    old_res, new_res = old_bot.choose(view, seed), new_bot.choose(view, seed)
    assert answer(new_res) == answer(old_res)
    assert tree(new_bot.last_root, False) == tree(old_bot.last_root, True)


@pytest.mark.parametrize("game_id", list(GAMES))
@pytest.mark.parametrize(
    ("level", "positions", "seeds"),
    [("easy", 30, (0, 7)), ("medium", 30, (1, 8)), ("hard", 12, (2,)), ("expert", 3, (3,))],
)
def test_every_level_answers_as_before(
    game_id: str, level: str, positions: int, seeds: tuple[int, ...]
) -> None:
    old_bot, new_bot = OLD.IsmctsBot(OLD.LEVELS[level]), IsmctsBot(LEVELS[level])
    for k, view in enumerate(views(game_id, positions)):
        for seed in seeds:
            same(old_bot, new_bot, view, seed + k)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_time_budget_answers_as_before(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A time budget (no prior; MAX_ITERATIONS as its limit, lowered here to 50 in both so
    that the iterations, not the machine's speed, end the search)."""
    monkeypatch.setattr(OLD, "MAX_ITERATIONS", 50)
    monkeypatch.setattr(ai.mcts, "MAX_ITERATIONS", 50)
    budget = Budget(time_ms=10_000)
    old_bot, new_bot = OLD.IsmctsBot(OLD.Budget(time_ms=10_000)), IsmctsBot(budget)
    for k, view in enumerate(views(game_id, 8)):
        old_res = old_bot.choose(view, k)
        assert old_res.iterations == 50 and not old_res.truncated
        same(old_bot, new_bot, view, k)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_reviews_search_answers_as_before(game_id: str) -> None:
    """Win shares alone (margin weight 0), no prior: what ai/review.py searches with."""
    old_bot = OLD.IsmctsBot(OLD.Budget(iterations=40), margin_weight=0.0, prior_widening=0.0)
    new_bot = IsmctsBot(
        Budget(iterations=40), evaluator=RandomRollout(margin_weight=0.0), prior_widening=0.0
    )
    for k, view in enumerate(views(game_id, 8)):
        same(old_bot, new_bot, view, k)


def test_the_control_a_changed_search_is_told_apart() -> None:
    """The comparison sees a change: another exploration constant answers otherwise."""
    view = views("architectura", 1)[0]
    old_bot = OLD.IsmctsBot(OLD.Budget(iterations=60))
    with pytest.raises(AssertionError):
        same(old_bot, IsmctsBot(Budget(iterations=60), exploration=0.5), view, 1)
