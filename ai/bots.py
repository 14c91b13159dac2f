"""Bots behind one interface: random, greedy (one ply) and ISMCTS.

Fair by construction: a bot is handed `arch.player_view(state, seat)` and nothing else.
It rebuilds full states ("worlds") from that view with `arch.WorldSampler`, so whatever the
seat cannot see (opponents' hands, every deck order, the generator) is re-dealt at random
from the unseen cards before the bot looks at it. Two states that differ only in hidden
information give the same view, hence the same decision for the same seed.

ISMCTS is single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2)): every iteration samples a
world consistent with the view (determinization), then descends one shared tree whose edges
are (deciding seat, action). Other seats' decisions (their turns, a Laboratory play, a
Guesthouse escape, a protection choice) are made in the same tree by the seat concerned,
each maximizing its own reward. Chance (draws, mulligan shuffles) lives in the sampled
world. Because different worlds offer different options (another seat's hand differs from
world to world), each edge counts how often it was *available*, and UCB uses that count
instead of the parent's visit count (ISMCTS "subset-armed bandit" selection).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import engine.architectura as arch
from engine.architectura import Action, Catalog, Game
from engine.errors import SetupError

MAX_ITERATIONS = 20_000
MAX_TIME_MS = 10_000
# An iteration budget also stops at this wall time (far below gunicorn's 30 s worker timeout);
# such a result is marked `truncated` (and the service does not cache it).
SAFETY_MS = 20_000


@dataclass(frozen=True)
class Budget:
    """How long ISMCTS thinks: a number of iterations, a time, or both (whichever ends
    first). An iteration budget is deterministic; a time budget is not (the number of
    iterations done in the time depends on the machine and its load)."""

    iterations: int | None = None
    time_ms: int | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.time_ms is None:
            raise SetupError("invalid_budget", "a budget needs iterations or time_ms", None)
        for name, value, hi in (
            ("iterations", self.iterations, MAX_ITERATIONS),
            ("time_ms", self.time_ms, MAX_TIME_MS),
        ):
            if value is None:
                continue
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= hi:
                raise SetupError(
                    "invalid_budget",
                    f"{name} must be an integer from 1 to {hi}",
                    None,
                    f"/budget/{name}",
                )

    def to_json(self) -> dict[str, int]:
        out: dict[str, int] = {}
        if self.iterations is not None:
            out["iterations"] = self.iterations
        if self.time_ms is not None:
            out["time_ms"] = self.time_ms
        return out


# Named difficulty levels (docs/bots.md explains how they were chosen and measured).
LEVELS: dict[str, Budget] = {
    "easy": Budget(iterations=30),
    "medium": Budget(iterations=300),
    "hard": Budget(iterations=2000),
    "expert": Budget(time_ms=1000),
}


@dataclass
class OptionStat:
    action: Action
    visits: int
    value: float | None


@dataclass
class SearchResult:
    """What a bot chose, with the numbers behind the choice (per root option)."""

    action: Action
    iterations: int
    time_ms: float
    options: list[OptionStat] = field(default_factory=list)
    truncated: bool = False  # an iteration budget cut short by SAFETY_MS


class Bot(Protocol):
    name: str

    def choose(
        self, view: dict[str, Any], seed: int, catalog: Catalog | None = None
    ) -> SearchResult: ...


def _root(view: dict[str, Any], catalog: Catalog | None) -> tuple[arch.WorldSampler, list[Action]]:
    """The sampler for this view and the viewer's options (the same in every world: they
    depend only on the viewer's hand and the public city)."""
    sampler = arch.WorldSampler(view, catalog)
    base = sampler.base
    seat = view["view_of"]
    arch.require_decider(base, seat)
    opts = arch.legal_actions(base)
    return sampler, list(opts)


class RandomBot:
    """Uniformly random among the legal options."""

    name = "random"

    def choose(
        self, view: dict[str, Any], seed: int, catalog: Catalog | None = None
    ) -> SearchResult:
        t0 = time.perf_counter()
        _, opts = _root(view, catalog)
        a = opts[random.Random(seed).randrange(len(opts))]
        stats = [OptionStat(o, 1 if o == a else 0, None) for o in opts]
        return SearchResult(a, 0, (time.perf_counter() - t0) * 1000, stats)


def margin(g: Game, seat: int) -> int:
    """Own total score minus the best opponent's total (A-8.1, on the city as it is now)."""
    totals: list[int] = [s["total"] for s in arch.final_scores(g)["seats"]]
    own = totals[seat]
    return own - max(t for j, t in enumerate(totals) if j != seat)


class GreedyBot:
    """One ply: the option with the best immediate score difference (own total minus the
    best opponent's total) on the position it leads to; ties broken at random.

    Fairness: the option is applied to one world sampled from the view (seeded). What the
    score difference reads is public (the city, cards outside it); the hidden cards only
    decide draws, which never change the score."""

    name = "greedy"

    def choose(
        self, view: dict[str, Any], seed: int, catalog: Catalog | None = None
    ) -> SearchResult:
        t0 = time.perf_counter()
        sampler, opts = _root(view, catalog)
        rnd = random.Random(seed)
        world = sampler.sample(rnd)
        seat: int = view["view_of"]
        values: list[int] = []
        for a in opts:
            g = world.copy()
            arch.apply_action(g, a)
            values.append(margin(g, seat))
        best = max(values)
        ties = [a for a, v in zip(opts, values, strict=True) if v == best]
        choice = ties[rnd.randrange(len(ties))]
        stats = [OptionStat(a, 1, float(v)) for a, v in zip(opts, values, strict=True)]
        return SearchResult(choice, len(opts), (time.perf_counter() - t0) * 1000, stats)


