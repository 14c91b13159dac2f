"""Engine benchmark: random complete games per second on one core.

    python -m benchmarks.engine [--seconds 5] [--game fora-de-prumo]
    python -m benchmarks.engine --baseline 5295b59 [--runs 10] [--seconds 2]
    python -m benchmarks.engine --game fora-de-prumo --compare-pure [--scored] [--runs 10]

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

`--compare-pure` compares the two builds of this working tree (docs/compiled.md) the same way:
runs with the compiled build (as imported by default) and with the pure engine (the same tree
with ENGINE_PURE=1) alternate, each a fresh subprocess playing the same seeded random 2-seat
games (Architectura basic, or Fora de Prumo with market 5) for `--seconds` of its CPU time; each
child checks which build it ran. The last line is `fdp_compiled_over_pure=<median>` (or
`architectura_compiled_over_pure=`). With `--scored` each game also computes its final scores,
as a bot's playout does (Fora de Prumo scores only when asked: `final_scores`).
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
from typing import Any

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


def _random_fdp_game(seed: int, seats: int, market: str) -> tuple[Any, int]:
    """A seeded random game of Fora de Prumo to its end, and how many decisions it took."""
    import engine.fora_de_prumo as fdp  # only with --game: Architectura's run stays as it was

    rnd = random.Random(seed)
    g = fdp.new_game_internal(fdp.tournament_setup(seed, seats, market))
    decisions = 0
    while not g.over:
        opts = fdp.legal_actions(g)
        fdp.apply_action(g, opts[rnd.randrange(len(opts))])
        decisions += 1
    return g, decisions


def play_random_fdp_game(seed: int, seats: int, market: str) -> int:
    return _random_fdp_game(seed, seats, market)[1]


def main_fdp(seconds: float) -> None:
    results = {}
    for seats in (2, 3, 4):
        for market in ("5", "4", "6"):
            gps, dps = measure(play_random_fdp_game, seats, market, seconds)
            results[(seats, market)] = gps
            print(f"{seats}p market {market}: {gps:8.1f} games/s  {dps:9.0f} decisions/s")
    print(f"random_games_per_s_2p_fdp={results[(2, '5')]:.1f}")


def play_scored_fdp_game(seed: int, seats: int, market: str) -> int:
    """A random game and its final scores (what a bot's playout computes at its end)."""
    import engine.fora_de_prumo as fdp

    g, decisions = _random_fdp_game(seed, seats, market)
    fdp.final_scores(g)
    return decisions


def child_run(seconds: float, game: str = "architectura", scored: bool = False) -> None:
    """One side of --baseline or --compare-pure: 2-seat random games per CPU-second of this
    process, and the build that played them, as one JSON line."""
    play: Callable[[int, int, str], int] = play_random_game
    setting, package = "basic", "engine.architectura"
    if game == "fora-de-prumo":
        play = play_scored_fdp_game if scored else play_random_fdp_game
        setting, package = "5", "engine.fora_de_prumo"
    play(10**6, 2, setting)  # warm-up: catalogs parsed, code paths loaded
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        decisions += play(games, 2, setting)
        games += 1
    cpu = time.process_time() - start
    try:  # the build of the modules the games imported
        from engine.compiled import build_of

        build = build_of(package)
    except ImportError:  # an older tree (--baseline): no compiled build then
        build = "pure"
    result = {"engine": arch.__file__, "build": build, "games": games}
    print(json.dumps({**result, "decisions": decisions, "cpu": cpu}))


def run_child(tree: Path, seconds: float, extra: list[str], env: dict[str, str]) -> dict[str, Any]:
    """The JSON line of a child_run in a subprocess that sees only `tree` (-P: this script's
    directory is not put on sys.path; PYTHONPATH names the tree)."""
    env = {**os.environ, **env, "PYTHONPATH": str(tree)}
    here = str(Path(__file__).resolve())
    cmd = [sys.executable, "-P", here, "--child", "--seconds", str(seconds), *extra]
    out = subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    if not Path(result["engine"]).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"{tree}: the child imported {result['engine']}")
    return result


def run_tree(tree: Path, seconds: float) -> float:
    """Games per CPU-second of `tree`'s engine (Architectura, 2 seats, basic)."""
    result = run_child(tree, seconds, [], {})
    return float(result["games"] / result["cpu"])


def summary(ratios: list[float]) -> str:
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    return (
        f"ratio median {statistics.median(ratios):.3f}  min {min(ratios):.3f}  "
        f"max {max(ratios):.3f}  quartiles {q[0]:.3f}-{q[2]:.3f}  (n={len(ratios)})"
    )


def main_compare_pure(game: str, runs: int, seconds: float, scored: bool) -> None:
    """The compiled build of this tree against its pure engine, interleaved (see above)."""
    here = Path(__file__).resolve().parents[1]
    extra = ["--game", game, *(["--scored"] if scored else [])]

    def one(build: str) -> float:
        result = run_child(here, seconds, extra, {"ENGINE_PURE": "1" if build == "pure" else "0"})
        if result["build"] != build:
            raise SystemExit(f"the {build} run ran the {result['build']} engine (build it first)")
        return float(result["games"] / result["cpu"])

    what = "scored games" if scored else "games"
    print(f"{game}: compiled against pure ({runs} run pairs, {seconds:g} CPU-s each, {what})")
    ratios, comp_rates, pure_rates = [], [], []
    for i in range(runs):
        if i % 2 == 0:
            comp, pure = one("compiled"), one("pure")
        else:
            pure, comp = one("pure"), one("compiled")
        comp_rates.append(comp)
        pure_rates.append(pure)
        ratios.append(comp / pure)
        print(
            f"run {i + 1:2d}: compiled {comp:8.1f}  pure {pure:8.1f} games/CPU-s"
            f"  ratio {comp / pure:.3f}"
        )
    print(
        f"compiled median {statistics.median(comp_rates):.1f} games/CPU-s, "
        f"pure median {statistics.median(pure_rates):.1f} games/CPU-s"
    )
    print(summary(ratios))
    name = "fdp" if game == "fora-de-prumo" else game
    print(f"{name}_compiled_over_pure={statistics.median(ratios):.3f}")


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
    print(
        f"current median {statistics.median(cur_rates):.1f} games/CPU-s, "
        f"{rev} median {statistics.median(base_rates):.1f} games/CPU-s"
    )
    print(summary(ratios))
    print(f"speedup_2p_basic_vs_{rev}={statistics.median(ratios):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=None, help="time per configuration")
    parser.add_argument("--game", choices=("architectura", "fora-de-prumo"), default="architectura")
    parser.add_argument("--baseline", metavar="REV", help="compare with this git revision")
    parser.add_argument(
        "--runs", type=int, default=10, help="run pairs (--baseline, --compare-pure)"
    )
    parser.add_argument(
        "--compare-pure", action="store_true", help="the compiled build against the pure engine"
    )
    parser.add_argument("--scored", action="store_true", help="with --compare-pure: final scores")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_run(args.seconds or 2.0, args.game, args.scored)
        return
    if args.compare_pure:
        main_compare_pure(args.game, args.runs, args.seconds or 2.0, args.scored)
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
