"""A model refitted on what a search says of each position, not on how the game ended
(issue 31, docs/model.md "Tried, not kept"): two-seat self-play games of `ismcts:100it`,
each position where a seat had a choice judged by the served search from that seat's view
(`model:300it`: the most visited option's value, the mover's win share), then the
conditional logit fitted on `lam` x the game's result + (1 - `lam`) x that value.

    python -m benchmarks.search_targets --game architectura --games 1000 --seed 90001 \\
        --lam 0.5 --out /tmp/m.json
    python -m benchmarks.learned_strength --game architectura \\
        --a file:/tmp/m.json:100ms --b base:100ms --games 200 --seed 1

The model keeps the served file's search settings. Needs numpy (the `train` extra).
"""

from __future__ import annotations

import argparse
import json
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from ai.model import Model, model_path
from ai.tournament import worker_bot
from ai.train import choices, fit_targets, selfplay_job
from engine.games import engine

JUDGE = "model:300it"


def _play(args: tuple[str, int]) -> dict[str, Any]:
    game, deal = args
    return selfplay_job((game, 2, "ismcts:100it", deal))


def judged(record: dict[str, Any]) -> list[tuple[list[list[float]], list[float], list[float]]]:
    """A game replayed (`ai.train.choices`): at each choice, every seat's features, the
    search's shares (the mover's value, the other seat the rest) and the game's result."""
    eng = engine(record["game"])
    feats = eng.INFO.features
    assert feats is not None
    bot = worker_bot(JUDGE)
    out = []
    for k, g in choices(record):
        seat = eng.current_player(g)
        assert seat is not None
        res = bot.choose(eng.game_view(g, seat), 7919 * record["deal"] + k, None)
        best = max(res.options, key=lambda o: o.visits).value
        value = 0.5 if best is None else float(best)  # a lost position is worth 0.0
        shares = [1 - value, 1 - value]
        shares[seat] = value
        out.append((feats.of(g), shares, list(record["result"])))
    return out


def fit(rows: list[Any], lam: float) -> list[float]:
    """ai.train's fit, each position's target `lam` x its game's result + (1 - `lam`) x the
    search's shares."""
    import numpy as np

    x = np.array([r[0] for r in rows], dtype=float)
    y = lam * np.array([r[2] for r in rows]) + (1 - lam) * np.array([r[1] for r in rows])
    return fit_targets([(x, y)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="architectura")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=90001)
    ap.add_argument("--lam", type=float, default=0.5, help="the game's result's weight")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    with Pool(2) as pool:
        games = pool.map(_play, [(args.game, d) for d in range(args.seed, args.seed + args.games)])
        rows = [r for g in pool.map(judged, games, chunksize=2) for r in g]
    eng = engine(args.game)
    path = model_path(eng)
    assert path is not None
    doc = json.loads(path.read_text())
    doc.update(weights=fit(rows, args.lam), generation=90)
    doc["trained"] = {"positions": len(rows), "targets": f"{args.lam} result + search value"}
    doc.pop("version", None)
    model = Model.from_json(doc, eng)
    model.save(Path(args.out))
    print(model.version, len(rows), "positions")


if __name__ == "__main__":
    main()