class Node:
    """A tree node: reached by `mover` choosing an action; `w` sums `mover`'s rewards."""

    __slots__ = ("avail", "children", "mover", "n", "w")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.n = 0
        self.w = 0.0
        self.avail = 1
        self.children: dict[tuple[int, Action], Node] = {}


def rollout_reward(g: Game, rnd: random.Random) -> list[float]:
    """Play the world out at random; the reward per seat is the win share (A-8.2), with a
    small bonus for the score margin so that, among lost or won lines, bigger margins rank
    higher (keeps the search informative when one outcome dominates)."""
    legal, step = arch.legal_actions, arch.apply_action
    randrange = rnd.randrange
    while not g.over:
        opts = legal(g)
        step(g, opts[randrange(len(opts))])
    fs = arch.final_scores(g)
    winners = fs["winners"]
    totals = [s["total"] for s in fs["seats"]]
    out = []
    for s in range(g.n):
        win = 1.0 / len(winners) if s in winners else 0.0
        best_other = max(t for j, t in enumerate(totals) if j != s)
        m = max(-20, min(20, totals[s] - best_other))
        out.append(0.9 * win + 0.1 * (m + 20) / 40)
    return out


class IsmctsBot:
    """Single-observer ISMCTS with availability counts; random rollouts to the end."""

    name = "ismcts"

    def __init__(self, budget: Budget, exploration: float = 0.7) -> None:
        self.budget = budget
        self.c = exploration
        self.last_root: Node | None = None  # the last search tree, for inspection

    def choose(
        self, view: dict[str, Any], seed: int, catalog: Catalog | None = None
    ) -> SearchResult:
        t0 = time.perf_counter()
        sampler, opts = _root(view, catalog)
        seat: int = view["view_of"]
        if len(opts) == 1:
            return SearchResult(opts[0], 0, (time.perf_counter() - t0) * 1000, [])
        rnd = random.Random(seed)
        root = Node(-1)
        limit = self.budget.iterations or MAX_ITERATIONS
        ms = self.budget.time_ms if self.budget.time_ms is not None else SAFETY_MS
        deadline = t0 + ms / 1000
        done = 0
        while done < limit:
            self._iterate(root, sampler.sample(rnd), rnd)
            done += 1
            if time.perf_counter() >= deadline:
                break
        self.last_root = root
        stats = []
        for a in opts:
            ch = root.children.get((seat, a))
            if ch is None:
                stats.append(OptionStat(a, 0, None))
            else:
                stats.append(OptionStat(a, ch.n, ch.w / ch.n if ch.n else None))
        # Robust child: most visits, then best mean value, then option order.
        best = max(
            range(len(stats)),
            key=lambda i: (stats[i].visits, stats[i].value or 0.0, -i),
        )
        truncated = self.budget.time_ms is None and done < limit
        return SearchResult(opts[best], done, (time.perf_counter() - t0) * 1000, stats, truncated)

    def _iterate(self, root: Node, g: Game, rnd: random.Random) -> None:
        legal, step, decider = arch.legal_actions, arch.apply_action, arch.current_player
        c = self.c
        log, sqrt = math.log, math.sqrt
        node = root
        path: list[Node] = []
        while not g.over:
            opts = legal(g)
            if len(opts) == 1:
                step(g, opts[0])
                continue
            mover = decider(g)
            assert mover is not None
            children = node.children
            untried: list[Action] = []
            present: list[Node] = []
            for a in opts:
                ch = children.get((mover, a))
                if ch is None:
                    untried.append(a)
                else:
                    ch.avail += 1
                    present.append(ch)
            if untried:
                a = untried[rnd.randrange(len(untried))]
                child = Node(mover)
                children[(mover, a)] = child
                step(g, a)
                path.append(child)
                break
            best_node = present[0]
            best_ucb = -math.inf
            best_a = opts[0]
            for a, ch in zip(opts, present, strict=True):
                ucb = ch.w / ch.n + c * sqrt(log(ch.avail) / ch.n)
                if ucb > best_ucb:
                    best_ucb, best_node, best_a = ucb, ch, a
            step(g, best_a)
            node = best_node
            path.append(node)
        reward = rollout_reward(g, rnd)
        for nd in path:
            nd.n += 1
            nd.w += reward[nd.mover]


BOT_NAMES = ("random", "greedy", "ismcts")


def make_bot(name: str, budget: Budget | None = None) -> Bot:
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    if name == "ismcts":
        return IsmctsBot(budget or LEVELS["medium"])
    raise SetupError("unknown_bot", f"unknown bot {name!r}; known: {list(BOT_NAMES)}", None, "/bot")


def parse_bot_spec(spec: str) -> tuple[str, Bot]:
    """Command-line bot names: `random`, `greedy`, a level (`easy`, `medium`, `hard`,
    `expert`), `ismcts:<n>it` (iterations) or `ismcts:<n>ms` (time per decision)."""
    if spec in LEVELS:
        return spec, IsmctsBot(LEVELS[spec])
    if spec in ("random", "greedy", "ismcts"):
        return spec, make_bot(spec)
    if spec.startswith("ismcts:"):
        arg = spec.split(":", 1)[1]
        if arg.endswith("ms") and arg[:-2].isdigit():
            return spec, IsmctsBot(Budget(time_ms=int(arg[:-2])))
        if arg.endswith("it") and arg[:-2].isdigit():
            return spec, IsmctsBot(Budget(iterations=int(arg[:-2])))
    raise ValueError(
        f"unknown bot {spec!r}: use random, greedy, {', '.join(LEVELS)}, ismcts:<n>it or ismcts:<n>ms"
    )
