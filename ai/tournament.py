"""Play bots against each other: `python -m ai.tournament --a greedy --b random --games 200`.

Two seats. Each deal (set-up seed) is played twice with the seats swapped, so neither bot
profits from a lucky deal or from moving first. A draw (shared win, A-8.2) counts half.
Win rates are printed with 95% Wilson score intervals. With `--plot out.png --times
50,200,1000` it plays `ismcts:<t>ms` against `--b` at every thinking time and writes a plot
of win rate against thinking time.

Every decision goes through the bot's `choose(player_view(state, seat), seed)`: the bots
see exactly what an HTTP client of /v1/suggest would show them.

With `--queue redis://HOST:6379/0` the games are RQ jobs on the queue `games`, played by any
number of `rq worker -w ai.queue.Worker` processes on any machine that reaches that Redis
(docs/scale.md); the progress bar advances as games end. Every game is a function of its
arguments (deal, seats, bots; decision seeds derive from the deal), and the summary is built
from the games sorted by deal, so a queued run gives exactly the local run's results for
deterministic bots (iteration budgets, greedy, random; a time budget depends on the machine).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import multiprocessing as mp
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

from tqdm import tqdm

from ai.bots import Bot, parse_bot_spec
from ai.taskqueue import QueueUnavailable, run_games
from engine.games import DEFAULT_GAME, GAMES, engine

MATCH_SEATS = 2  # a match (and so the rating ladder, ai/ratings.py) is two bots' games


def decision_seed(deal: int, k: int) -> int:
    return (deal * 1_000_003 + k * 7_919) % (2**63)


@dataclass
class GameResult:
    deal: int
    swapped: bool
    scores: list[float]  # per seat, from arch.returns
    think_ms: list[float]  # per seat, total
    decisions: list[int]  # per seat, decisions actually searched

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameResult:
        return cls(d["deal"], d["swapped"], d["scores"], d["think_ms"], d["decisions"])


def play_game(
    deal: int,
    bots: list[Bot],
    variant: str | None = None,
    first_seat: int = 0,
    game: str = DEFAULT_GAME,
    observe: Callable[[Any, int, Any], None] | None = None,
    catalog: Any = None,
) -> tuple[list[float], list[float], list[int]]:
    """One game; bots[i] plays seat i. Forced decisions (one option) are taken directly.
    `observe(g, seat, action)`, if given, sees every action before it is applied; `catalog`
    (an id or a catalog document) replaces the game's reference catalog."""
    eng = engine(game)
    setup = eng.tournament_setup(deal, len(bots), variant)
    setup["first_seat"] = first_seat
    cat = None
    if catalog is not None:
        setup["catalog"] = catalog
        cat = eng.get_catalog(catalog)
    g = eng.new_game_internal(setup)
    think = [0.0] * len(bots)
    count = [0] * len(bots)
    k = 0
    while not eng.is_terminal(g):
        opts = eng.legal_actions(g)
        seat = eng.current_player(g)
        assert seat is not None
        if len(opts) == 1:
            if observe is not None:
                observe(g, seat, opts[0])
            eng.apply_action(g, opts[0])
            continue
        view = eng.game_view(g, seat)
        t0 = time.perf_counter()
        res = bots[seat].choose(view, decision_seed(deal, k), cat)
        think[seat] += (time.perf_counter() - t0) * 1000
        count[seat] += 1
        k += 1
        if res.action not in opts:  # pragma: no cover - a bot bug, never a rules question
            raise RuntimeError(f"{bots[seat].name} chose an illegal action {res.action}")
        if observe is not None:
            observe(g, seat, res.action)
        eng.apply_action(g, res.action)
    return eng.returns(g), think, count


_WORKER_BOTS: dict[str, Bot] = {}


def worker_bot(spec: str) -> Bot:
    """The bot of a command-line spec, made once per process."""
    if spec not in _WORKER_BOTS:
        _WORKER_BOTS[spec] = parse_bot_spec(spec)[1]
    return _WORKER_BOTS[spec]


def play_job(args: Sequence[Any]) -> GameResult:
    """One game of a match: (bot A, bot B, deal, swapped, variant, game). What a local
    process and a queue worker (ai.jobs.play_match_game) both run."""
    a, b, deal, swapped, variant, game = args
    specs = [b, a] if swapped else [a, b]  # MATCH_SEATS: one seat each
    scores, think, count = play_game(deal, [worker_bot(s) for s in specs], variant, game=game)
    return GameResult(deal, swapped, scores, think, count)


