"""Bots behind one interface: random, greedy (one ply) and ISMCTS.

Game-agnostic: a bot reaches the rules only through the engine registry (`engine.games`),
chosen by the view's `game` field, and the common interface every game offers.

Fair by construction: a bot is handed `player_view(state, seat)` and nothing else.
It rebuilds full states ("worlds") from that view with the game's `WorldSampler`, so whatever the
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
# MAST rollouts (`IsmctsBot(mast_eps=...)`): a random option with this probability, else the
# best mean of the search's MAST table. 1, the default, = uniformly random rollouts: 0.2 was
# measured at 59.75% against 5295b59 (600 games), just short of the bar set for a new default
# (docs/bots.md, "Tried: MAST rollouts").
MAST_EPS = 1.0
MAST_SPEC_EPS = 0.2  # the measured setting: `ismcts:...:mast` and rollout_reward's default
# A greedy prior at the root (`IsmctsBot(prior_widening=C)`): the root's options are ranked by
# the greedy bot's one-ply margin, expanded best first, and only the best
# max(2, ceil(C * sqrt(iterations done + 1))) of them are searched (progressive widening).
# 0: no prior (every option, expanded in random order). None, the default: the game's own
# measured setting (`GameInfo.bot_prior`: its constant, for iteration budgets up to its
# largest; none for a time budget; docs/bots.md, "Tried: a greedy prior at the root").
PRIOR_WIDENING: float | None = None


# Greedy rollouts (`IsmctsBot(greedy_eps=...)`): off (1) by default; docs/bots.md, "Tried:
# greedy rollouts". Without `greedy_steps`, every choice of a rollout (up to this many).
GREEDY_EPS = 1.0
MAX_ROLLOUT_CHOICES = 1 << 30


@dataclass(frozen=True)
class GreedyRollout:
    """Epsilon-greedy rollouts on the greedy bot's one-ply margin (`rollout_reward`): a random
    option with probability `eps`, else the best margin for the seat deciding, among all
    options or `sample` of them drawn at random; for the first `steps` choices of a rollout
    (None: all of them), random ones after."""

    eps: float
    steps: int | None = None
    sample: int | None = None


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


# Named difficulty levels: iteration budgets (deterministic), four times apart, so that each
# level measurably beats the one below it in both games (the rating ladder, `python -m
# ai.ratings`; docs/bots.md, "Rating ladder", has the ratings and the time per decision).
LEVELS: dict[str, Budget] = {
    "easy": Budget(iterations=10),
    "medium": Budget(iterations=40),
    "hard": Budget(iterations=160),
    "expert": Budget(iterations=640),
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
        t0 = time.perf_counter()
        eng = engine_for_state(view)
        sampler = eng.WorldSampler(view, catalog)
        seat = view["view_of"]
        eng.require_decider(sampler.base, seat)
        # the viewer's options: the same in every world (they depend only on what it sees)
        opts = list(eng.legal_actions(sampler.base))
        return self.pick(Start(eng, sampler, opts, seat, t0), seed, deadline)

    def pick(self, start: Start, seed: int, deadline: float | None) -> SearchResult:
        raise NotImplementedError


class RandomBot(Bot):
    """Uniformly random among the legal options."""

    name = "random"

    def pick(self, start: Start, seed: int, deadline: float | None) -> SearchResult:
        opts = start.opts
        a = opts[random.Random(seed).randrange(len(opts))]
        stats = [OptionStat(o, 1 if o == a else 0, None) for o in opts]
        return SearchResult(a, 0, start.ms(), stats)


def margin(eng: GameModule, g: Game, seat: int) -> int:
    """Own total score minus the best opponent's total, scoring the position as it stands
    (Architectura: the city, A-8.1; Fora de Prumo: every whole work, F-8)."""
    totals: list[int] = [s["total"] for s in eng.final_scores(g)["seats"]]
    own = totals[seat]
    return own - max(t for j, t in enumerate(totals) if j != seat)


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


class GreedyBot(Bot):
    """One ply: the option with the best immediate score difference (own total minus the
    best opponent's total) on the position it leads to; ties broken at random.

    Fairness: the option is applied to one world sampled from the view (seeded). What the
    score difference reads is public (the city, cards outside it); the hidden cards only
    decide draws, which never change the score."""

    name = "greedy"

    def pick(self, start: Start, seed: int, deadline: float | None) -> SearchResult:
        # one step per option: bounded by the option count, so the deadline is not checked
        eng, opts, seat = start.eng, start.opts, start.seat
        rnd = random.Random(seed)
        values = option_margins(eng, start.sampler.sample(rnd), opts, seat)
        best = max(values)
        ties = [a for a, v in zip(opts, values, strict=True) if v == best]
        choice = ties[rnd.randrange(len(ties))]
        stats = [OptionStat(a, 1, float(v)) for a, v in zip(opts, values, strict=True)]
        return SearchResult(choice, len(opts), start.ms(), stats)


def greedy_ranking(
    eng: GameModule, world: Game, opts: list[Action], seat: int, rnd: random.Random
) -> list[Action]:
    """The options best first by the greedy bot's one-ply margin on `world` (public: see
    GreedyBot), ties in a seeded random order."""
    shuffled = list(opts)
    rnd.shuffle(shuffled)
    values = dict(zip(shuffled, option_margins(eng, world, shuffled, seat), strict=True))
    return sorted(shuffled, key=lambda a: -values[a])


class Node:
    """A tree node: reached by `mover` choosing an action; `w` sums `mover`'s rewards."""

    __slots__ = ("avail", "children", "mover", "n", "w")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.n = 0
        self.w = 0.0
        self.avail = 1
        self.children: dict[tuple[int, Action], Node] = {}


