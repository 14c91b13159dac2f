"""Train a game's learned evaluation from self-play: `python -m ai.train --game G`.

Game-agnostic: the features are the game's (`GameInfo.features`), the model ai/model.py's.

1. **Self-play.** `--games` games of `--bot` against itself (every seat the same bot, each
   decision from that seat's view only, as in a tournament), on `--seats` seats in turn, the
   first seat going round; deal `seed + i` for game i, so a run is a function of its
   arguments. Each position a seat decided in gives one row per seat: its features and its
   final win share (A-8.2, F-8: a shared win split); a game is kept as its moves, so the
   positions are replayed and their features computed when the model is fitted. The games run in `--processes` local
   processes, or with `--queue redis://HOST:6379/0` as RQ jobs on the `games` queue, played by
   any number of `rq worker -w ai.queue.Worker` processes that reach that Redis (docs/scale.md),
   with the local run's exact results for an iteration budget; a progress bar follows them.
2. **Fit.** A conditional logit (ai/model.py) by Newton's method on standardized features
   with a small ridge (`--ridge`): deterministic, converged in a few steps, no solver needed
   beyond numpy (the `train` extra: the service never needs it).
3. **Report.** Games whose deal is a multiple of 5 are held out: the model's log-loss and
   Brier score on them, beside two baselines (an even split; the hand-written margin of the
   depth cut-off, `0.5 + 0.5 tanh(margin / 12)` per seat, normalized), and a calibration
   table (`--plot`: a calibration plot, with matplotlib). The model file carries the report.

    python -m ai.train --game architectura --games 600 --bot ismcts:100it --out m.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from ai.bots import parse_bot_spec
from ai.model import EXPLORATION, Mix, Model, ModelError, model_path
from ai.taskqueue import QueueUnavailable, run_games
from ai.tournament import play_game, run_local, worker_bot
from engine.games import GAMES, GameModule, engine

HOLD_OUT_EVERY = 5  # a deal that is a multiple of it is held out of the fit
MARGIN_SCALE = 12.0  # the hand-written margin's scale (the depth cut-off's)


def _prior(text: str) -> float:
    """`--prior C`: a widening constant a model file may name (above 0, below 10)."""
    try:
        c = float(text)
    except ValueError:
        c = math.nan
    if not 0 < c < 10:
        raise argparse.ArgumentTypeError(f"--prior C, a constant in (0, 10) as 1.0: {text!r}")
    return c


def _mix(text: str) -> Mix:
    """`--mix ABOVE:WEIGHT:C[:time]` read as a model's `Mix`."""
    try:
        above, weight, c, *rest = text.split(":")
        if rest not in ([], ["time"]):
            raise ValueError(f"{':'.join(rest)!r} is not 'time'")
        doc = {"above": int(above), "weight": float(weight), "exploration": float(c)}
        return Mix.from_json({**doc, "time": bool(rest)}, "--mix")
    except (ValueError, ModelError) as e:
        raise argparse.ArgumentTypeError(
            f"--mix ABOVE:WEIGHT:C[:time], as 640:0.5:0.3 ({e})"
        ) from None


def selfplay_job(args: Sequence[Any]) -> dict[str, Any]:
    """One self-play game: (game, seats, bot spec, deal) -> the game as the index of each
    step's option among the legal ones (`replay` plays it again) and its result."""
    game, seats, spec, deal = args
    eng = engine(game)
    moves: list[int] = []

    def observe(g: Any, seat: int, action: Any) -> None:
        moves.append(eng.legal_actions(g).index(action))

    bots = [worker_bot(spec) for _ in range(seats)]
    result, _, _ = play_game(deal, bots, first_seat=deal % seats, game=game, observe=observe)
    return {
        "game": game,
        "bot": spec,
        "deal": deal,
        "seats": seats,
        "moves": moves,
        "result": result,
    }


