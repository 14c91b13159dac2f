"""CPU time per decision of the levels that use the greedy prior, with it and without it.

    python -m benchmarks.prior_cpu --out docs/measurements/ismcts_prior_cpu.json

For each game, `easy` and `medium`: today's bot (`IsmctsBot(level)`, the game's prior) and the
same budget without the prior, alternating, 7 rounds over `ai.ratings.positions` (8 views);
each round's mean CPU ms per decision (`time.process_time`, one core), as quartiles.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

from ai.bots import LEVELS, IsmctsBot
from ai.ratings import positions
from engine.games import GAMES


def measure(rounds: int = 7) -> dict[str, Any]:
    out: dict[str, Any] = {"load_average_1min": [os.getloadavg()[0]]}
    for game in GAMES:
        views = positions(game)
        for level in ("easy", "medium"):
            bots = {
                "default": IsmctsBot(LEVELS[level]),
                "no prior": IsmctsBot(LEVELS[level], prior_widening=0.0),
            }
            runs: dict[str, list[float]] = {name: [] for name in bots}
            for _ in range(rounds):
                for name, bot in bots.items():
                    t0 = time.process_time()
                    for k, view in enumerate(views):
                        bot.choose(view, k)
                    runs[name].append((time.process_time() - t0) * 1000 / len(views))
            summary = {}
            for name, xs in runs.items():
                q = statistics.quantiles(xs, n=4)
                summary[name] = {
                    "q1": q[0],
                    "median": q[1],
                    "q3": q[2],
                    "min": min(xs),
                    "max": max(xs),
                }
            out[f"{game} {level}"] = summary
    out["load_average_1min"].append(os.getloadavg()[0])
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", help="write the summary to this JSON file")
    args = p.parse_args()
    text = json.dumps({"command": "python -m benchmarks.prior_cpu", **measure()}, indent=1)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
