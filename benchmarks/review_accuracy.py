"""Does the review tell strong play from random play? (docs/review.md, issues 20 and 31)

For each game: N games where one seat (in turn) is played by an ISMCTS bot and the others by
uniformly random options; each game is reviewed (ai/review.py) with a fixed budget per
decision, and the strong seat's accuracy minus the random seats' (their mean) is recorded. The
answer: per game the mean gap with a 95 % interval (t, and a bootstrap percentile one).
`--seats 3` or 4: the random seats are the trailing ones, judged mostly by margin (review.py
HOPELESS). `--evaluator` (repeatable): the win search's evaluation (review.py EVALUATORS);
with more than one, each game is played once and reviewed with each, and the difference of
each one's gap and the first's is given with its interval too (paired: the same games).

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

from ai.bots import LEVELS, Bot, Budget, IsmctsBot, parse_bot_spec
from ai.review import EVALUATORS, WIN_EVALUATOR, assemble, default_level, plan, review_task
from engine.games import GAMES, engine

T975 = {5: 2.571, 7: 2.365, 9: 2.262, 19: 2.093, 29: 2.045, 39: 2.023}


def strong_against_random(
    eng: Any, seed: int, bot: Bot, seats: int = 2
) -> tuple[dict[str, Any], list[dict[str, Any]], int, float]:
    """A game of `seats`, `bot` on seat `seed % seats` and random options on the others: its
    set-up, its decisions, the strong seat and what that seat won."""
    setup = eng.tournament_setup(seed, seats, None)
    g = eng.new_game_internal(setup)
    rnd = random.Random(seed)
    strong_seat = seed % seats
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
    eng: Any,
    setup: dict[str, Any],
    decisions: list[dict[str, Any]],
    seed: int,
    budget: Budget | None,
    evaluator: str = WIN_EVALUATOR,
) -> dict[str, Any]:
    """The review of a game's decisions, every position searched with `budget` (None: at the
    level a review asked without one takes, `default_level`; the answer's `level`)."""
    g = eng.new_game_internal(setup)
    walked = plan(eng, g, decisions, None, seed)
    tasks = [d.task for d in walked if d.task is not None]
    level = None
    if budget is None:
        level = default_level(len(tasks))
        budget = LEVELS[level]
    rows = [review_task(t, budget, evaluator=evaluator) for t in tasks]
    return {**assemble(walked, rows, g.n), "level": level}


def strong_bot(strong: int | str) -> Bot:
    """The strong seat's bot: ISMCTS with random playouts and `strong` iterations (fa772fb's
    `expert` at 640), or a bot spec (`ai.bots.parse_bot_spec`: `expert` is today's, judged by
    the learned model, as the review is)."""
    return (
        IsmctsBot(Budget(iterations=strong))
        if isinstance(strong, int)
        else parse_bot_spec(strong)[1]
    )


def played(
    game: str, seed: int, strong: int | str, seats: int, cache: Path | None
) -> tuple[dict[str, Any], list[dict[str, Any]], int, float]:
    """`strong_against_random`, kept in `cache` (a directory) when one is given: the games do
    not depend on the review, so one set of games serves every review setting."""
    name = f"{strong}it" if isinstance(strong, int) else strong.replace(":", "_").replace("/", "_")
    path = cache / f"{game}-{seats}p-{name}-{seed}.json" if cache else None
    if path is not None and path.is_file():
        d = json.loads(path.read_text())
        return d["setup"], d["decisions"], d["strong_seat"], d["won"]
    bot = strong_bot(strong)
    setup, decisions, strong_seat, won = strong_against_random(engine(game), seed, bot, seats)
    if path is not None:
        doc = {"setup": setup, "decisions": decisions, "strong_seat": strong_seat, "won": won}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(doc))
    return setup, decisions, strong_seat, won


def one_game(
    game: str,
    seed: int,
    strong: int | str,
    review_it: int | None,
    seats: int,
    evaluators: list[str],
    cache: Path | None = None,
) -> dict[str, Any]:
    """A strong-vs-random game and its review by each evaluator: the seats' accuracies."""
    eng = engine(game)
    setup, decisions, strong_seat, won = played(game, seed, strong, seats, cache)
    out: dict[str, Any] = {"seed": seed, "strong_seat": strong_seat, "strong_won": won}
    for name in evaluators:
        budget = None if review_it is None else Budget(iterations=review_it)
        rows = reviewed_seats(eng, setup, decisions, seed, budget, name)
        acc = [s["accuracy"] for s in rows["seats"]]
        weak = statistics.mean(a for s, a in enumerate(acc) if s != strong_seat)
        by = [r.get("judged_by") for r in rows["decisions"] if "verdict" in r]
        out[name] = {
            "strong_accuracy": acc[strong_seat],
            "random_accuracy": round(weak, 1),
            "gap": round(acc[strong_seat] - weak, 1),
            "judged_by_margin": by.count("margin"),
            "reviewed": len(by),
            "iterations": rows["iterations"],
            **({"level": rows["level"]} if review_it is None else {}),
        }
    return out


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
    p.add_argument("--strong-bot", help="instead of --strong: a bot spec (expert, model:640it...)")
    p.add_argument(
        "--review",
        type=lambda v: None if v == "default" else int(v),
        default=100,
        help="review iterations per decision, or `default`: the service's default level",
    )
    p.add_argument("--game", action="append", help="one game (default: every game)")
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--first", type=int, default=0, help="the first game's seed")
    p.add_argument("--evaluator", action="append", choices=EVALUATORS)
    p.add_argument("--cache", type=Path, help="a directory keeping the games played")
    p.add_argument("--out")
    args = p.parse_args(argv)
    evaluators = args.evaluator or [WIN_EVALUATOR]
    strong: int | str = args.strong_bot or args.strong
    out: dict[str, Any] = {
        "command": "python -m benchmarks.review_accuracy " + " ".join(sys.argv[1:]),
        "strong_iterations": args.strong,
        "strong_bot": args.strong_bot or f"ismcts:{args.strong}it",
        "review_iterations": args.review or "default",
        "seats": args.seats,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "games": {},
    }
    for game in args.game or list(GAMES):
        t0 = time.perf_counter()
        rows = []
        for s in range(args.first, args.first + args.games):
            rows.append(one_game(game, s, strong, args.review, args.seats, evaluators, args.cache))
            print(game, json.dumps(rows[-1]), flush=True)
        summary: dict[str, Any] = {e: interval([r[e]["gap"] for r in rows]) for e in evaluators}
        for b in evaluators[1:]:  # paired: the same games
            a = evaluators[0]
            summary[f"{b}_minus_{a}"] = interval([r[b]["gap"] - r[a]["gap"] for r in rows])
        summary["strong_win_rate"] = round(statistics.mean(r["strong_won"] for r in rows), 3)
        summary["seconds"] = round(time.perf_counter() - t0, 1)
        print(game, json.dumps(summary), flush=True)
        out["games"][game] = {"summary": summary, "rows": rows}
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
