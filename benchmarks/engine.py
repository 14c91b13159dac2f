"""Engine benchmark: random complete games per second on one core.

    python -m benchmarks.engine [--seconds 5] [--game fora-de-prumo]
    python -m benchmarks.engine --baseline 5295b59 [--runs 10] [--seconds 2]

Plays uniformly random legal decisions with the in-memory API (what the bots use) until each
game is over. Prints one figure per configuration; the last line is
`random_games_per_s_2p_basic=<number>` (Architectura, the default) or
`random_games_per_s_2p_fdp=<number>` (`--game fora-de-prumo`, market sizes 4/5/6).

`--baseline REV` compares this working tree with commit REV side by side: REV is extracted
with `git archive` into a temporary directory, then runs of the two trees alternate (which
goes first alternates too), each in a fresh subprocess that imports only its own tree and
plays the same seeded random 2-seat basic Architectura games for `--seconds` of its own CPU
time. Each run pair prints games per CPU-second of both and their ratio; the summary gives the
median ratio with its spread, and the last line is `speedup_2p_basic_vs_<REV>=<median>`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import engine.architectura as arch


def play_random_game(seed: int, seats: int, variant: str) -> int:
    rnd = random.Random(seed)
    setup = {"seats": seats, "seed": seed, "variant": variant}
    if variant == "advanced":
        setup["replacements"] = arch.random_replacements(
            arch.builtin_catalogs()["reference"], rnd, seats
        )
    g = arch.new_game_internal(setup)
    decisions = 0
    while not g.over:
        arch.apply_action(g, rnd.choice(arch.legal_actions(g)))
        decisions += 1
    return decisions


def measure(
    play: Callable[[int, int, str], int], seats: int, variant: str, seconds: float
) -> tuple[float, float]:
    """Games and decisions per second of `play(seed, seats, variant)` over `seconds`."""
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += play(games, seats, variant)
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def play_random_fdp_game(seed: int, seats: int, market: str) -> int:
    import engine.fora_de_prumo as fdp  # only with --game: Architectura's run stays as it was

    rnd = random.Random(seed)
    g = fdp.new_game_internal(fdp.tournament_setup(seed, seats, market))
    decisions = 0
    while not g.over:
        opts = fdp.legal_actions(g)
        fdp.apply_action(g, opts[rnd.randrange(len(opts))])
        decisions += 1
    return decisions


def main_fdp(seconds: float) -> None:
    results = {}
    for seats in (2, 3, 4):
        for market in ("5", "4", "6"):
            gps, dps = measure(play_random_fdp_game, seats, market, seconds)
            results[(seats, market)] = gps
            print(f"{seats}p market {market}: {gps:8.1f} games/s  {dps:9.0f} decisions/s")
    print(f"random_games_per_s_2p_fdp={results[(2, '5')]:.1f}")


def child_run(seconds: float) -> None:
    """One side of --baseline: games per CPU-second of this process, as one JSON line."""
    play_random_game(10**6, 2, "basic")  # warm-up: catalogs parsed, code paths loaded
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        decisions += play_random_game(games, 2, "basic")
        games += 1
    cpu = time.process_time() - start
    print(json.dumps({"engine": arch.__file__, "games": games, "decisions": decisions, "cpu": cpu}))


def run_tree(tree: Path, seconds: float) -> float:
    """Games per CPU-second of `tree`'s engine, measured in a subprocess that sees only it
    (-P: this script's directory is not put on sys.path; PYTHONPATH names the tree)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [
        sys.executable,
        "-P",
        str(Path(__file__).resolve()),
        "--child",
        "--seconds",
        str(seconds),
    ]
    out = subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True, text=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if not Path(result["engine"]).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"{tree}: the child imported {result['engine']}")
    return float(result["games"] / result["cpu"])


def main_baseline(rev: str, runs: int, seconds: float) -> None:
    # imported here: the children run this file against the other tree's packages only
    from benchmarks.local import extract

    here = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="engine-baseline-") as tmp:
        base = Path(tmp)
        extract(rev, base)
        print(f"current tree {here} against {rev} ({runs} run pairs, {seconds:g} CPU-s each)")
        ratios, cur_rates, base_rates = [], [], []
        for i in range(runs):
            if i % 2 == 0:
                cur, old = run_tree(here, seconds), run_tree(base, seconds)
            else:
                old, cur = run_tree(base, seconds), run_tree(here, seconds)
            cur_rates.append(cur)
            base_rates.append(old)
            ratios.append(cur / old)
            print(
                f"run {i + 1:2d}: current {cur:8.1f}  {rev} {old:8.1f} games/CPU-s"
                f"  ratio {cur / old:.3f}"
            )
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    median = statistics.median(ratios)
    print(
        f"current median {statistics.median(cur_rates):.1f} games/CPU-s, "
        f"{rev} median {statistics.median(base_rates):.1f} games/CPU-s"
    )
    print(
        f"ratio median {median:.3f}  min {min(ratios):.3f}  max {max(ratios):.3f}  "
        f"quartiles {q[0]:.3f}-{q[2]:.3f}  (n={len(ratios)})"
    )
    print(f"speedup_2p_basic_vs_{rev}={median:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=None, help="time per configuration")
    parser.add_argument("--game", choices=("architectura", "fora-de-prumo"), default="architectura")
    parser.add_argument("--baseline", metavar="REV", help="compare with this git revision")
    parser.add_argument("--runs", type=int, default=10, help="run pairs with --baseline")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_run(args.seconds or 2.0)
        return
    if args.baseline:
        if args.game != "architectura":
            parser.error("--baseline measures Architectura only")
        main_baseline(args.baseline, args.runs, args.seconds or 2.0)
        return
    args.seconds = 5.0 if args.seconds is None else args.seconds
    if args.game == "fora-de-prumo":
        main_fdp(args.seconds)
        return
    results = {}
    for seats in (2, 3, 4):
        for variant in ("basic", "advanced"):
            gps, dps = measure(play_random_game, seats, variant, args.seconds)
            results[(seats, variant)] = gps
            print(f"{seats}p {variant:8s}: {gps:8.1f} games/s  {dps:9.0f} decisions/s")
    print(f"random_games_per_s_2p_basic={results[(2, 'basic')]:.1f}")


if __name__ == "__main__":
    main()