def _best_mean(opts: list[Action], table: dict[Action, list[float]]) -> Action:
    """The option with the best mean reward in a seat's MAST table (the first on a tie; an
    action not in the table counts 0.5)."""
    best_v, best = -1.0, opts[0]
    get = table.get
    for o in opts:
        st = get(o)
        v = st[0] if st is not None else 0.5
        if v > best_v:
            best_v, best = v, o
    return best


def _best_margin(
    eng: GameModule,
    g: Game,
    opts: list[Action],
    rnd: random.Random,
    sample: int | None,
    deadline: float,
) -> Action | None:
    """A greedy rollout step's option (`rollout_reward`'s `greedy`): one with the best one-ply
    margin for the seat deciding, among `sample` options drawn at random when there are
    more, ties at random; None when the `deadline` passed during the evaluation."""
    mover = eng.current_player(g)
    assert mover is not None
    cands = opts if sample is None or len(opts) <= sample else rnd.sample(opts, sample)
    values = option_margins(eng, g, cands, mover, deadline)
    if len(values) < len(cands):
        return None
    best = max(values)
    ties = [a for a, v in zip(cands, values, strict=True) if v == best]
    return ties[0] if len(ties) == 1 else ties[rnd.randrange(len(ties))]


def rollout_reward(
    eng: GameModule,
    g: Game,
    rnd: random.Random,
    deadline: float = math.inf,
    depth: int | None = None,
    scale: float = 12.0,
    mast: list[dict[Action, list[float]]] | None = None,
    mast_eps: float = MAST_SPEC_EPS,
    played: list[tuple[int, Action]] | None = None,
    margin_weight: float = 0.1,
    greedy: GreedyRollout | None = None,
) -> list[float] | None:
    """Play the world out; the reward per seat is the win share (A-8.2), with a small bonus
    for the score margin so that, among lost or won lines, bigger margins rank higher (keeps
    the search informative when one outcome dominates): `(1 - margin_weight) * win share +
    margin_weight * margin term`; with `margin_weight` 0 the reward is the win share alone (a
    review's win chances, ai/review.py). None when the `deadline` (a perf_counter instant)
    passes before the game ends.

    Without `mast` every step is uniformly random. With `mast` (the search's mean reward per
    seat and action: MAST, Finnsson & Bjornsson 2008; Powley, Whitehouse & Cowling 2014)
    a step with a choice takes, with probability 1 - `mast_eps`, the option with the best
    mean for the seat deciding (an action not in the table counts 0.5), else a random one;
    the (seat, action) pairs taken are appended to `played` for the caller's update.

    With `greedy` (not with `mast`) a step with a choice, among the first `greedy.steps`
    such steps, takes with probability 1 - `greedy.eps` an option with the best one-ply
    margin for the seat deciding (`option_margins`, the greedy bot's evaluation; on
    `greedy.sample` options drawn at random when there are more; ties at random), else a
    random one; later steps are random (tried, not the default: docs/bots.md, "Tried:
    greedy rollouts").

    With a `depth` the playout stops after that many steps, and a game not over by then
    rewards each seat `0.5 + 0.5 * tanh(margin / scale)` (its score margin as the position
    stands; tried, not the default: docs/bots.md, "Tried")."""
    legal, step, decider = eng.legal_actions, eng.apply_action, eng.current_player
    randrange, rand = rnd.randrange, rnd.random
    clock = time.perf_counter
    steps = 0
    greedy_left = 0  # the choices still to be made epsilon-greedily
    if greedy is not None:
        greedy_left = greedy.steps if greedy.steps is not None else MAX_ROLLOUT_CHOICES
    while not g.over:
        if depth is not None and steps >= depth:
            totals = [s["total"] for s in eng.final_scores(g)["seats"]]
            return [
                0.5 + 0.5 * math.tanh((t - max(totals[:s] + totals[s + 1 :])) / scale)
                for s, t in enumerate(totals)
            ]
        opts = legal(g)
        evaluated = False  # the greedy evaluation ran: it may have taken the deadline's time
        if greedy_left > 0 and len(opts) > 1:
            assert greedy is not None
            greedy_left -= 1
            if rand() < greedy.eps:
                a = opts[randrange(len(opts))]
            else:
                best = _best_margin(eng, g, opts, rnd, greedy.sample, deadline)
                if best is None:
                    return None
                a, evaluated = best, True
        elif mast is None:  # a forced step draws too: the random stream is the one it always was
            a = opts[randrange(len(opts))]
        elif len(opts) == 1:
            a = opts[0]
        else:
            mover = decider(g)
            assert played is not None and mover is not None
            a = opts[randrange(len(opts))] if rand() < mast_eps else _best_mean(opts, mast[mover])
            played.append((mover, a))
        step(g, a)
        steps += 1
        if (evaluated or steps % DEADLINE_CHECK_STEPS == 0) and clock() >= deadline:
            return None
    fs = eng.final_scores(g)
    winners = fs["winners"]
    totals = [s["total"] for s in fs["seats"]]
    out = []
    for s in range(g.n):
        win = 1.0 / len(winners) if s in winners else 0.0
        best_other = max(t for j, t in enumerate(totals) if j != s)
        m = max(-20, min(20, totals[s] - best_other))
        out.append((1 - margin_weight) * win + margin_weight * (m + 20) / 40)
    return out


