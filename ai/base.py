"""What every bot shares: the budget, the limits, the result, the start of a choice, the `Bot`
interface, and the one-ply score margin that the greedy bot and the search's greedy prior read.

The bots themselves are in `ai.bots` (random, greedy, the levels, `make_bot`) and `ai.mcts`
(ISMCTS); `ai.bots` re-exports everything here, so `from ai.bots import Budget` keeps working.

Game-agnostic: a bot reaches the rules only through the engine registry (`engine.games`),
chosen by the view's `game` field, and the common interface every game offers.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from engine.errors import SetupError
from engine.games import GameModule, engine_for_state
from engine.messages import msg

# A game's in-memory state, action and catalog: opaque here (each game defines its own).
Game = Any
Action = Any
Catalog = Any

MAX_ITERATIONS = 20_000
MAX_TIME_MS = 10_000
# A search run as a background job (ai/jobs.py, POST /v1/suggest answered 202) may be larger:
# Budget accepts up to these; the synchronous HTTP path keeps MAX_ITERATIONS / MAX_TIME_MS.
JOB_MAX_ITERATIONS = 1_000_000
JOB_MAX_TIME_MS = 600_000
# Progress of the ISMCTS searches run in this context (a background job sets it): called with
# the iterations completed since the previous call, every PROGRESS_EVERY iterations and once
# when the search ends. None (the default) costs one check per PROGRESS_EVERY iterations.
PROGRESS: ContextVar[Callable[[int], None] | None] = ContextVar("ismcts_progress", default=None)
PROGRESS_EVERY = 64
# Every search also stops at a wall-clock deadline: SAFETY_MS after it starts unless the caller
# passes an earlier one (the service passes the request's overall deadline, SUGGEST_MAX_MS).
# A result stopped there before its own budget ran out is marked `truncated` (not cached).
SAFETY_MS = 20_000
# The deadline is checked inside the tree descent and the rollouts every this many engine
# steps (a step costs ~20 us with the reference catalog; a clock read ~0.1 us), so a custom
# catalog with very long games cannot hold a search past its deadline for more than a few ms.
DEADLINE_CHECK_STEPS = 8


@dataclass(frozen=True)
class Budget:
    """How long ISMCTS thinks: a number of iterations, a time, or both (whichever ends
    first). An iteration budget is deterministic; a time budget is not (the number of
    iterations done in the time depends on the machine and its load)."""

    iterations: int | None = None
    time_ms: int | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.time_ms is None:
            raise SetupError("invalid_budget", msg("a budget needs iterations or time_ms"), None)
        for name, value, hi in (
            ("iterations", self.iterations, JOB_MAX_ITERATIONS),
            ("time_ms", self.time_ms, JOB_MAX_TIME_MS),
        ):
            if value is None:
                continue
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= hi:
                raise SetupError(
                    "invalid_budget",
                    msg("{name} must be an integer from 1 to {most}", name=name, most=hi),
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
    truncated: bool = False  # stopped by the wall-clock deadline before the budget ran out


@dataclass(frozen=True)
class Start:
    """What every bot starts from: the view's engine, its world sampler, the viewer's options
    and seat, and the `time.perf_counter()` instant the choice began."""

    eng: GameModule
    sampler: Any
    opts: list[Action]
    seat: int
    t0: float

    def ms(self) -> float:
        """The time spent since the choice began, in milliseconds."""
        return (time.perf_counter() - self.t0) * 1000


def start_of(view: dict[str, Any], catalog: Catalog | None = None) -> Start:
    """A view read once for the searches from it (a review searches one view twice)."""
    t0 = time.perf_counter()
    eng = engine_for_state(view)
    sampler = eng.WorldSampler(view, catalog)
    seat = view["view_of"]
    eng.require_decider(sampler.base, seat)
    # the viewer's options: the same in every world (they depend only on what it sees)
    opts = list(eng.legal_actions(sampler.base))
    return Start(eng, sampler, opts, seat, t0)


class Bot:
    """A bot: `choose` reads the view (its game engine, a world sampler for it, the viewer's
    options), then `pick` decides from there."""

    name: str

    def choose(
        self,
        view: dict[str, Any],
        seed: int,
        catalog: Catalog | None = None,
        deadline: float | None = None,
    ) -> SearchResult:
        """`deadline`: a `time.perf_counter()` instant the search must not outlast."""
        return self.pick(start_of(view, catalog), seed, deadline)

    def pick(self, start: Start, seed: int, deadline: float | None) -> SearchResult:
        raise NotImplementedError


def margin(eng: GameModule, g: Game, seat: int) -> int:
    """Own total score minus the best opponent's total, scoring the position as it stands
    (Architectura: the city, A-8.1; Fora de Prumo: every whole work, F-8)."""
    return lead([s["total"] for s in eng.tally(g)["seats"]], seat)


def lead(totals: list[int], seat: int) -> int:
    """`seat`'s total minus the best other seat's."""
    return totals[seat] - max(t for j, t in enumerate(totals) if j != seat)


def option_margins(
    eng: GameModule, world: Game, opts: list[Action], seat: int, deadline: float = math.inf
) -> list[int]:
    """Each option's `margin` for `seat` once it is applied to a copy of `world` (one ply).
    With a `deadline` (a perf_counter instant) the clock is read before every
    DEADLINE_CHECK_STEPS options, and once it has passed the list stops short (fewer values
    than options: the caller's search is cut)."""
    values: list[int] = []
    timed = deadline < math.inf
    for i, a in enumerate(opts):
        if timed and i % DEADLINE_CHECK_STEPS == 0 and time.perf_counter() >= deadline:
            break
        g = world.copy()
        eng.apply_action(g, a)
        values.append(margin(eng, g, seat))
    return values
