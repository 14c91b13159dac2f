"""Training on the task queue: the same self-play games (`ai.train`'s first phase) on 1 `rq
worker`, then on 2, each run against a throw-away redis-server, in one process, alternating
which goes first:

    python -m benchmarks.train_scaling --game architectura --bot ismcts:50it --games 40 --runs 3

Prints each run's wall time and the ratio (1 worker's time over 2 workers'), then the median
ratio. Each worker runs in a session of its own, so Linux's autogroup scheduling gives it a
CPU share as a machine of its own would have; on a 2-core machine the ideal is 2.0. The games
are the same in every run (a seed), and so are the positions they give (checked).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from ai.queue import local_workers
from ai.redis_server import RedisServer
from ai.taskqueue import GAMES_QUEUE
from ai.train import selfplay


def timed(workers: int, args: argparse.Namespace) -> tuple[float, list[dict[str, Any]]]:
    with RedisServer() as server, local_workers(server.url, workers, queues=[GAMES_QUEUE]):
        t0 = time.perf_counter()
        games = selfplay(args.game, args.bot, args.games, [2], 1, 1, server.url, False)
        return time.perf_counter() - t0, games


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.train_scaling")
    p.add_argument("--game", default="architectura")
    p.add_argument("--bot", default="ismcts:50it")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args(argv)
    ratios = []
    for r in range(args.runs):
        order = (1, 2) if r % 2 == 0 else (2, 1)
        times: dict[int, float] = {}
        played: dict[int, list[dict[str, Any]]] = {}
        for workers in order:
            times[workers], played[workers] = timed(workers, args)
        if played[1] != played[2]:
            raise SystemExit("the games differ between 1 and 2 workers")
        ratios.append(times[1] / times[2])
        print(
            f"run {r + 1}: 1 worker {times[1]:.1f} s, 2 workers {times[2]:.1f} s,"
            f" ratio {ratios[-1]:.2f}",
            flush=True,
        )
    print(
        f"median ratio {statistics.median(ratios):.2f} (runs: {', '.join(f'{x:.2f}' for x in ratios)})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