T = TypeVar("T")
R = TypeVar("R")


def run_local(
    fn: Callable[[T], R], jobs: Sequence[T], processes: int, done: Callable[[], Any]
) -> list[R]:
    """`fn` over `jobs` in `processes` spawned processes (or in this one), calling `done`
    after each; results in completion order."""
    results: list[R] = []
    if processes > 1:
        with mp.get_context("spawn").Pool(processes) as pool:
            for r in pool.imap_unordered(fn, jobs):
                results.append(r)
                done()
    else:
        for job in jobs:
            results.append(fn(job))
            done()
    return results


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (draws counted as half a success)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


class WinRate:
    """A win rate (draws counted as half a win) and its Wilson interval, from `won()`."""

    def won(self) -> tuple[float, int]:
        """(the wins, the games or samples they are out of)."""
        raise NotImplementedError

    @property
    def rate(self) -> float:
        wins, n = self.won()
        return wins / n if n else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(*self.won())


@dataclass
class MatchSummary(WinRate):
    a: str
    b: str
    games: int
    a_points: float
    a_wins: int
    draws: int
    b_wins: int
    a_ms_per_decision: float
    b_ms_per_decision: float
    seconds: float
    results: list[GameResult] = field(default_factory=list, repr=False)  # by deal, seats

    def won(self) -> tuple[float, int]:
        return self.a_points, self.games

    def line(self) -> str:
        lo, hi = self.ci
        return (
            f"{self.a} vs {self.b}: {self.games} games, {self.a} wins {self.a_wins}, "
            f"draws {self.draws}, {self.b} wins {self.b_wins}; "
            f"{self.a} win rate {self.rate:.3f} (95% CI {lo:.3f}-{hi:.3f}); "
            f"think ms/decision {self.a}={self.a_ms_per_decision:.1f} "
            f"{self.b}={self.b_ms_per_decision:.1f}; wall {self.seconds:.0f}s"
        )

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.ci
        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "a_wins": self.a_wins,
            "draws": self.draws,
            "b_wins": self.b_wins,
            "a_win_rate": self.rate,
            "ci95": [lo, hi],
            "a_ms_per_decision": self.a_ms_per_decision,
            "b_ms_per_decision": self.b_ms_per_decision,
            "seconds": self.seconds,
        }


def run_match(
    a: str,
    b: str,
    games: int,
    *,
    seed: int = 1,
    processes: int = 2,
    variant: str | None = None,
    progress: bool = True,
    game: str = DEFAULT_GAME,
    queue: str | None = None,
) -> MatchSummary:
    """`games` games (rounded up to even): every deal twice, seats swapped; on `processes`
    local processes, or as jobs on the RQ queue at the Redis URL `queue`."""
    parse_bot_spec(a)
    parse_bot_spec(b)
    deals = (games + 1) // 2
    jobs = [(a, b, seed + i, sw, variant, game) for i in range(deals) for sw in (False, True)]
    t0 = time.perf_counter()
    bar = tqdm(total=len(jobs), desc=f"{a} vs {b}", disable=not progress, file=sys.stderr)
    if queue is not None:
        done = run_games(queue, "ai.jobs.play_match_game", jobs, bar.update)
        results = [GameResult.from_json(d) for d in done]
    else:
        results = run_local(play_job, jobs, processes, bar.update)
    bar.close()
    results.sort(key=lambda r: (r.deal, r.swapped))  # the same sums in any arrival order
    a_points = 0.0
    a_wins = draws = b_wins = 0
    a_ms = b_ms = 0.0
    a_n = b_n = 0
    for r in results:
        sa, sb = (1, 0) if r.swapped else (0, 1)
        a_points += r.scores[sa]
        if r.scores[sa] == r.scores[sb]:
            draws += 1
        elif r.scores[sa] > r.scores[sb]:
            a_wins += 1
        else:
            b_wins += 1
        a_ms += r.think_ms[sa]
        b_ms += r.think_ms[sb]
        a_n += r.decisions[sa]
        b_n += r.decisions[sb]
    return MatchSummary(
        a,
        b,
        len(results),
        a_points,
        a_wins,
        draws,
        b_wins,
        a_ms / max(a_n, 1),
        b_ms / max(b_n, 1),
        time.perf_counter() - t0,
        results,
    )