class IsmctsBot(Bot):
    """Single-observer ISMCTS with availability counts; rollouts to the end of the game.

    Rollouts are uniformly random when `mast_eps` and `greedy_eps` are 1 (the default); with
    `mast_eps` below 1 they are epsilon-greedy on the search's MAST table (`rollout_reward`),
    which is built and dropped within one search; with `greedy_eps` below 1, epsilon-greedy on
    the greedy bot's one-ply margin (for the first `greedy_steps` choices of a rollout, on at
    most `greedy_sample` options a step).

    The search ends at whichever comes first: the iteration budget, the time budget, or the
    caller's deadline (SAFETY_MS by default). The clock is read inside each iteration too
    (every DEADLINE_CHECK_STEPS engine steps), so one long iteration cannot overrun it. An
    iteration cut short there is discarded: nothing of it stays in the tree (its expanded
    node is removed, its availability counts are taken back) and `iterations` counts only
    completed ones."""

    name = "ismcts"

    def __init__(
        self,
        budget: Budget,
        exploration: float = 0.7,
        rollout_depth: int | None = None,
        margin_scale: float = 12.0,
        mast_eps: float = MAST_EPS,
        margin_weight: float = 0.1,
        prior_widening: float | None = PRIOR_WIDENING,
        greedy_eps: float = GREEDY_EPS,
        greedy_steps: int | None = None,
        greedy_sample: int | None = None,
    ) -> None:
        self.budget = budget
        # greedy rollouts (rollout_reward's `greedy`): 1 = off; not together with MAST
        self.greedy: GreedyRollout | None = None
        if greedy_eps < 1:
            if mast_eps < 1:
                raise ValueError("greedy rollouts and MAST rollouts exclude each other")
            self.greedy = GreedyRollout(greedy_eps, greedy_steps, greedy_sample)
        self.prior_widening = prior_widening  # 0: no greedy prior; None: the game's
        self.margin_weight = margin_weight  # rollout_reward's: 0 = rewards are win shares
        self.c = exploration
        self.rollout_depth = rollout_depth
        self.margin_scale = margin_scale
        self.mast_eps = mast_eps  # 1: uniformly random rollouts (no MAST table)
        self.last_root: Node | None = None  # the last search tree, for inspection
        self.last_mast: list[dict[Action, list[float]]] | None = None  # its MAST table

    def pick(self, start: Start, seed: int, deadline: float | None) -> SearchResult:
        t0 = start.t0
        hard_end = deadline if deadline is not None else t0 + SAFETY_MS / 1000
        eng, sampler, opts, seat = start.eng, start.sampler, start.opts, start.seat
        if len(opts) == 1:
            return SearchResult(opts[0], 0, start.ms(), [])
        rnd = random.Random(seed)
        root = Node(-1)
        # a time-only budget also stops at MAX_ITERATIONS; one longer than a synchronous call
        # may have (a job's) at JOB_MAX_ITERATIONS, so that its time is what bounds it
        long = (self.budget.time_ms or 0) > MAX_TIME_MS
        limit = self.budget.iterations or (JOB_MAX_ITERATIONS if long else MAX_ITERATIONS)
        own_end = t0 + self.budget.time_ms / 1000 if self.budget.time_ms is not None else math.inf
        end = min(own_end, hard_end)
        done = reported = 0
        progress = PROGRESS.get()
        # MAST statistics live for one search only (the bot keeps nothing between calls)
        mast: list[dict[Action, list[float]]] | None = None
        if self.mast_eps < 1:
            mast = [{} for _ in range(sampler.base.n)]
        ranked = None
        widening = self.prior_widening
        if widening is None:
            widening, most = eng.INFO.bot_prior
            iterations = self.budget.iterations
            if iterations is None or iterations > most:  # a time budget: iterations unknown
                widening = 0.0
        if widening > 0:
            ranked = greedy_ranking(eng, sampler.sample(rnd), opts, seat, rnd)
        while done < limit and time.perf_counter() < end:
            widened = None
            if ranked is not None:
                k = math.ceil(widening * math.sqrt(done + 1))
                widened = ranked[: max(2, k)]
            if self._iterate(eng, root, sampler.sample(rnd), rnd, end, mast, widened):
                done += 1
                if progress is not None and done % PROGRESS_EVERY == 0:
                    progress(done - reported)
                    reported = done
        if progress is not None and done > reported:
            progress(done - reported)
        self.last_root, self.last_mast = root, mast
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
        # stopped by the deadline before the budget's own end (iterations or time)
        truncated = done < limit and hard_end < own_end and time.perf_counter() >= hard_end
        return SearchResult(opts[best], done, start.ms(), stats, truncated)

    def _iterate(
        self,
        eng: GameModule,
        root: Node,
        g: Game,
        rnd: random.Random,
        end: float = math.inf,
        mast: list[dict[Action, list[float]]] | None = None,
        widened: list[Action] | None = None,
    ) -> bool:
        """One iteration; False (and the tree as it was) when `end` passes before it is done.
        `widened`: the root's options to search, best first (the greedy prior), else all of
        them in random order."""
        played: list[tuple[int, Action]] = []
        legal, step, decider = eng.legal_actions, eng.apply_action, eng.current_player
        c = self.c
        log, sqrt = math.log, math.sqrt
        clock = time.perf_counter
        node = root
        path: list[Node] = []
        bumped: list[list[Node]] = []  # availability counts raised, to take back on a cut
        expanded: tuple[dict[tuple[int, Action], Node], tuple[int, Action]] | None = None
        steps = 0
        while not g.over:
            steps += 1
            if steps % DEADLINE_CHECK_STEPS == 0 and clock() >= end:
                _undo(bumped, None)
                return False
            opts = legal(g) if widened is None or node is not root else widened
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
            bumped.append(present)
            if untried:
                ordered = widened is not None and node is root
                a = untried[0] if ordered else untried[rnd.randrange(len(untried))]
                child = Node(mover)
                children[(mover, a)] = child
                expanded = (children, (mover, a))
                step(g, a)
                path.append(child)
                if mast is not None:
                    played.append((mover, a))
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
            if mast is not None:
                played.append((mover, best_a))
        depth, scale, eps = self.rollout_depth, self.margin_scale, self.mast_eps
        reward = rollout_reward(
            eng, g, rnd, end, depth, scale, mast, eps, played, self.margin_weight, self.greedy
        )
        if reward is None:
            _undo(bumped, expanded)
            return False
        _backup(path, reward, mast, played)
        return True


