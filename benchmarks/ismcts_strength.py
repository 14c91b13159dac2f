"""Bot strength at equal thinking time: this tree's ISMCTS against an older commit's, and
ISMCTS against greedy seats in 3- and 4-seat games (issue 10, item 3).

    python -m benchmarks.ismcts_strength baseline --rev 5295b59 --time-ms 100 --games 200
    python -m benchmarks.ismcts_strength seats --seats 3 --time-ms 100 --games 150
    python -m benchmarks.ismcts_strength iterations --rev 5295b59

`iterations`: search speed alone. Both ISMCTS run a fixed 400-iteration budget on the same
mid-game 2-seat views of `--game` (random play from seeded deals), alternately, `--rounds`
times each; printed as iterations per CPU-second of this process.

`baseline`: REV's engine/ and ai/ are extracted with `git archive` into a temporary directory
as the packages `old_engine` and `old_ai` (their imports rewritten to match), and imported
in this process next to today's; the old ISMCTS then plays today's through the same referee
(`ai.tournament.play_game`: today's engine, every decision from `game_view(state, seat)`,
whose bytes are the same in both trees: tests/architectura/test_pinned_games.py). Each deal is played
twice with the seats swapped; a shared win counts half; 95% Wilson interval. `--options JSON`
passes keyword arguments to `benchmarks.variants.variant_bot` for today's bot (a search
variant, e.g. `'{"mast_eps": 0.2}'` for MAST rollouts); `--rev` may name any commit, e.g. an
earlier one of this tree for a head-to-head match against its search.

`seats`: one ISMCTS seat against greedy seats; the ISMCTS seat goes round the table from deal
to deal. Its win share (1 per win, 1/k for a k-way shared win: A-8.2) is compared with the
fair share 1/seats; 95% Wilson interval on the share. `--options JSON` as for `baseline`.

One process; time budgets are wall-clock, so run it alone on an idle machine when possible
(`nice -n 10` when the machine is shared). `--out FILE` writes the summary as JSON.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ai.bots import Budget, GreedyBot, IsmctsBot
from ai.tournament import play_game, wilson
from benchmarks.local import extract, publish
from benchmarks.variants import variant_bot
from engine.games import GAMES, engine

_IMPORTS = re.compile(r"\b(from|import) (engine|ai)\b")
_RESOURCE = re.compile(r"(['\"])engine\.")


def load_old_bots(rev: str, into: Path) -> Any:
    """REV's ai.bots module, imported as old_ai.bots with its own engine (old_engine)."""
    extract(rev, into, "engine", "ai")
    for old, new in (("engine", "old_engine"), ("ai", "old_ai")):
        (into / old).rename(into / new)
    for path in into.rglob("*.py"):
        text = path.read_text()
        text = _IMPORTS.sub(lambda m: f"{m.group(1)} old_{m.group(2)}", text)
        path.write_text(_RESOURCE.sub(r"\1old_engine.", text))
    sys.path.insert(0, str(into))
    module = importlib.import_module("old_ai.bots")
    if not Path(str(module.__file__)).is_relative_to(into):
        raise SystemExit(f"old_ai.bots came from {module.__file__}")
    return module


