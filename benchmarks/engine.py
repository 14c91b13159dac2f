"""Engine benchmark: random complete games per second on one core.

    python -m benchmarks.engine [--seconds 5]

Plays uniformly random legal decisions with the in-memory API (what the bots use) until each
game is over. Prints one figure per configuration; the last line is
`random_games_per_s_2p_basic=<number>`.
"""

from __future__ import annotations

import argparse
import random
import time

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


def measure(seats: int, variant: str, seconds: float) -> tuple[float, float]:
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += play_random_game(games, seats, variant)
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    args = parser.parse_args()
    results = {}
    for seats in (2, 3, 4):
        for variant in ("basic", "advanced"):
            gps, dps = measure(seats, variant, args.seconds)
            results[(seats, variant)] = gps
            print(f"{seats}p {variant:8s}: {gps:8.1f} games/s  {dps:9.0f} decisions/s")
    print(f"random_games_per_s_2p_basic={results[(2, 'basic')]:.1f}")


if __name__ == "__main__":
    main()
