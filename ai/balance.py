"""Balance of a catalog: `python -m ai.balance --game fora-de-prumo --games 200 --plot b.png`.

Bots play games with the catalog (the same bot in every seat by default, so that what wins
is the cards and the seat, not the bot), and the report gives, per card, how often the side
that played it won, and the first seat's advantage, each with a 95% Wilson interval:

- "played": Architectura, a card played onto the city (a `play` decision; the card counted
  by its kind, `blue.tavern` and `green.tavern` both as `tavern`); Fora de Prumo, a card laid
  into the seat's work (a `lay` decision).
- A side's win is its share of the win (1, or 1/k for a k-way shared win): per card, the
  average over every (game, seat) in which that seat played the card at least once, against
  the base rate 1/seats. A card well above it is one whose players win more often; that is a
  correlation (strong players may pick strong cards), which is why all seats share one bot.
- First seat: the seat that moved first rotates with the deal (deal mod seats); its average
  win share against 1/seats.

Games run on local processes or, with `--queue redis://...`, as RQ jobs on any number of
workers (ai/taskqueue.py); a game is a function of its arguments, so both give the same report.
Writes a Markdown table (stdout, `--table FILE`), a PNG plot (`--plot`) and JSON (`--json`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

from ai.bots import parse_bot_spec
from ai.taskqueue import QueueUnavailable, run_games
from ai.tournament import (
    WinRate,
    command,
    play_game,
    require_plotting,
    run_local,
    save_plot,
    worker_bot,
)
from engine.games import GAMES, engine, info

# per game: the decision type that "plays" a card, and the card's name for the report
PLAY_TYPE = {g: info(g).play_decision for g in GAMES}


def card_name(game: str, card: str) -> str:
    # the game's name for it (Architectura's cards are per colour: one kind for every colour)
    return info(game).card_name(card)


def play_job(args: Sequence[Any]) -> dict[str, Any]:
    """One balance game: (bot spec, seats, deal, variant, game, catalog or None). Returns
    the first seat, each seat's win share and the cards each seat played."""
    spec, seats, deal, variant, game, catalog = args
    eng = engine(game)
    played: list[set[str]] = [set() for _ in range(seats)]

    def observe(g: Any, seat: int, action: Any) -> None:
        d = eng.action_to_json(g, seat, action)
        if d.get("type") == info(game).play_decision:  # a game registered later too
            played[seat].add(card_name(game, d["card"]))

    first = deal % seats
    bots = [worker_bot(spec)] * seats
    scores, _, _ = play_game(deal, bots, variant, first, game, observe, catalog)
    return {
        "deal": deal,
        "first_seat": first,
        "scores": scores,
        "played": [sorted(p) for p in played],
    }


@dataclass
class Rate(WinRate):
    name: str
    n: int  # (game, seat) samples
    wins: float  # win shares summed

    def won(self) -> tuple[float, int]:
        return self.wins, self.n

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.ci
        return {"name": self.name, "n": self.n, "win_rate": self.rate, "ci95": [lo, hi]}


@dataclass
class Report:
    game: str
    bot: str
    seats: int
    games: int
    first_seat: Rate
    cards: list[Rate]  # by win rate, highest first

    @property
    def base(self) -> float:
        return 1 / self.seats

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "bot": self.bot,
            "seats": self.seats,
            "games": self.games,
            "base_rate": self.base,
            "first_seat": self.first_seat.to_json(),
            "cards": [c.to_json() for c in self.cards],
        }

    def table(self) -> str:
        lo, hi = self.first_seat.ci
        lines = [
            f"{self.game}, {self.bot} in all {self.seats} seats, {self.games} games; "
            f"base rate {self.base:.3f}",
            "",
            f"First seat win rate: {self.first_seat.rate:.3f} (95% CI {lo:.3f}-{hi:.3f})",
            "",
            "| card | played by (game, seat) | win rate of its player | 95% CI | vs base |",
            "|---|---|---|---|---|",
        ]
        for c in self.cards:
            lo, hi = c.ci
            flag = "above" if lo > self.base else "below" if hi < self.base else "-"
            lines.append(f"| {c.name} | {c.n} | {c.rate:.3f} | {lo:.3f}-{hi:.3f} | {flag} |")
        return "\n".join(lines)