def _backup(
    path: list[Node],
    reward: list[float],
    mast: list[dict[Action, list[float]]] | None,
    played: list[tuple[int, Action]],
) -> None:
    """An iteration's rewards into the tree's nodes on its path, and into the MAST table."""
    for nd in path:
        nd.n += 1
        nd.w += reward[nd.mover]
    if mast is not None:
        for seat, a in set(played):
            st = mast[seat].get(a)
            if st is None:
                mast[seat][a] = [reward[seat], 1.0]
            else:  # running mean, count
                st[1] += 1.0
                st[0] += (reward[seat] - st[0]) / st[1]


def _undo(
    bumped: list[list[Node]],
    expanded: tuple[dict[tuple[int, Action], Node], tuple[int, Action]] | None,
) -> None:
    """Take a cut-short iteration out of the tree (see IsmctsBot)."""
    for present in bumped:
        for ch in present:
            ch.avail -= 1
    if expanded is not None:
        children, key = expanded
        del children[key]


BOT_NAMES = ("random", "greedy", "ismcts")


def make_bot(name: str, budget: Budget | None = None) -> Bot:
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    if name == "ismcts":
        return IsmctsBot(budget or LEVELS["medium"])
    raise SetupError(
        "unknown_bot",
        msg("unknown bot {name}; known: {known}", name=repr(name), known=list(BOT_NAMES)),
        None,
        "/bot",
    )


