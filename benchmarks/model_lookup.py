"""The model file looked up once a search instead of once a leaf (docs/model.md), side by side:

    python -m benchmarks.model_lookup [--rounds 15] [--iterations 300]

The served search (`ai.model.learned_search`, model alone) from fixed mid-game positions of
each game (2 seats, seeds 1..8, 20 random decisions in), every search with the same seed, two
ways in alternation within each round: `per_leaf`, the evaluator of before (the model file
found again at every leaf, a `stat` of it each time: `ai.model.model_for`), and `per_search`,
today's (`ModelEvaluator.for_search`). Both give the same moves (checked here); the figure is
the CPU time of `per_search` over `per_leaf` per round, median and range over the rounds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

from ai.base import Budget
from ai.evaluators import Evaluator
from ai.model import learned_search
from engine.games import GAMES, GameModule, engine


@dataclass(frozen=True)
class PerLeaf:
    """The evaluator as it was: no `for_search`, so the model file is found at every leaf."""

    inner: Evaluator

    def evaluate(self, eng: GameModule, g: Any, rnd: random.Random, deadline: float) -> Any:
        return self.inner.evaluate(eng, g, rnd, deadline)


def positions(eng: GameModule) -> list[dict[str, Any]]:
    out = []
    for seed in range(1, 9):
        g = eng.new_game_internal(eng.tournament_setup(seed, 2, None))
        rnd = random.Random(seed)
        for _ in range(20):
            opts = eng.legal_actions(g)
            eng.apply_action(g, opts[rnd.randrange(len(opts))])
        seat = eng.current_player(g)
        if seat is not None:
            out.append(eng.game_view(g, seat))
    return out


def searched(
    views: list[dict[str, Any]], iterations: int, per_leaf: bool
) -> tuple[float, list[Any]]:
    t0, moves = time.process_time(), []
    for view in views:
        bot = learned_search(Budget(iterations=iterations))
        if per_leaf:
            bot.evaluator = PerLeaf(bot.evaluator)
        moves.append(bot.choose(view, 1).action)
    return time.process_time() - t0, moves


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--iterations", type=int, default=300)
    args = p.parse_args(argv)
    for game in GAMES:
        views = positions(engine(game))
        ratios = []
        for r in range(args.rounds):
            order = (True, False) if r % 2 == 0 else (False, True)
            got = {leaf: searched(views, args.iterations, leaf) for leaf in order}
            assert got[True][1] == got[False][1], "the same moves"
            ratios.append(got[False][0] / got[True][0])
        print(
            f"{game}: per_search/per_leaf CPU median {statistics.median(ratios):.3f} "
            f"(min {min(ratios):.3f}, max {max(ratios):.3f}; {args.rounds} rounds, "
            f"{len(views)} positions x {args.iterations} iterations)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
