"""The rating ladder: `python -m ai.ratings --game G` (docs/bots.md, "Rating ladder").

Plays a two-seat round robin among random, greedy and every level of `ai.bots.LEVELS` (each
pair the same deals, each deal twice with the seats swapped: `ai.tournament.run_match`), on
the RQ queue when Redis is configured (`--queue URL`, or `REDIS_URL` in the environment, and
a worker listening; docs/scale.md), in local processes otherwise. Then fits a Bradley-Terry
model to every game's result (a shared win counts half for each side, A-8.2 / F-8) and gives
the ratings on the Elo scale (400 · log10 of the strength ratio), random anchored at 0, with
95 % bootstrap intervals (games resampled with replacement within each pair, the model fitted
again each time, 2.5th and 97.5th percentiles).

One virtual drawn game per pair is added to the data (a weak prior, as BayesElo does), so that a
pair one bot always wins still gives a finite rating. The fit is Hunter's MM algorithm (Hunter
2004, "MM algorithms for generalized Bradley-Terry models", Annals of Statistics 32(1)).

Levels must be strictly ordered: for each two adjacent levels (and greedy / easy, random /
greedy) the file records the rating difference with its bootstrap interval and their own
match's win rate with its Wilson interval; `ordered` is true when every level is above the
level below it significantly: the rating difference's interval above 0, or their own match's
Wilson interval above one half.

Results: a JSON file (`--out`, default docs/measurements/ratings-<game>.json) with the
command, seeds, games per pair, the date, the engine build, the ratings, each bot's measured
time per decision and every game's result (so that `--merge` can add games to an earlier run,
e.g. more games for the adjacent pairs only with `--pairs adjacent`).
"""

from __future__ import annotations

import datetime
import itertools
import json
import math
import os
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ai.bots import LEVELS, parse_bot_spec
from ai.taskqueue import QueueUnavailable
from ai.tournament import command, run_match, save_plot, wilson
from engine.compiled import build_of
from engine.games import engine

ELO = 400 / math.log(10)  # Elo points per unit of the Bradley-Terry log-strength
BOTS: tuple[str, ...] = ("random", "greedy", *LEVELS)
ANCHOR = "random"
PRIOR_DRAWS = 1  # virtual drawn games added to every pair played
ROOT = Path(__file__).resolve().parent.parent

# one game between two bots: (a, b, a's score 1, 0.5 or 0)
Game = tuple[str, str, float]