def parse_bot_spec(spec: str) -> tuple[str, Bot]:
    """Command-line bot names: `random`, `greedy`, a level (`easy`, `medium`, `hard`,
    `expert`), `ismcts:<n>it` (iterations) or `ismcts:<n>ms` (time per decision); either
    ISMCTS spec may end in `:mast` for MAST rollouts (`mast_eps=0.2`, docs/bots.md)."""
    if spec in LEVELS:
        return spec, IsmctsBot(LEVELS[spec])
    if spec in ("random", "greedy", "ismcts"):
        return spec, make_bot(spec)
    if spec.startswith("ismcts:"):
        arg = spec.split(":", 1)[1]
        eps = MAST_EPS
        if arg.endswith(":mast"):
            arg, eps = arg[: -len(":mast")], MAST_SPEC_EPS
        if arg.endswith("ms") and arg[:-2].isdigit():
            return spec, IsmctsBot(Budget(time_ms=int(arg[:-2])), mast_eps=eps)
        if arg.endswith("it") and arg[:-2].isdigit():
            return spec, IsmctsBot(Budget(iterations=int(arg[:-2])), mast_eps=eps)
    raise ValueError(
        f"unknown bot {spec!r}: use random, greedy, {', '.join(LEVELS)}, ismcts:<n>it or"
        " ismcts:<n>ms (optionally followed by :mast)"
    )
