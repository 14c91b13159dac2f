"""How ISMCTS judges a position it reached: one interface, `Evaluator`, that every way of
evaluating plugs into (random playouts, a learned model, a later idea); `ai.mcts` calls it once
per iteration, on the world the descent left at the expanded node.

`RandomRollout`, the default, plays the world out uniformly at random and scores the end.
Evaluators measured and not kept (MAST, greedy and truncated rollouts) are in
`benchmarks/variants.py`.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Protocol

from ai.base import DEADLINE_CHECK_STEPS, Game
from engine.games import GameModule

MARGIN_CLAMP = 20  # the score margin counts in the reward up to this many points either way


class Evaluator(Protocol):
    """Rewards per seat (each in [0, 1]) for a world `g` (a full sampled state the search owns
    and may change), or None when `deadline` (a time.perf_counter instant) passed first."""

    def evaluate(
        self, eng: GameModule, g: Game, rnd: random.Random, deadline: float
    ) -> list[float] | None: ...


def final_rewards(eng: GameModule, g: Game, margin_weight: float) -> list[float]:
    """Each seat's reward for a finished game: its win share (A-8.2; a shared win counts 1/k)
    with a small bonus for the score margin, so that among lines all won or all lost bigger
    margins rank higher (keeps the search informative when one outcome dominates):
    `(1 - margin_weight) * win share + margin_weight * margin term`, the margin over the best
    other seat clamped to +-MARGIN_CLAMP and mapped to [0, 1]. With `margin_weight` 0 the
    reward is the win share alone (a review's win chances, ai/review.py)."""
    fs = eng.final_scores(g)
    winners = fs["winners"]
    totals = [s["total"] for s in fs["seats"]]
    out = []
    for s in range(g.n):
        win = 1.0 / len(winners) if s in winners else 0.0
        best_other = max(t for j, t in enumerate(totals) if j != s)
        m = max(-MARGIN_CLAMP, min(MARGIN_CLAMP, totals[s] - best_other))
        out.append(
            (1 - margin_weight) * win + margin_weight * (m + MARGIN_CLAMP) / (2 * MARGIN_CLAMP)
        )
    return out


@dataclass(frozen=True, slots=True)
class RandomRollout:
    """Play the world out uniformly at random (a forced step draws too), then `final_rewards`.
    The clock is read every DEADLINE_CHECK_STEPS steps, so one long game cannot hold the
    search past its deadline."""

    margin_weight: float = 0.1

    def evaluate(
        self, eng: GameModule, g: Game, rnd: random.Random, deadline: float
    ) -> list[float] | None:
        legal, step = eng.legal_actions, eng.apply_action
        randrange = rnd.randrange
        clock = time.perf_counter
        steps = 0
        while not g.over:
            opts = legal(g)
            step(g, opts[randrange(len(opts))])
            steps += 1
            if steps % DEADLINE_CHECK_STEPS == 0 and clock() >= deadline:
                return None
        return final_rewards(eng, g, self.margin_weight)