def fit(games: Sequence[Game], bots: Sequence[str], anchor: str = ANCHOR) -> dict[str, float]:
    """Bradley-Terry ratings on the Elo scale, `anchor` at 0, of the bots in `bots` from
    `games` (plus PRIOR_DRAWS virtual draws per pair that met). A bot that played no game
    gets the anchor's rating (0)."""
    idx = {b: i for i, b in enumerate(bots)}
    n = len(bots)
    wins = [0.0] * n
    meets = [[0.0] * n for _ in range(n)]
    for a, b, s in games:
        i, j = idx[a], idx[b]
        wins[i] += s
        wins[j] += 1 - s
        meets[i][j] += 1
        meets[j][i] += 1
    for i in range(n):
        for j in range(i + 1, n):
            if meets[i][j]:
                for k, extra in ((i, j), (j, i)):
                    meets[k][extra] += PRIOR_DRAWS
                    wins[k] += PRIOR_DRAWS / 2
    gamma = [1.0] * n
    for _ in range(10_000):
        new = []
        for i in range(n):
            denom = sum(meets[i][j] / (gamma[i] + gamma[j]) for j in range(n) if meets[i][j])
            new.append(wins[i] / denom if denom else gamma[i])
        total = math.exp(sum(math.log(g) for g in new) / n)
        new = [g / total for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < 1e-10:
            break
    zero = math.log(gamma[idx[anchor]])
    return {b: ELO * (math.log(gamma[idx[b]]) - zero) for b in bots}


def percentile(xs: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) of `xs`, linear between order statistics."""
    s = sorted(xs)
    pos = q * (len(s) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


@dataclass
class Fit:
    ratings: dict[str, float]
    samples: list[dict[str, float]]  # one fit per bootstrap resample

    def ci(self, bot: str) -> tuple[float, float]:
        xs = [s[bot] for s in self.samples]
        return percentile(xs, 0.025), percentile(xs, 0.975)

    def diff_ci(self, low: str, high: str) -> tuple[float, float]:
        xs = [s[high] - s[low] for s in self.samples]
        return percentile(xs, 0.025), percentile(xs, 0.975)


def bootstrap(
    games: Sequence[Game], bots: Sequence[str], samples: int = 1000, seed: int = 0
) -> Fit:
    """The fit of `games` and `samples` fits of resamples (with replacement, within each
    pair, so every pair keeps its number of games)."""
    by_pair: dict[tuple[str, str], list[Game]] = {}
    for g in games:
        by_pair.setdefault((g[0], g[1]), []).append(g)
    rnd = random.Random(seed)
    fits = []
    for _ in range(samples):
        resample: list[Game] = []
        for pair in by_pair.values():
            resample.extend(pair[rnd.randrange(len(pair))] for _ in pair)
        fits.append(fit(resample, bots))
    return Fit(fit(games, bots), fits)


def pair_points(games: Sequence[Game], low: str, high: str) -> tuple[float, int]:
    """`high`'s points and the games of the pair."""
    points, n = 0.0, 0
    for a, b, s in games:
        if {a, b} == {low, high}:
            points += s if a == high else 1 - s
            n += 1
    return points, n


def ladder(games: Sequence[Game], bots: Sequence[str], result: Fit) -> list[dict[str, Any]]:
    """Each bot over the one below it in `bots`: the rating difference with its bootstrap
    interval, and their own games' win rate with its Wilson interval."""
    steps = []
    for low, high in itertools.pairwise(bots):
        lo, hi = result.diff_ci(low, high)
        points, n = pair_points(games, low, high)
        wlo, whi = wilson(points, n)
        steps.append(
            {
                "lower": low,
                "higher": high,
                "difference": round(result.ratings[high] - result.ratings[low], 1),
                "ci95": [round(lo, 1), round(hi, 1)],
                "significant": lo > 0,
                "games": n,
                "higher_win_rate": round(points / n, 4) if n else None,
                "higher_win_rate_ci95": [round(wlo, 4), round(whi, 4)],
                "significant_head_to_head": n > 0 and wlo > 0.5,
            }
        )
    return steps


def play_pairs(
    game: str,
    bots: Sequence[str],
    pairs: Sequence[tuple[str, str]],
    games: int,
    seed: int,
    processes: int,
    queue: str | None,
) -> tuple[list[dict[str, Any]], dict[str, list[float]]]:
    """Every pair's match: per pair the games' results as stored (deal, swapped, A's score,
    each seat's think time and decisions), and per bot [think ms, decisions] summed."""
    played: list[dict[str, Any]] = []
    think: dict[str, list[float]] = {b: [0.0, 0.0] for b in bots}
    for a, b in pairs:
        m = run_match(a, b, games, seed=seed, processes=processes, game=game, queue=queue)
        print(m.line(), file=sys.stderr, flush=True)
        rows = []
        for r in m.results:
            sa, sb = (1, 0) if r.swapped else (0, 1)
            rows.append([r.deal, r.swapped, r.scores[sa]])
            for bot, seat in ((a, sa), (b, sb)):
                think[bot][0] += r.think_ms[seat]
                think[bot][1] += r.decisions[seat]
        played.append({"a": a, "b": b, "seed": seed, "games": rows})
    return played, think


def games_of(played: Sequence[dict[str, Any]]) -> list[Game]:
    return [(p["a"], p["b"], float(row[2])) for p in played for row in p["games"]]


def choose_pairs(bots: Sequence[str], which: str) -> list[tuple[str, str]]:
    """`all`: every pair; `adjacent`: each bot and the next one in `bots`; `others`: every
    pair but those (`adjacent` then `others` with `--merge` is a round robin, the adjacent
    pairs played first); `none`: no game (a fit of the `--merge` files alone)."""
    adjacent = list(itertools.pairwise(bots))
    if which == "adjacent":
        return adjacent
    if which == "none":
        return []
    every = [(a, b) for i, a in enumerate(bots) for b in bots[i + 1 :]]
    return [p for p in every if which == "all" or p not in adjacent]


def positions(game: str, count: int = 8) -> list[dict[str, Any]]:
    """`count` two-seat views with a choice, from early to late in games of random play
    (seeded), to time the bots' decisions on."""
    eng = engine(game)
    views = []
    for seed in range(count):
        rnd = random.Random(seed)
        g = eng.new_game_internal(eng.tournament_setup(seed, 2, None))
        moves = []
        while not eng.is_terminal(g):
            opts = eng.legal_actions(g)
            if len(opts) > 1:
                seat = eng.current_player(g)
                assert seat is not None
                moves.append(eng.game_view(g, seat))
            eng.apply_action(g, rnd.choice(opts))
        views.append(moves[(seed * len(moves)) // count])
    return views


def cpu_ms_per_decision(game: str, bots: Sequence[str]) -> dict[str, float]:
    """Each bot's mean CPU time per decision (ms, this process, one core) on `positions`:
    the time a decision takes on a free core, whatever the machine's load."""
    views = positions(game)
    out = {}
    for name in bots:
        bot = parse_bot_spec(name)[1]
        t0 = time.process_time()
        for k, view in enumerate(views):
            bot.choose(view, k)
        out[name] = round((time.process_time() - t0) * 1000 / len(views), 2)
    return out


def commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
    except OSError:
        return None
    return out.stdout.strip() or None


def bot_entry(
    name: str, result: Fit, think: dict[str, list[float]], cpu: dict[str, float]
) -> dict[str, Any]:
    lo, hi = result.ci(name)
    ms, decisions = think.get(name, [0.0, 0.0])
    level = name in LEVELS
    return {
        "name": name,
        "bot": "ismcts" if level else name,
        "level": name if level else None,
        "budget": LEVELS[name].to_json() if level else None,
        "rating": round(result.ratings[name], 1),
        "ci95": [round(lo, 1), round(hi, 1)],
        "ms_per_decision": cpu.get(name),
        "ladder_wall_ms_per_decision": round(ms / decisions, 2) if decisions else None,
        "decisions": int(decisions),
    }


def report(
    game: str,
    bots: Sequence[str],
    played: list[dict[str, Any]],
    think: dict[str, list[float]],
    settings: dict[str, Any],
) -> dict[str, Any]:
    """The JSON document of a ladder: settings, ratings, the steps between adjacent bots and
    every game."""
    games = games_of(played)
    result = bootstrap(games, bots, settings["bootstrap"], settings["bootstrap_seed"])
    steps = ladder(games, bots, result)
    levels = [s for s in steps if s["higher"] in LEVELS and s["lower"] in LEVELS]
    eng = engine(game)
    cpu = cpu_ms_per_decision(game, bots)
    per_pair: dict[str, int] = {}
    for p in played:
        key = f"{p['a']} vs {p['b']}"
        per_pair[key] = per_pair.get(key, 0) + len(p["games"])
    return {
        "game": game,
        **settings,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit(),
        "engine_build": build_of(getattr(eng, "__name__", "")),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "model": (
            "Bradley-Terry, Elo scale (400 log10 of the strength ratio), random anchored at 0,"
            f" {PRIOR_DRAWS} virtual draw per pair; 95% bootstrap intervals (games resampled"
            " within each pair)"
        ),
        "games_per_pair": per_pair,
        "ordered": all(s["significant"] or s["significant_head_to_head"] for s in levels),
        "ms_per_decision": (
            "CPU time of one decision on one core, mean over fixed 2-seat positions of this"
            " game (ai.ratings.positions); ladder_wall_ms_per_decision: wall time per decision"
            " in the ladder's games, on the machine as loaded (load_average)"
        ),
        "bots": [bot_entry(b, result, think, cpu) for b in bots],
        "steps": steps,
        "pairs": played,
        "think": {b: [round(v[0], 1), int(v[1])] for b, v in think.items()},
    }


def merge(
    old: dict[str, Any], played: list[dict[str, Any]], think: dict[str, list[float]]
) -> tuple[list[dict[str, Any]], dict[str, list[float]]]:
    """An earlier ladder's games and think times added to this run's."""
    total = {b: list(v) for b, v in think.items()}
    for b, (ms, n) in old.get("think", {}).items():
        if b in total:
            total[b][0] += ms
            total[b][1] += n
    return [*old["pairs"], *played], total


def write_plot(doc: dict[str, Any], path: str) -> None:
    """A PNG of the ratings with their intervals (matplotlib, the `plot` extra)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = doc["bots"]
    ys = list(range(len(bots)))
    xs = [b["rating"] for b in bots]
    err = [[b["rating"] - b["ci95"][0] for b in bots], [b["ci95"][1] - b["rating"] for b in bots]]
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.errorbar(xs, ys, xerr=err, fmt="o", capsize=4)
    ax.set_yticks(ys)
    ax.set_yticklabels([b["name"] for b in bots])
    ax.axvline(0, color="grey", linestyle=":")
    ax.set_xlabel("rating (Elo scale, random = 0), 95% bootstrap interval")
    n = sum(doc["games_per_pair"].values())
    ax.set_title(f"{doc['game']}: 2 seats, round robin, {n} games")
    save_plot(fig, path)


def main(argv: list[str] | None = None) -> int:
    p = command("python -m ai.ratings", __doc__)
    p.add_argument("--bots", default=",".join(BOTS), help="in expected order, weakest first")
    p.add_argument("--games", type=int, default=40, help="games per pair (even: seats swapped)")
    p.add_argument("--seed", type=int, default=1, help="first deal seed")
    p.add_argument("--pairs", choices=["all", "adjacent", "others", "none"], default="all")
    p.add_argument(
        "--with",
        dest="only",
        metavar="BOT",
        help="play only the chosen pairs that include BOT (a level added to a ladder: its pairs,"
        " then --merge the earlier file)",
    )
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--queue", metavar="REDIS_URL", default=os.environ.get("REDIS_URL"))
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples")
    p.add_argument(
        "--merge", action="append", default=[], help="add the games of this earlier ladder file"
    )
    p.add_argument("--out", help="JSON file (default docs/measurements/ratings-<game>.json)")
    p.add_argument("--plot", help="also write a PNG of the ratings here")
    args = p.parse_args(argv)
    bots = [b for b in args.bots.split(",") if b]
    if len(bots) < 2 or ANCHOR not in bots or any(b not in BOTS for b in bots):
        p.error(f"--bots: at least two of {', '.join(BOTS)}, {ANCHOR} among them")
    if args.games < 1:
        p.error("--games must be at least 1")
    if args.only is not None and args.only not in bots:
        p.error(f"--with {args.only}: not among --bots")
    pairs = [pr for pr in choose_pairs(bots, args.pairs) if args.only in (None, *pr)]
    try:
        played, think = play_pairs(
            args.game, bots, pairs, args.games, args.seed, args.processes, args.queue or None
        )
    except QueueUnavailable as e:
        print(f"the queue is unavailable ({e}): playing locally", file=sys.stderr)
        played, think = play_pairs(
            args.game, bots, pairs, args.games, args.seed, args.processes, None
        )
    cmdline = "python -m ai.ratings " + " ".join(argv if argv is not None else sys.argv[1:])
    run = {"command": cmdline, "seed": args.seed, "games": args.games, "pairs": args.pairs}
    if args.only is not None:
        run["with"] = args.only
    runs = [run]
    for earlier in args.merge:
        old = json.loads(Path(earlier).read_text())
        played, think = merge(old, played, think)
        runs = [*old.get("runs", []), *runs]
    settings = {
        "command": cmdline,
        "seed": args.seed,
        "runs": runs,
        "bootstrap": args.bootstrap,
        "bootstrap_seed": 0,
        "levels": {name: b.to_json() for name, b in LEVELS.items()},
    }
    doc = report(args.game, bots, played, think, settings)
    out = Path(args.out or ROOT / "docs" / "measurements" / f"ratings-{args.game}.json")
    out.write_text(json.dumps(doc, indent=1) + "\n")
    for b in doc["bots"]:
        print(f"{b['name']:>8} {b['rating']:8.1f} {b['ci95']}  {b['ms_per_decision']} ms")
    print(f"ordered={doc['ordered']} written to {out}")
    if args.plot:
        write_plot(doc, args.plot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
