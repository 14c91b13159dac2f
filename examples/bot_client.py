"""A bot client: plays a whole game over HTTP, each seat deciding from its own view only.

    python examples/bot_client.py                                  # Architectura, 2 seats
    python examples/bot_client.py --game fora-de-prumo --seats 3 --seed 7
    python examples/bot_client.py --base http://localhost:9000 --bot greedy
    BASE=http://referee.example:8000 python examples/bot_client.py   # as the README's BASE

Standard library only; docs/clients.md explains each step. The referee stores nothing, so
this script is also the table: it keeps the full state, and for each decision asks /v1/view
for the deciding seat's view (`pending.seat`, not `turn.seat`: a Laboratory or a Guesthouse
asks another seat in the middle of a turn) and hands only that view to the seat's player. A
player decides from the view alone, with the service's bot (/v1/suggest given the view, never
the state; its seat is the view's own) or (`--bot local`) a seeded random choice among the
options its view lists. The table sends the decision to /v1/resolve, asking for every seat's
copy of the events at once (`events_for`: all seats) and relays each seat its own. A busy
service (503 with Retry-After) is asked again after the wait it names. At the end the game
is written down with /v1/record from the last state alone (a state carries its history) and
checked with /v1/replay.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
from typing import Any

RETRIES = 5  # a 503 with Retry-After (a busy search slot) is asked again this many times
MAX_WAIT_S = 10.0  # the longest wait honoured


class Referee:
    """The HTTP service."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")

    def post(self, path: str, body: dict[str, Any]) -> Any:
        data = json.dumps(body).encode()
        for attempt in range(RETRIES + 1):
            req = urllib.request.Request(
                self.base + path, data=data, headers={"Content-Type": "application/json"}
            )
            try:
                with urllib.request.urlopen(req, timeout=120) as r:
                    return json.load(r)
            except urllib.error.HTTPError as e:  # a problem+json body
                problem = json.load(e)
                wait = e.headers.get("Retry-After")
                if e.code == 503 and wait and attempt < RETRIES:  # busy: come back as told
                    time.sleep(min(float(wait), MAX_WAIT_S))
                    continue
                detail = f"{path}: {e.code} {problem.get('code')}: {problem.get('detail')}"
                raise SystemExit(detail) from None
            except urllib.error.URLError as e:  # nothing listens there: say where we looked
                raise SystemExit(
                    f"cannot reach the referee at {self.base} ({e.reason}). Start it with "
                    "`bash scripts/serve.sh`, or give its URL with --base or BASE."
                ) from None
        raise AssertionError("unreachable")  # every attempt returns, retries or raises


class Player:
    """One seat. It sees nothing but the view the table gives it."""

    def __init__(self, referee: Referee, seat: int, bot: str, seed: int) -> None:
        self.referee, self.seat, self.bot = referee, seat, bot
        self.rng = random.Random(seed * 31 + seat)
        self.seen: list[dict[str, Any]] = []  # the events as this seat may see them

    def observe(self, events: list[dict[str, Any]]) -> None:
        """This seat's copy of what happened (others' drawn cards withheld: `hidden`)."""
        self.seen.extend(events)

    def decide(self, view: dict[str, Any]) -> dict[str, Any]:
        assert view["view_of"] == self.seat
        if self.bot == "local":
            options: list[dict[str, Any]] = view["pending"]["options"]
            return self.rng.choice(options)
        # no `seat`: the view's own (view_of)
        body = {"view": view, "bot": self.bot, "seed": self.rng.randrange(2**31)}
        if self.bot == "ismcts":
            body["level"] = "easy"
        answer = self.referee.post("/v1/suggest", body)
        decision: dict[str, Any] = answer["decision"]
        return decision


def play(base: str, game: str, seats: int, seed: int, bot: str, quiet: bool = False) -> int:
    referee = Referee(base)
    setup: dict[str, Any] = {"game": game, "seats": seats, "seed": seed}
    state = referee.post("/v1/games", setup)["state"]
    players = [Player(referee, s, bot, seed) for s in range(seats)]
    log: list[dict[str, Any]] = []
    while not state["game_over"]:
        seat = state["pending"]["seat"]
        view = referee.post("/v1/view", {"state": state, "seat": seat})
        decision = players[seat].decide(view)
        answer = referee.post(
            "/v1/resolve",
            {
                "state": state,
                "decisions": [decision],
                "notation": True,
                "events_for": list(range(seats)),  # every seat's copy in one call
            },
        )
        for copy in answer["events_by_seat"]:
            players[copy["seat"]].observe(copy["events"])
        log.append(decision)
        state = answer["state"]
        if not quiet:
            said = answer["events"][0]["notation"] if answer["events"] else "?"
            print(f"{len(log):4d}  seat {seat}: {said}")
    scores = referee.post("/v1/score", {"state": state})
    print("final:", json.dumps({k: scores[k] for k in ("winners", "decided_by") if k in scores}))
    for s in scores["seats"]:
        print(f"  seat {s['seat']}: {s['total']}")
    record = referee.post("/v1/record", {"state": state})  # the state carries its history
    check = referee.post("/v1/replay", record)
    print(
        f"record: {len(record['decisions'])} decisions, {record['record']['rules_version']}, "
        f"replayed ok={check['ok']}"
    )
    print("events relayed:", ", ".join(f"seat {p.seat}: {len(p.seen)}" for p in players))
    return 0 if check["ok"] and check["state"] == state else 1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "--base",
        default=os.environ.get("BASE", "http://localhost:8000"),
        help="the referee's URL (default: $BASE, else http://localhost:8000)",
    )
    p.add_argument("--game", default="architectura", choices=["architectura", "fora-de-prumo"])
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--bot",
        default="greedy",
        choices=["greedy", "ismcts", "random", "local"],
        help="how every seat decides: the service's bot from the view, or local (random)",
    )
    p.add_argument("--quiet", action="store_true", help="print only the result")
    a = p.parse_args(argv)
    return play(a.base, a.game, a.seats, a.seed, a.bot, a.quiet)


if __name__ == "__main__":
    sys.exit(main())
