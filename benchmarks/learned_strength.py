"""Bot strength of the learned evaluation (issue 31), in one run, side by side:

    python -m benchmarks.learned_strength --game architectura --a model:300it --b base:300it --games 400
    python -m benchmarks.learned_strength --game fora-de-prumo --a model:100ms --b base:100ms --seats 3
    python -m benchmarks.learned_strength --game architectura --a model:2560it --b model:640it

`--a` and `--b` are bot specs (`ai.bots.parse_bot_spec`: `model:<n>it`, `ismcts:<n>ms`, a level,
...), or `base:<n>it` / `base:<n>ms`: the ISMCTS of commit `--rev` (default 5928220, the bot
served before the learned evaluation), its `ai/bots.py` alone loaded beside today's, so both
bots search on the same (compiled) engine and only the search differs; or
`file:<model.json>:<n>it` / `...:<n>ms`, the served search judged by that model file (one
trained on fewer features reads the others with weight 0: `padded_model`), so that two
generations of a model, or two feature sets, play each other; or `mix:<w>:<c>:<n>it`, the
served search with UCB constant c whose leaves are judged by w * the model + (1 - w) * a random
playout at every budget (`benchmarks.variants.mixed_bot`); or `mprior:<C>:<budget>` /
`gprior:<C>:<budget>`, the served search with a root prior of widening constant C at any budget,
its options ranked by the model one ply later (`ai.model.model_ranking`) or by the greedy margin;
or `infer:<beta>:<budget>`, the served search dealing the other seats' hands by their last
plays (`benchmarks.inference`); or `seer:<budget>`, the served search told the other seats' hands (Architectura;
`benchmarks.variants.SeerBot`): the most inference on hidden hands could know.

Two seats: each deal is played twice with the seats swapped. Three or four: one seat of A
against B on the others, A's seat going round the table from game to game. A's win share
(1 per win, 1/k for a k-way shared win) with its 95% Wilson interval, and each side's mean
thinking time per decision. The games run in `--processes` processes (fork); a time budget
is wall-clock, so a loaded machine shortens both sides alike. `--out FILE` appends the summary
as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import time
from pathlib import Path
from typing import Any

from ai.base import Budget
from ai.bots import Bot, parse_bot_spec, parse_budget
from ai.mcts import IsmctsBot
from ai.model import Model, ModelEvaluator, learned_search, model_ranking
from ai.tournament import play_game, wilson
from benchmarks.inference import LAST_PLAY, inference_bot, record_play
from benchmarks.local import baseline_bot
from benchmarks.variants import mixed_bot, phase_bot, reveal_hands, seer_bot, self_deal_bot
from engine.games import GAMES, engine

_BOTS: dict[str, Bot] = {}
_REV: list[str] = ["5928220"]
_GAME: list[str] = ["architectura"]


def padded_model(path: str, game: str) -> Model:
    """A model file of `game`, its weights laid on the game's feature names today: a feature
    it was not trained on weighs 0 (the same estimates as on its own features); a feature it
    names that the game no longer has is an error."""
    eng = engine(game)
    doc = json.loads(Path(path).read_text())
    feats = eng.INFO.features
    assert feats is not None
    weights = dict(zip(doc["features"], doc["weights"], strict=True))
    missing = set(weights) - set(feats.names)
    if missing:
        raise ValueError(f"{path}: features the game no longer has: {sorted(missing)}")
    doc["features"] = list(feats.names)
    doc["weights"] = [weights.get(name, 0.0) for name in feats.names]
    return Model.from_json(doc, eng)


def _budget(spec: str, arg: str) -> Budget:
    budget = parse_budget(arg)
    if budget is None:
        raise ValueError(f"bot {spec!r}: the budget is <n>it or <n>ms")
    return budget


def make_bot(spec: str) -> Bot:
    if spec not in _BOTS:
        if spec.startswith("base:"):
            _BOTS[spec] = baseline_bot(_REV[0], _budget(spec, spec.split(":", 1)[1]))
        elif spec.startswith("file:"):
            path, arg = spec[len("file:") :].rsplit(":", 1)
            model = padded_model(path, _GAME[0])
            budget = _budget(spec, arg)
            # as the served search uses its file: the budget picks the constant and the mix
            constant, _ = model.search_for(budget.iterations)
            _BOTS[spec] = IsmctsBot(
                budget,
                exploration=constant,
                evaluator=ModelEvaluator(model, iterations=budget.iterations),
            )
        elif spec.startswith(("mprior:", "gprior:")):
            kind, widening, arg = spec.split(":")
            bot = learned_search(_budget(spec, arg), prior_widening=float(widening))
            if kind == "mprior":
                bot.ranking = model_ranking
            _BOTS[spec] = bot
        elif spec.startswith("infer:"):
            _, beta, arg = spec.split(":")
            _BOTS[spec] = inference_bot(_budget(spec, arg), float(beta))
        elif spec.startswith("seer:"):
            reveal_hands(_GAME[0])
            _BOTS[spec] = seer_bot(_budget(spec, spec.split(":", 1)[1]))
        elif spec.startswith("selfdeal:"):
            _, p, arg = spec.split(":")
            _BOTS[spec] = self_deal_bot(_budget(spec, arg), float(p))
        elif spec.startswith("phase:"):
            _, cards, arg = spec.split(":")
            _BOTS[spec] = phase_bot(_budget(spec, arg), int(cards))
        elif spec.startswith("mix:"):
            _, weight, c, arg = spec.split(":")
            _BOTS[spec] = mixed_bot(_budget(spec, arg), float(weight), float(c), _GAME[0])
        else:
            _BOTS[spec] = parse_bot_spec(spec)[1]
    return _BOTS[spec]


def play(job: tuple[str, str, str, int, int, int]) -> tuple[float, float, float]:
    """One game: (game, A, B, deal, seats, A's seat) -> A's share, A's and B's ms a decision."""
    game, a, b, deal, seats, mine = job
    bots = [make_bot(b)] * seats
    bots[mine] = make_bot(a)
    # benchmarks.inference's bots read each seat's last play of this game: kept for them only
    observe = record_play if any(s.startswith("infer:") for s in (a, b)) else None
    LAST_PLAY.clear()
    shares, think, count = play_game(deal, bots, game=game, observe=observe)
    others = [i for i in range(seats) if i != mine]
    return (
        shares[mine],
        think[mine] / max(1, count[mine]),
        sum(think[i] for i in others) / max(1, sum(count[i] for i in others)),
    )


def jobs(game: str, a: str, b: str, games: int, seats: int, seed: int) -> list[Any]:
    if seats == 2:
        return [(game, a, b, seed + i // 2, 2, i % 2) for i in range(games)]
    return [(game, a, b, seed + i, seats, i % seats) for i in range(games)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.learned_strength")
    p.add_argument("--game", choices=list(GAMES), required=True)
    p.add_argument("--a", required=True)
    p.add_argument("--b", required=True)
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seats", type=int, default=2, choices=(2, 3, 4))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rev", default="5928220")
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--out")
    args = p.parse_args(argv)
    _REV[0] = args.rev
    _GAME[0] = args.game
    for spec in (args.a, args.b):
        make_bot(spec)  # a bad spec fails here, before the pool
    work = jobs(args.game, args.a, args.b, args.games, args.seats, args.seed)
    t0 = time.time()
    with mp.get_context("fork").Pool(args.processes) as pool:
        out = pool.map(play, work, chunksize=1)
    points = sum(o[0] for o in out)
    lo, hi = wilson(points, len(out))
    summary = {
        "game": args.game,
        "seats": args.seats,
        "a": args.a,
        "b": args.b if not args.b.startswith("base:") else f"{args.b} ({args.rev})",
        "games": len(out),
        "seed": args.seed,
        "a_share": round(points / len(out), 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "fair_share": round(1 / args.seats, 4),
        "a_ms_per_decision": round(sum(o[1] for o in out) / len(out), 2),
        "b_ms_per_decision": round(sum(o[2] for o in out) / len(out), 2),
        "seconds": round(time.time() - t0),
    }
    print(json.dumps(summary), flush=True)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            f.write(json.dumps(summary) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