PLOT_EXTRA = "pip install '.[plot]'"


def require_plotting(p: argparse.ArgumentParser) -> None:
    """--plot needs matplotlib, an optional extra (the service does not): say so before any
    game is played, not after."""
    if importlib.util.find_spec("matplotlib") is None:
        p.error(f"--plot needs matplotlib, which is not installed: .venv/bin/{PLOT_EXTRA}")


def save_plot(fig: Any, path: str) -> None:
    """A matplotlib figure written to `path` as PNG, then closed."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def command(prog: str, doc: str | None) -> argparse.ArgumentParser:
    """A command's parser (its description the first line of its module's docstring), with
    `--game` among the registered games."""
    p = argparse.ArgumentParser(prog=prog, description=(doc or "").split("\n")[0])
    p.add_argument("--game", choices=list(GAMES), default=DEFAULT_GAME)
    return p


def write_plot(path: str, points: list[tuple[int, MatchSummary]], opponent: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [t for t, _ in points]
    ys = [m.rate for _, m in points]
    lo = [m.rate - m.ci[0] for _, m in points]
    hi = [m.ci[1] - m.rate for _, m in points]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=4)
    ax.axhline(0.5, color="grey", linestyle=":")
    ax.set_xscale("log")
    ax.set_xticks(xs)
    ax.set_xticklabels([str(x) for x in xs])
    ax.set_ylim(0, 1)
    ax.set_xlabel("ISMCTS thinking time per decision (ms)")
    ax.set_ylabel(f"win rate vs {opponent} (95% CI)")
    n = points[0][1].games if points else 0
    ax.set_title(f"ISMCTS vs {opponent}, {n} games per point, seats swapped")
    save_plot(fig, path)


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except QueueUnavailable as e:
        print(f"python -m ai.tournament: error: the queue is unavailable: {e}", file=sys.stderr)
        return 2


def _main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m ai.tournament", description=__doc__.split("\n")[0])
    p.add_argument(
        "--a",
        default="greedy",
        help="bot A (random, greedy, easy..master, ismcts:<n>ms|<n>it)",
    )
    p.add_argument("--b", default="random", help="bot B")
    p.add_argument("--games", type=int, default=200, help="games per match (even: seats swapped)")
    p.add_argument("--seed", type=int, default=1, help="first deal seed")
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--game", choices=list(GAMES), default=DEFAULT_GAME)
    p.add_argument(
        "--variant", choices=["basic", "advanced"], help="Architectura's variant (basic)"
    )
    p.add_argument("--time-ms", type=int, help="shorthand: bot A = ismcts:<time-ms>ms")
    p.add_argument("--plot", help="write a PNG of ISMCTS win rate vs --b at each of --times")
    p.add_argument("--times", default="50,200,1000", help="thinking times (ms) for --plot")
    p.add_argument("--json", help="also write the results as JSON to this file")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--queue",
        metavar="REDIS_URL",
        help="play the games as RQ jobs on this Redis (rq worker -w ai.queue.Worker ... games)",
    )
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be at least 1")
    if args.plot:
        require_plotting(p)
    a = f"ismcts:{args.time_ms}ms" if args.time_ms else args.a
    try:
        parse_bot_spec(a)
        parse_bot_spec(args.b)
    except ValueError as e:
        p.error(str(e))
    common: dict[str, Any] = {
        "seed": args.seed,
        "processes": args.processes,
        "variant": args.variant,
        "progress": not args.quiet,
        "game": args.game,
        "queue": args.queue,
    }
    out: list[dict[str, Any]] = []
    if args.plot:
        points = []
        for t in [int(x) for x in args.times.split(",") if x.strip()]:
            m = run_match(f"ismcts:{t}ms", args.b, args.games, **common)
            print(m.line(), flush=True)
            points.append((t, m))
            out.append({"time_ms": t, **m.to_json()})
        write_plot(args.plot, points, args.b)
        print(f"plot written to {args.plot}")
    else:
        m = run_match(a, args.b, args.games, **common)
        print(m.line(), flush=True)
        out.append(m.to_json())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            record = {"game": args.game, "variant": args.variant, "seed": args.seed}
            json.dump({**record, "matches": out}, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
