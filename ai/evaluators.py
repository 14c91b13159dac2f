"""How ISMCTS judges a position it reached: one interface, `Evaluator`, that every way of
evaluating plugs into (random playouts, a learned model, a later idea); `ai.mcts` calls it once
per iteration, on the world the descent left at the expanded node.

`RandomRollout`, the default, plays the world out uniformly at random and scores the end;
`MarginRollout` does the same and scores the margin each seat gained from a given start (a
review's judgement of a seat that can no longer win, ai/review.py).
Evaluators measured and not kept (MAST, greedy and truncated rollouts) are in
`benchmarks/variants.py`.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Protocol

from ai.base import DEADLINE_CHECK_STEPS, Game, lead
from engine.games import GameModule

MARGIN_CLAMP = 20  # the score margin counts in the reward up to this many points either way


class Evaluator(Protocol):
    """Rewards per seat (each in [0, 1]) for a world `g` (a full sampled state the search owns
    and may change), or None when `deadline` (a time.perf_counter instant) passed first."""

    def evaluate(
        self, eng: GameModule, g: Game, rnd: random.Random, deadline: float
    ) -> list[float] | None: ...


def for_search(evaluator: Evaluator, eng: GameModule) -> Evaluator:
    """The evaluator one search of `eng` calls at its leaves: the evaluator's own
    `for_search(eng)` when it has one (what it can settle once a search instead of once a leaf,
    such as which model file judges: `ai.model.ModelEvaluator`), else the evaluator itself."""
    bind = getattr(evaluator, "for_search", None)
    return bind(eng) if callable(bind) else evaluator


def final_rewards(eng: GameModule, g: Game, margin_weight: float) -> list[float]:
    """Each seat's reward for a finished game: its win share (A-8.2; a shared win counts 1/k)
    with a small bonus for the score margin, so that among lines all won or all lost bigger
    margins rank higher (keeps the search informative when one outcome dominates):
    `(1 - margin_weight) * win share + margin_weight * margin term`, the margin over the best
    other seat clamped to +-MARGIN_CLAMP and mapped to [0, 1]. With `margin_weight` 0 the
    reward is the win share alone (a review's win chances, ai/review.py)."""
    fs = eng.tally(g)
    winners = fs["winners"]
    totals = [s["total"] for s in fs["seats"]]
    out = []
    for s in range(g.n):
        win = 1.0 / len(winners) if s in winners else 0.0
        # written as the search always computed it: the same floats, the same answers
        shifted = clamped(lead(totals, s)) + MARGIN_CLAMP
        out.append((1 - margin_weight) * win + margin_weight * shifted / (2 * MARGIN_CLAMP))
    return out


def clamped(margin: int) -> int:
    """A margin (points, + or -) clamped to +-MARGIN_CLAMP."""
    return max(-MARGIN_CLAMP, min(MARGIN_CLAMP, margin))


def margin_reward(margin: int) -> float:
    """A margin (points, + or -) as a reward: clamped to +-MARGIN_CLAMP, mapped to [0, 1]
    (0.5: level)."""
    return (clamped(margin) + MARGIN_CLAMP) / (2 * MARGIN_CLAMP)


def play_out(eng: GameModule, g: Game, rnd: random.Random, deadline: float) -> bool:
    """Play `g` to its end by uniformly random options (a forced step draws too); False when
    `deadline` passed first. The clock is read every DEADLINE_CHECK_STEPS steps, so one long
    game cannot hold the search past its deadline."""
    legal, step = eng.legal_actions, eng.apply_action
    randrange = rnd.randrange
    clock = time.perf_counter
    steps = 0
    while not g.over:
        opts = legal(g)
        step(g, opts[randrange(len(opts))])
        steps += 1
        if steps % DEADLINE_CHECK_STEPS == 0 and clock() >= deadline:
            return False
    return True


@dataclass(frozen=True, slots=True)
class RandomRollout:
    """Play the world out uniformly at random (`play_out`), then `final_rewards`."""

    margin_weight: float = 0.1

    def evaluate(
        self, eng: GameModule, g: Game, rnd: random.Random, deadline: float
    ) -> list[float] | None:
        if not play_out(eng, g, rnd, deadline):
            return None
        return final_rewards(eng, g, self.margin_weight)


@dataclass(frozen=True, slots=True)
class MarginRollout:
    """Play the world out uniformly at random (`play_out`), then reward each seat by the
    score margin it gained, `margin_reward` of its `lead` at the end minus `start[seat]` (its
    lead where the search began). Centred on where the search began, so a seat far
    behind (a margin beyond the clamp) still sees which options lose it more points."""

    start: tuple[int, ...]

    def evaluate(
        self, eng: GameModule, g: Game, rnd: random.Random, deadline: float
    ) -> list[float] | None:
        if not play_out(eng, g, rnd, deadline):
            return None
        totals = [s["total"] for s in eng.tally(g)["seats"]]
        return [margin_reward(lead(totals, s) - self.start[s]) for s in range(g.n)]