def choices(record: dict[str, Any]) -> Iterator[tuple[int, Any]]:
    """A self-play game replayed: (the step's index, the game) at every position where a
    seat had a choice, before the recorded option is applied."""
    eng = engine(record["game"])
    setup = eng.tournament_setup(record["deal"], record["seats"], None)
    setup["first_seat"] = record["deal"] % record["seats"]
    g = eng.new_game_internal(setup)
    for k, i in enumerate(record["moves"]):
        opts = eng.legal_actions(g)
        if len(opts) > 1:
            yield k, g
        eng.apply_action(g, opts[i])
    if not g.over:
        raise ValueError(f"deal {record['deal']}: the recorded game does not end where it did")


def positions(record: dict[str, Any]) -> tuple[list[list[list[float]]], list[list[int]]]:
    """At every position of a self-play game where a seat had a choice, every seat's
    features and its total score as the position stands (the margin baseline's input)."""
    eng = engine(record["game"])
    feats = eng.INFO.features
    if feats is None:
        raise ValueError(f"{record['game']} declares no features")
    rows, totals = [], []
    for _, g in choices(record):
        rows.append(feats.of(g))
        totals.append([s["total"] for s in eng.tally(g)["seats"]])
    return rows, totals


# -- the fit (numpy: the `train` extra) -----------------------------------------------------


def _groups(games: list[dict[str, Any]]) -> dict[int, tuple[Any, Any, Any]]:
    """The games' positions by seat count: features (N, n, d), results (N, n), totals (N, n)."""
    import numpy as np

    by: dict[int, list[tuple[Any, Any, Any]]] = {}
    for gm in games:
        for rows, tot in zip(*positions(gm), strict=True):
            by.setdefault(gm["seats"], []).append((rows, gm["result"], tot))
    return {
        n: (
            np.array([r for r, _, _ in items], dtype=float),
            np.array([y for _, y, _ in items], dtype=float),
            np.array([t for _, _, t in items], dtype=float),
        )
        for n, items in by.items()
    }


