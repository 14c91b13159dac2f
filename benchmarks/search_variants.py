"""Two ISMCTS settings head to head, with the CPU time each spends per decision (issue 19 item 3).

    python -m benchmarks.search_variants --game fora-de-prumo --games 100 \
        --a '{"iterations": 40, "prior_widening": 2}' --b '{"iterations": 44}'

`--a` and `--b` are JSON: `iterations` (the budget) and any keyword argument of
`benchmarks.variants.variant_bot` (`IsmctsBot`'s, and the variants measured and not kept:
`mast_eps`, `greedy_eps`, `rollout_depth`, ...); `prior_widening` is 0 unless given (not the
game's default, so that `{"iterations": 40}` is the search without the greedy prior); or a
bot spec of `ai.tournament` (`greedy`, `hard`, `ismcts:100ms`). Iteration budgets keep the result independent of the machine's load;
equal thinking time comes from choosing them so that the CPU time per decision
(`time.process_time` around each `choose`, printed with its quartiles) matches. Two seats,
each deal (`--seed`, `--seed`+1, ...) played twice with the seats swapped, one process; a
shared win counts half; 95% Wilson interval. Run it under `nice` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Any

from ai.bots import Bot, Budget, Catalog, SearchResult, parse_bot_spec
from ai.tournament import play_game, wilson
from benchmarks.local import publish
from benchmarks.variants import variant_bot
from engine.games import GAMES


class Timed(Bot):
    """A bot whose every `choose` records its CPU time (ms)."""

    def __init__(self, bot: Bot) -> None:
        self.bot, self.name = bot, bot.name
        self.cpu_ms: list[float] = []

    def choose(
        self,
        view: dict[str, Any],
        seed: int,
        catalog: Catalog | None = None,
        deadline: float | None = None,
    ) -> SearchResult:
        t0 = time.process_time()
        res = self.bot.choose(view, seed, catalog, deadline)
        self.cpu_ms.append((time.process_time() - t0) * 1000)
        return res


def make(options: dict[str, Any] | str) -> Bot:
    """The bot of `--a`/`--b`: a bot spec, or ISMCTS settings, without a `prior_widening` no
    prior (the search before it)."""
    if isinstance(options, str):
        return parse_bot_spec(options)[1]
    kw = {"prior_widening": 0.0, **options}
    return variant_bot(Budget(iterations=int(kw.pop("iterations"))), kw)


def side(text: str) -> dict[str, Any] | str:
    """`--a`/`--b`: JSON settings, or a bot spec."""
    return json.loads(text) if text.lstrip().startswith("{") else text


def spread(xs: list[float]) -> dict[str, float]:
    q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
    return {"mean": statistics.fmean(xs), "q1": q[0], "median": q[1], "q3": q[2],
            "min": min(xs), "max": max(xs)}  # fmt: skip


def match(
    game: str, a: dict[str, Any] | str, b: dict[str, Any] | str, games: int, seed: int
) -> dict[str, Any]:
    bot_a, bot_b = Timed(make(a)), Timed(make(b))
    points = 0.0
    wins = draws = losses = 0
    loads = [os.getloadavg()[0]]
    t0 = time.perf_counter()
    deals = (games + 1) // 2
    for i in range(deals):
        for swapped in (False, True):
            bots: list[Bot] = [bot_b, bot_a] if swapped else [bot_a, bot_b]
            scores = play_game(seed + i, bots, game=game)[0]
            me, other = (1, 0) if swapped else (0, 1)
            points += scores[me]
            wins += scores[me] > scores[other]
            draws += scores[me] == scores[other]
            losses += scores[me] < scores[other]
        loads.append(os.getloadavg()[0])
        played = 2 * (i + 1)
        lo, hi = wilson(points, played)
        print(f"{played:4d} games: A {points / played:.3f} ({lo:.3f}-{hi:.3f})", file=sys.stderr)
    played = 2 * deals
    lo, hi = wilson(points, played)
    return {
        "game": game,
        "a": a,
        "b": b,
        "seats": 2,
        "seed": seed,
        "games": played,
        "a_wins": wins,
        "draws": draws,
        "b_wins": losses,
        "a_win_rate": points / played,
        "ci95": [lo, hi],
        "a_cpu_ms_per_decision": spread(bot_a.cpu_ms),
        "b_cpu_ms_per_decision": spread(bot_b.cpu_ms),
        "decisions": [len(bot_a.cpu_ms), len(bot_b.cpu_ms)],
        "load_average_1min": {"min": min(loads), "max": max(loads)},
        "seconds": time.perf_counter() - t0,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", choices=list(GAMES), required=True)
    p.add_argument(
        "--a", type=side, required=True, help="JSON (iterations, variant_bot args) or a bot spec"
    )
    p.add_argument("--b", type=side, required=True)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", help="write the summary to this JSON file")
    args = p.parse_args()
    summary = match(args.game, args.a, args.b, args.games, args.seed)
    publish(summary, "benchmarks.search_variants", args.out)


if __name__ == "__main__":
    main()
