"""Does the review tell strong play from random play? (docs/review.md, issue 20)

For each game: N two-seat games where one seat (alternating) is played by an ISMCTS bot and
the other by uniformly random options; each game is reviewed (ai/review.py) with a fixed
budget per decision, and the strong seat's accuracy minus the random seat's is recorded. The
answer: per game the mean gap with a 95 % interval (t, and a bootstrap percentile one).

    python -m benchmarks.review_accuracy --games 40 --strong 300 --review 100 \
        --out docs/measurements/review-accuracy.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from ai.bots import Budget, IsmctsBot
from ai.review import assemble, plan, review_task
from engine.games import GAMES, engine

T975 = {5: 2.571, 9: 2.262, 19: 2.093, 29: 2.045, 39: 2.023}


def strong_against_random(
    eng: Any, seed: int, bot: IsmctsBot
) -> tuple[dict[str, Any], list[dict[str, Any]], int, float]:
    """A 2-seat game, `bot` on seat `seed % 2` and random options on the other: its set-up,
    its decisions, the strong seat and what that seat won."""
    setup = eng.tournament_setup(seed, 2, None)
    g = eng.new_game_internal(setup)
    rnd = random.Random(seed)
    strong_seat = seed % 2
    decisions = []
    while not g.over:
        seat = eng.current_player(g)
        assert seat is not None
        opts = eng.legal_actions(g)
        if seat == strong_seat and len(opts) > 1:
            a = bot.choose(eng.game_view(g, seat), rnd.randrange(2**31)).action
        else:
            a = opts[rnd.randrange(len(opts))]
        decisions.append(eng.action_to_json(g, seat, a))
        eng.apply_action(g, a)
    return setup, decisions, strong_seat, eng.returns(g)[strong_seat]


def reviewed_seats(
    eng: Any, setup: dict[str, Any], decisions: list[dict[str, Any]], seed: int, budget: Budget
) -> dict[str, Any]:
    """The review of a game's decisions, every position searched with `budget`."""
    walked = plan(eng, eng.new_game_internal(setup), decisions, None, seed)
    tasks = [d.task for d in walked if d.task is not None]
    return assemble(walked, [review_task(t, budget) for t in tasks], 2)


def one_game(game: str, seed: int, strong_it: int, review_it: int) -> dict[str, Any]:
    """A strong-vs-random game and its review: both seats' accuracies."""
    eng = engine(game)
    bot = IsmctsBot(Budget(iterations=strong_it))
    setup, decisions, strong_seat, won = strong_against_random(eng, seed, bot)
    seats = reviewed_seats(eng, setup, decisions, seed, Budget(iterations=review_it))
    acc = [s["accuracy"] for s in seats["seats"]]
    return {
        "seed": seed,
        "strong_seat": strong_seat,
        "strong_won": won,
        "strong_accuracy": acc[strong_seat],
        "random_accuracy": acc[1 - strong_seat],
        "gap": round(acc[strong_seat] - acc[1 - strong_seat], 1),
    }


def interval(gaps: list[float], seed: int = 0) -> dict[str, Any]:
    n = len(gaps)
    mean = statistics.mean(gaps)
    sd = statistics.stdev(gaps) if n > 1 else 0.0
    t = T975.get(n - 1, 1.96)
    rnd = random.Random(seed)
    boots = sorted(statistics.mean(rnd.choices(gaps, k=n)) for _ in range(2000))
    return {
        "games": n,
        "mean_gap": round(mean, 2),
        "t95": [round(mean - t * sd / math.sqrt(n), 2), round(mean + t * sd / math.sqrt(n), 2)],
        "bootstrap95": [round(boots[49], 2), round(boots[1949], 2)],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--strong", type=int, default=300, help="the strong bot's iterations")
    p.add_argument("--review", type=int, default=100, help="review iterations per decision")
    p.add_argument("--game", action="append", help="one game (default: every game)")
    p.add_argument("--out")
    args = p.parse_args(argv)
    out: dict[str, Any] = {
        "command": "python -m benchmarks.review_accuracy " + " ".join(sys.argv[1:]),
        "strong_iterations": args.strong,
        "review_iterations": args.review,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "games": {},
    }
    for game in args.game or list(GAMES):
        t0 = time.perf_counter()
        rows = []
        for s in range(args.games):
            rows.append(one_game(game, s, args.strong, args.review))
            print(game, json.dumps(rows[-1]), flush=True)
        summary = interval([r["gap"] for r in rows])
        summary["strong_win_rate"] = round(statistics.mean(r["strong_won"] for r in rows), 3)
        summary["seconds"] = round(time.perf_counter() - t0, 1)
        print(game, json.dumps(summary), flush=True)
        out["games"][game] = {"summary": summary, "rows": rows}
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
