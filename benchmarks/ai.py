"""Bot benchmark: ISMCTS iterations per second, and cache-hit latency of `suggest`.

    python -m benchmarks.ai [--seconds 5] [--no-redis]

The position is a fixed 2-seat basic game in mid-game (turn 9 or later, seed 7, random
decisions up to there), with the seat to move having several options. ISMCTS runs for the
given wall time (one core); the figure is iterations / second, including the per-search set-up
(reading the view, preparing the world sampler).

Cache hits: `ai.service.suggest` called again with the same request (state, seat, settings),
so everything a hit costs is measured: reading and checking the state, the seat's view, its
canonical digest, the lookup, the check of the entry (shape, decision among the options).
p50 and p95 over 300 calls, with the in-process LRU and, when a redis-server can be started
on a free port, with Redis (the machine's own Redis is not used); and with the in-process
LRU from the seat's view instead of the state (the view is checked by rebuilding a state).

Deadline: how far past its time budget a search ends, over 20 searches of 50 ms on the first
decision of a 4-seat game (the longest rollouts of the reference catalog).

The last line is `ismcts_iters_per_s=<number>`.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

import engine.architectura as arch
from ai.bots import Budget, IsmctsBot
from ai.cache import PositionCache, make_cache
from ai.redis_server import RedisServer
from ai.service import suggest


def midgame_state(seed: int = 7, turn: int = 9) -> dict[str, Any]:
    g = arch.new_game_internal({"seats": 2, "seed": seed})
    rnd = random.Random(seed)
    while g.turn < turn or len(arch.legal_actions(g)) < 2:
        arch.apply_action(g, rnd.choice(arch.legal_actions(g)))
    return arch.game_to_json(g)


def iterations_per_second(state: dict[str, Any], seconds: float) -> tuple[float, int]:
    seat = state["pending"]["seat"]
    view = arch.player_view(state, seat)
    IsmctsBot(Budget(iterations=200)).choose(view, 0)  # warm-up
    res = IsmctsBot(Budget(time_ms=int(seconds * 1000))).choose(view, 1)
    return res.iterations / (res.time_ms / 1000), res.iterations


def hit_latency(
    state: dict[str, Any], cache: PositionCache, n: int = 300, from_view: bool = False
) -> tuple[float, float]:
    seat = state["pending"]["seat"]
    first = suggest(state, seat, iterations=100, seed=3, cache=cache)
    assert not first["cached"]
    view = arch.player_view(state, seat)
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        if from_view:
            out = suggest(None, seat, view=view, iterations=100, seed=3, cache=cache)
        else:
            out = suggest(state, seat, iterations=100, seed=3, cache=cache)
        times.append((time.perf_counter() - t0) * 1000)
        assert out["cached"]
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def deadline_overshoot(budget_ms: int = 50, runs: int = 20) -> tuple[float, float]:
    """(median, max) ms by which a `budget_ms` search ends past its budget."""
    state = arch.new_game({"seats": 4, "seed": 5})
    view = arch.player_view(state, state["pending"]["seat"])
    over = []
    for seed in range(runs):
        t0 = time.perf_counter()
        IsmctsBot(Budget(time_ms=budget_ms)).choose(view, seed)
        over.append((time.perf_counter() - t0) * 1000 - budget_ms)
    return statistics.median(over), max(over)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.ai", description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=5.0, help="ISMCTS search time")
    p.add_argument("--no-redis", action="store_true", help="skip the Redis cache-hit figure")
    args = p.parse_args(argv)
    state = midgame_state()
    seat = state["pending"]["seat"]
    print(
        f"position: 2 seats, basic, turn {state['turn']['number']}, seat {seat} to decide "
        f"among {len(state['pending']['options'])} options"
    )
    p50, p95 = hit_latency(state, make_cache(None))
    print(f"cache_hit_memory_p50_ms={p50:.3f} p95_ms={p95:.3f}")
    p50, p95 = hit_latency(state, make_cache(None), from_view=True)
    print(f"cache_hit_memory_from_view_p50_ms={p50:.3f} p95_ms={p95:.3f}")
    if not args.no_redis:
        if not RedisServer.available():
            print("cache_hit_redis: skipped (no redis-server on this machine)")
        else:
            with RedisServer() as server:
                p50, p95 = hit_latency(state, make_cache(server.url))
                print(f"cache_hit_redis_p50_ms={p50:.3f} p95_ms={p95:.3f}")
    med, worst = deadline_overshoot()
    print(
        f"time budget 50 ms, 4-seat first move: ends past it by median {med:.2f} ms, max {worst:.2f} ms"
    )
    print(f"load average {os.getloadavg()[0]:.1f} (1 min)")
    rate, iters = iterations_per_second(state, args.seconds)
    print(f"ismcts: {iters} iterations in {args.seconds:g} s")
    print(f"ismcts_iters_per_s={rate:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
