"""The served search's CPU a decision, this tree against another commit, side by side:

    python -m benchmarks.served_cpu --baseline REV [--rounds 5] [--iterations 300]

Each game's served search (`ai.model.learned_search`, the model file beside the game) from
fixed mid-game positions (benchmarks/model_lookup.py: 2 seats, seeds 1..8, 20 random
decisions in), every search with the same seed, in a child process per tree and round, the
two trees alternating. REV is extracted (`git archive`) and compiled as the set-up compiles
this tree (scripts/compile.py), so that both run their compiled engine. The figure is this
tree's CPU over REV's, per round (median and range); the moves must be the same (checked).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GAMES = ("architectura", "fora-de-prumo")


def child(iterations: int) -> None:
    """One tree's CPU milliseconds a decision and moves, per game, as one JSON line."""
    from ai.base import Budget
    from ai.model import learned_search
    from benchmarks.model_lookup import positions
    from engine.games import engine

    out: dict[str, Any] = {}
    for game in GAMES:
        views = positions(engine(game))
        t0, moves = time.process_time(), []
        for view in views:
            moves.append(learned_search(Budget(iterations=iterations)).choose(view, 1).action)
        cpu_ms = (time.process_time() - t0) * 1000 / len(views)
        out[game] = {"cpu_ms": cpu_ms, "moves": json.dumps(moves, sort_keys=True, default=str)}
    print(json.dumps(out))


def run(tree: Path, iterations: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, "-P", "-m", "benchmarks.served_cpu", "--child", str(iterations)]
    done = subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baseline", metavar="REV")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child)
        return
    if not args.baseline:
        parser.error("--baseline REV is required")
    from benchmarks.local import ROOT, extract

    with tempfile.TemporaryDirectory(prefix="served-baseline-") as tmp:
        base = Path(tmp)
        extract(args.baseline, base)
        subprocess.run([sys.executable, "scripts/compile.py"], cwd=base, check=True)
        ratios: dict[str, list[float]] = {g: [] for g in GAMES}
        for i in range(args.rounds):
            trees = (ROOT, base) if i % 2 == 0 else (base, ROOT)
            got = {tree: run(tree, args.iterations) for tree in trees}
            for g in GAMES:
                cur, old = got[ROOT][g], got[base][g]
                if cur["moves"] != old["moves"]:
                    raise SystemExit(f"{g}: the two trees chose different moves")
                ratios[g].append(cur["cpu_ms"] / old["cpu_ms"])
                print(f"round {i + 1} {g}: {cur['cpu_ms']:.2f} / {old['cpu_ms']:.2f} ms", end="")
                print(f"  ratio {ratios[g][-1]:.3f}")
    for g in GAMES:
        r = ratios[g]
        print(
            f"{g}: CPU a decision over {args.baseline}: median {statistics.median(r):.3f}", end=""
        )
        print(f"  range {min(r):.3f}-{max(r):.3f}  (n={len(r)}, {args.iterations} iterations)")


if __name__ == "__main__":
    main()