def baseline_match(
    rev: str, time_ms: int, games: int, seed: int, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ismcts-baseline-") as tmp:
        old = load_old_bots(rev, Path(tmp))
        new_bot = variant_bot(Budget(time_ms=time_ms), options or {})
        old_bot = old.IsmctsBot(old.Budget(time_ms=time_ms))
        points = 0.0
        wins = draws = losses = 0
        think = [0.0, 0.0]
        count = [0, 0]
        t0 = time.perf_counter()
        deals = (games + 1) // 2
        for i in range(deals):
            for swapped in (False, True):
                bots = [old_bot, new_bot] if swapped else [new_bot, old_bot]
                scores, ms, n = play_game(seed + i, bots, "basic")
                me, other = (1, 0) if swapped else (0, 1)
                points += scores[me]
                wins += scores[me] > scores[other]
                draws += scores[me] == scores[other]
                losses += scores[me] < scores[other]
                think[0] += ms[me]
                think[1] += ms[other]
                count[0] += n[me]
                count[1] += n[other]
            played = 2 * (i + 1)
            lo, hi = wilson(points, played)
            print(
                f"{played:4d} games: new {points / played:.3f} (95% CI {lo:.3f}-{hi:.3f})",
                file=sys.stderr,
            )
    played = 2 * deals
    lo, hi = wilson(points, played)
    return {
        "match": f"ismcts:{time_ms}ms (this tree) vs ismcts:{time_ms}ms ({rev})",
        "variant": "basic",
        "seats": 2,
        "seed": seed,
        "new_bot_options": options or {},
        "games": played,
        "new_wins": wins,
        "draws": draws,
        "old_wins": losses,
        "new_win_rate": points / played,
        "ci95": [lo, hi],
        "new_ms_per_decision": think[0] / max(count[0], 1),
        "old_ms_per_decision": think[1] / max(count[1], 1),
        "seconds": time.perf_counter() - t0,
    }


def iterations_rate(
    rev: str, positions: int, rounds: int, game: str = "architectura"
) -> dict[str, Any]:
    eng = engine(game)
    with tempfile.TemporaryDirectory(prefix="ismcts-baseline-") as tmp:
        old = load_old_bots(rev, Path(tmp))
        bots = {
            "this tree": IsmctsBot(Budget(iterations=400)),
            rev: old.IsmctsBot(old.Budget(iterations=400)),
        }
        views = []
        for seed in range(positions):
            rnd = random.Random(seed)
            g = eng.load(eng.new_game(eng.tournament_setup(seed, 2, None)))
            for _ in range(8 + seed % 8):
                eng.apply_action(g, rnd.choice(eng.legal_actions(g)))
            seat = eng.current_player(g)
            if seat is not None:
                views.append(eng.game_view(g, seat))
        rates: dict[str, list[float]] = {name: [] for name in bots}
        for _ in range(rounds):
            for name, bot in bots.items():
                t0, done = time.process_time(), 0
                for k, view in enumerate(views):
                    done += bot.choose(view, k).iterations
                rates[name].append(done / (time.process_time() - t0))
                print(f"{name}: {rates[name][-1]:.0f} iterations/CPU-s", file=sys.stderr)
    return {
        "measure": "ISMCTS iterations per CPU-second, 400-iteration searches, 2-seat views",
        "game": game,
        "positions": len(views),
        "rounds": rounds,
        "iterations_per_cpu_s": rates,
        "ratio_of_medians": statistics.median(rates["this tree"]) / statistics.median(rates[rev]),
    }


def seats_match(
    seats: int,
    time_ms: int,
    games: int,
    seed: int,
    variant: str,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    ismcts = variant_bot(Budget(time_ms=time_ms), options or {})
    greedy = GreedyBot()
    share = 0.0
    wins = shared = 0
    ms_total = 0.0
    decisions = 0
    t0 = time.perf_counter()
    for i in range(games):
        seat = i % seats
        bots: list[Any] = [greedy] * seats
        bots[seat] = ismcts
        scores, ms, n = play_game(seed + i, bots, variant)
        share += scores[seat]
        wins += scores[seat] == 1.0
        shared += 0.0 < scores[seat] < 1.0
        ms_total += ms[seat]
        decisions += n[seat]
        lo, hi = wilson(share, i + 1)
        print(
            f"{i + 1:4d} games: ISMCTS share {share / (i + 1):.3f} (95% CI {lo:.3f}-{hi:.3f}),"
            f" fair {1 / seats:.3f}",
            file=sys.stderr,
        )
    lo, hi = wilson(share, games)
    return {
        "match": f"ismcts:{time_ms}ms vs {seats - 1} greedy seats",
        "variant": variant,
        "seats": seats,
        "seed": seed,
        "games": games,
        "ismcts_options": options or {},
        "ismcts_seat": "round the table: deal i puts ISMCTS in seat i mod seats",
        "ismcts_wins": wins,
        "ismcts_shared_wins": shared,
        "ismcts_win_share": share / games,
        "fair_share": 1 / seats,
        "ci95": [lo, hi],
        "ismcts_ms_per_decision": ms_total / max(decisions, 1),
        "seconds": time.perf_counter() - t0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="what", required=True)
    base = sub.add_parser("baseline", help="this tree's ISMCTS against REV's, 2 seats")
    base.add_argument("--rev", default="5295b59")
    its = sub.add_parser("iterations", help="ISMCTS iterations per CPU-second, both trees")
    its.add_argument("--rev", default="5295b59")
    its.add_argument("--positions", type=int, default=12)
    its.add_argument("--rounds", type=int, default=3)
    its.add_argument("--game", choices=list(GAMES), default="architectura")
    its.add_argument("--out", help="write the summary to this JSON file")
    multi = sub.add_parser("seats", help="one ISMCTS seat against greedy seats")
    multi.add_argument("--seats", type=int, choices=(3, 4), required=True)
    multi.add_argument("--variant", choices=("basic", "advanced"), default="basic")
    for p in (base, multi):
        p.add_argument(
            "--options", type=json.loads, default={}, help="JSON keyword arguments of variant_bot"
        )
        p.add_argument("--time-ms", type=int, default=100)
        p.add_argument("--games", type=int, default=200)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--out", help="write the summary to this JSON file")
    args = parser.parse_args()
    if args.what == "baseline":
        summary = baseline_match(args.rev, args.time_ms, args.games, args.seed, args.options)
    elif args.what == "iterations":
        summary = iterations_rate(args.rev, args.positions, args.rounds, args.game)
    else:
        summary = seats_match(
            args.seats, args.time_ms, args.games, args.seed, args.variant, args.options
        )
    publish(summary, "benchmarks.ismcts_strength", args.out)


if __name__ == "__main__":
    main()