def summarise(game: str, bot: str, seats: int, records: list[dict[str, Any]]) -> Report:
    """The report of a run's game records (see `play_job`)."""
    records = sorted(records, key=lambda r: r["deal"])
    first = Rate("first seat", 0, 0.0)
    cards: dict[str, Rate] = {}
    for r in records:
        first.n += 1
        first.wins += r["scores"][r["first_seat"]]
        for seat, names in enumerate(r["played"]):
            for name in names:
                c = cards.setdefault(name, Rate(name, 0, 0.0))
                c.n += 1
                c.wins += r["scores"][seat]
    ranked = sorted(cards.values(), key=lambda c: (-c.rate, c.name))
    return Report(game, bot, seats, len(records), first, ranked)


def run_balance(
    game: str,
    games: int,
    *,
    bot: str = "greedy",
    seats: int = 2,
    seed: int = 1,
    variant: str | None = None,
    catalog: Any = None,
    processes: int = 2,
    queue: str | None = None,
    progress: bool = True,
) -> Report:
    parse_bot_spec(bot)
    jobs = [(bot, seats, seed + i, variant, game, catalog) for i in range(games)]
    bar = tqdm(total=len(jobs), desc=f"balance {game}", disable=not progress, file=sys.stderr)
    if queue is not None:
        records = run_games(queue, "ai.jobs.play_balance_game", jobs, bar.update)
    else:
        records = run_local(play_job, jobs, processes, bar.update)
    bar.close()
    return summarise(game, bot, seats, records)


def write_plot(path: str, report: Report) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [report.first_seat, *report.cards]
    ys = list(range(len(rows)))[::-1]
    xs = [r.rate for r in rows]
    err = [[r.rate - r.ci[0] for r in rows], [r.ci[1] - r.rate for r in rows]]
    fig, ax = plt.subplots(figsize=(7, 0.22 * len(rows) + 1.5))
    colours = ["tab:red"] + ["tab:blue"] * len(report.cards)
    for y, x, lo, hi, col in zip(ys, xs, err[0], err[1], colours, strict=True):
        ax.errorbar(x, y, xerr=[[lo], [hi]], fmt="o", color=col, capsize=2, markersize=3)
    ax.axvline(report.base, color="grey", linestyle=":")
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{r.name} (n={r.n})" for r in rows], fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate of the side that played it (95% Wilson CI); red: first seat")
    ax.set_title(
        f"{report.game}: {report.bot} in all {report.seats} seats, {report.games} games",
        fontsize=9,
    )
    save_plot(fig, path)


def main(argv: list[str] | None = None) -> int:
    p = command("python -m ai.balance", __doc__)
    p.add_argument("--catalog", help="a catalog document (JSON file); the reference one if absent")
    p.add_argument("--bot", default="greedy", help="the bot in every seat (as ai.tournament)")
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1, help="first deal seed")
    p.add_argument("--variant", help="Architectura: basic/advanced; Fora de Prumo: market size")
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--queue", metavar="REDIS_URL", help="play the games as RQ jobs there")
    p.add_argument("--table", help="also write the Markdown table to this file")
    p.add_argument("--plot", help="write a PNG plot")
    p.add_argument("--json", help="write the report as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    seats = info(args.game).seats
    if args.games < 1 or args.seats not in seats:
        p.error(f"--games must be at least 1 and --seats {seats[0]} to {seats[-1]}")
    if args.plot:
        require_plotting(p)
    try:
        parse_bot_spec(args.bot)
    except ValueError as e:
        p.error(str(e))
    catalog = None
    if args.catalog:
        with open(args.catalog, encoding="utf-8") as f:
            catalog = json.load(f)
    try:
        report = run_balance(
            args.game,
            args.games,
            bot=args.bot,
            seats=args.seats,
            seed=args.seed,
            variant=args.variant,
            catalog=catalog,
            processes=args.processes,
            queue=args.queue,
            progress=not args.quiet,
        )
    except QueueUnavailable as e:
        print(f"python -m ai.balance: error: the queue is unavailable: {e}", file=sys.stderr)
        return 2
    text = report.table()
    print(text)
    if args.table:
        with open(args.table, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    if args.plot:
        write_plot(args.plot, report)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report.to_json(), f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