def _softmax(u: Any) -> Any:
    import numpy as np

    e = np.exp(u - u.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def fit(games: list[dict[str, Any]], ridge: float = 1.0, steps: int = 30) -> list[float]:
    """The conditional logit's weights (on the raw features) by Newton's method, each
    position's target its game's result."""
    return fit_targets([(x, y) for x, y, _ in _groups(games).values()], ridge, steps)


def fit_targets(groups: list[tuple[Any, Any]], ridge: float = 1.0, steps: int = 30) -> list[float]:
    """The conditional logit's weights for positions grouped by seat count: features (N, n,
    d) and each position's target shares (N, n)."""
    import numpy as np

    flat = np.concatenate([x.reshape(-1, x.shape[2]) for x, _ in groups])
    mu, sd = flat.mean(axis=0), flat.std(axis=0)
    sd[sd < 1e-9] = 1.0  # a constant feature: its weight stays 0 (the ridge)
    d = flat.shape[1]
    w = np.zeros(d)
    for _ in range(steps):
        grad = ridge * w
        hess = ridge * np.eye(d)
        for x, y in groups:
            z = (x - mu) / sd
            p = _softmax(z @ w)
            grad = grad + np.einsum("nsd,ns->d", z, p - y)
            zp = np.einsum("nsd,ns->nd", z, p)
            hess = hess + np.einsum("nsd,ns,nse->de", z, p, z) - zp.T @ zp
        delta = np.linalg.solve(hess, grad)
        w = w - delta
        if float(np.abs(delta).max()) < 1e-8:
            break
    return [float(v) for v in w / sd]


def _margin_shares(totals: Any) -> Any:
    """The hand-written margin's shares: 0.5 + 0.5 tanh((own - best other) / 12), normalized."""
    import numpy as np

    n = totals.shape[1]
    out = np.empty_like(totals)
    for s in range(n):
        others = np.delete(totals, s, axis=1).max(axis=1)
        out[:, s] = 0.5 + 0.5 * np.tanh((totals[:, s] - others) / MARGIN_SCALE)
    return out / out.sum(axis=1, keepdims=True)


def scores(games: list[dict[str, Any]], weights: list[float]) -> dict[str, Any]:
    """Log-loss and Brier score (per position, summed over seats) of the model and the two
    baselines on `games`, and the model's calibration (per-seat shares in ten bins)."""
    import numpy as np

    w = np.array(weights)
    preds: dict[str, list[Any]] = {"model": [], "margin": [], "even": []}
    ys = []
    for x, y, t in _groups(games).values():
        preds["model"].append(_softmax(x @ w))
        preds["margin"].append(_margin_shares(t))
        preds["even"].append(np.full_like(y, 1.0 / y.shape[1]))
        ys.append(y)
    out: dict[str, Any] = {"positions": int(sum(len(y) for y in ys))}
    for name, ps in preds.items():
        ll = [-(y * np.log(np.clip(p, 1e-9, 1))).sum(axis=1) for p, y in zip(ps, ys, strict=True)]
        br = [((p - y) ** 2).sum(axis=1) for p, y in zip(ps, ys, strict=True)]
        out[name] = {
            "log_loss": round(float(np.concatenate(ll).mean()), 4),
            "brier": round(float(np.concatenate(br).mean()), 4),
        }
    p = np.concatenate([q.ravel() for q in preds["model"]])
    y = np.concatenate([q.ravel() for q in ys])
    bins = np.minimum((p * 10).astype(int), 9)
    out["calibration"] = [
        {
            "bin": f"{b / 10:.1f}-{(b + 1) / 10:.1f}",
            "count": int((bins == b).sum()),
            "predicted": round(float(p[bins == b].mean()), 4),
            "observed": round(float(y[bins == b].mean()), 4),
        }
        for b in range(10)
        if (bins == b).any()
    ]
    return out


def plot_calibration(path: str, game: str, report: dict[str, Any]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cal = report["held_out"]["calibration"]
    fig, ax = plt.subplots(figsize=(4.5, 4.5))
    ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--", label="perfect")
    ax.plot(
        [c["predicted"] for c in cal], [c["observed"] for c in cal], "o-", label="learned model"
    )
    ax.set_xlabel("predicted win share")
    ax.set_ylabel("observed win share (held-out games)")
    ho = report["held_out"]
    ax.set_title(
        f"{game}: log-loss {ho['model']['log_loss']} (margin {ho['margin']['log_loss']})",
        fontsize=9,
    )
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# -- the command -------------------------------------------------------------------------------


def selfplay(
    game: str,
    bot: str,
    games: int,
    seats: list[int],
    seed: int,
    processes: int,
    queue: str | None,
    progress: bool,
) -> list[dict[str, Any]]:
    jobs = [[game, seats[i % len(seats)], bot, seed + i] for i in range(games)]
    bar = tqdm(total=len(jobs), desc=f"self-play {game}", unit="game", disable=not progress)
    if queue is not None:
        out = run_games(queue, "ai.jobs.play_selfplay_game", jobs, lambda: bar.update(1))
    else:
        out = run_local(selfplay_job, jobs, processes, lambda: bar.update(1))
    bar.close()
    return sorted(out, key=lambda r: r["deal"])


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ai.train", description=__doc__.split("\n")[0])
    p.add_argument("--game", choices=list(GAMES), required=True)
    p.add_argument("--bot", default="ismcts:100it", help="the self-play bot (a tournament spec)")
    p.add_argument("--games", type=int, default=600)
    p.add_argument("--seats", default="2,2,3,4", help="seat counts, game by game in turn")
    p.add_argument("--seed", type=int, default=1, help="the first game's deal")
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--queue", metavar="REDIS_URL", help="play on RQ workers (docs/scale.md)")
    p.add_argument("--ridge", type=float, default=1.0)
    p.add_argument("--generation", type=int, default=1)
    p.add_argument(
        "--exploration", type=float, default=EXPLORATION, help="UCB's c kept with the model"
    )
    p.add_argument(
        "--mix",
        type=_mix,
        metavar="ABOVE:WEIGHT:C[:time]",
        help="kept with the model: a search of more than ABOVE iterations (and with :time, a"
        " search on a time budget) judges each leaf by WEIGHT * the model + the rest by a random"
        " playout, with UCB's c C (ai/model.py Mix)",
    )
    p.add_argument(
        "--prior",
        type=_prior,
        metavar="C",
        help="kept with the model: a search on a time budget ranks the root's options by the"
        " model one ply later and widens them progressively with constant C (ai/model.py)",
    )
    p.add_argument("--out", help="the model file (default: the game's own, beside it)")
    p.add_argument("--data", help="also keep the self-play games (JSON: their moves)")
    p.add_argument("--from-data", nargs="+", help="fit on games kept by --data (one or more files)")
    p.add_argument("--plot", help="write a calibration plot (PNG; needs matplotlib)")
    p.add_argument("--quiet", action="store_true")
    return p


def main(argv: list[str] | None = None) -> int:
    p = _parser()
    args = p.parse_args(argv)
    eng = engine(args.game)
    if eng.INFO.features is None:
        p.error(f"{args.game} declares no features (GameInfo.features)")
    try:
        parse_bot_spec(args.bot)
        seats = [int(x) for x in args.seats.split(",")]
    except ValueError as e:
        p.error(str(e))
    if any(n not in eng.INFO.seats for n in seats):
        p.error(f"--seats: {args.game} is played by {eng.INFO.min_seats}..{eng.INFO.max_seats}")
    t0 = time.perf_counter()
    if args.from_data:
        played = [g for f in args.from_data for g in json.loads(Path(f).read_text())["games"]]
    else:
        try:
            played = selfplay(
                args.game,
                args.bot,
                args.games,
                seats,
                args.seed,
                args.processes,
                args.queue,
                not args.quiet,
            )
        except QueueUnavailable as e:
            print(f"python -m ai.train: error: the queue is unavailable: {e}", file=sys.stderr)
            return 2
    selfplay_s = time.perf_counter() - t0
    if args.data:
        Path(args.data).write_text(json.dumps({"games": played}))
    model = _fitted(eng, args, played, selfplay_s)
    out = Path(args.out) if args.out else model_path(eng)
    assert out is not None
    model.save(out)
    ho = model.trained["held_out"]
    if ho is not None:
        print(
            f"{args.game}: {len(played)} games, {model.trained['train']['positions']} positions;"
            f" held-out log-loss {ho['model']['log_loss']} (margin {ho['margin']['log_loss']},"
            f" even {ho['even']['log_loss']}), Brier {ho['model']['brier']}"
            f" (margin {ho['margin']['brier']}); self-play {selfplay_s:.0f} s"
        )
        if args.plot:
            plot_calibration(args.plot, args.game, model.trained)
    print(f"model {model.version} written to {out}")
    return 0


def _fitted(
    eng: GameModule, args: argparse.Namespace, played: list[dict[str, Any]], selfplay_s: float
) -> Model:
    """The model fitted on `played` (the held-out deals left out), with its training report
    and the search settings the command names."""
    assert eng.INFO.features is not None
    train = [g for g in played if g["deal"] % HOLD_OUT_EVERY]
    held = [g for g in played if not g["deal"] % HOLD_OUT_EVERY]
    weights = fit(train, args.ridge)
    report = {
        "bots": dict(Counter(g.get("bot", args.bot) for g in played)),
        "games": len(played),
        "seats": dict(Counter(str(g["seats"]) for g in played)),
        "seed": args.seed,
        "ridge": args.ridge,
        "selfplay_s": round(selfplay_s, 1),
        "workers": "queue" if args.queue else args.processes,
        "train": scores(train, weights),
        "held_out": scores(held, weights) if held else None,
    }
    return Model(
        eng.INFO.id,
        eng.INFO.features.names,
        tuple(weights),
        args.generation,
        args.exploration,
        report,
        args.mix,
        args.prior,
    )


if __name__ == "__main__":
    raise SystemExit(main())
