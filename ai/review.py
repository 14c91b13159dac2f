"""Game review: what each decision of a game cost its seat (POST /v1/review, docs/review.md).

Game-agnostic: a game is reached only through `engine.games` and its common interface.

A review walks a game (a start and its decisions) and makes one *task* per reviewed decision:
the deciding seat's view of the position (`game_view`, exactly what /v1/suggest searches
from), the decision played, and a seed. A task holds nothing the seat could not see, so it is
fair by construction and independent of every other task: the tasks of a game can run in any
order, on any worker (ai/jobs.py), and give the same answers.

Each task is one ISMCTS search (ai/mcts.py) from the view, with rewards that are win shares
alone (`RandomRollout(margin_weight=0)`), so an option's mean reward is its estimated win
chance. By default the leaves are judged by the game's learned model instead (ai/model.py,
each seat's win share; `win_evaluator`, WIN_EVALUATOR), random playouts for a game without
one: measured to tell strong from random play better at the review's default level
(docs/review.md, "The evaluation"). The answer names the evaluation (`evaluation`). Per root option the estimate is shrunk toward the position's value by a
few pseudo-visits (`Judgement.prior_visits`), so that an option tried once and lost is not
called a blunder on one playout's 0; the model's smooth value of an option is worth more
than a playout's, so its shrink is smaller (EVALUATORS). From it:

- `win_before`: the position's value to the seat, the search's root estimate (the mean reward
  of all its iterations);
- `win_after`: the played decision's value; `win_best`: the value of the best decision found
  (the root option with the most visits, as a bot would play it);
- `loss = max(0, win_best - win_after - NOISE_Z * (se_best + se_after))`, in percentage
  points, where `se` bounds an estimate's standard error (`sqrt(p(1-p)/(visits + prior))`):
  what a few playouts cannot tell apart is not called a loss (NOISE_Z = 0.5 was measured to
  separate strong from random play best, docs/review.md; the model's values are smooth win
  shares, which that bound would flatten: its z is 0, EVALUATORS); `accuracy`: lichess's per-move
  formula `103.1668 * exp(-0.04354 * loss) - 3.1669` clamped to 0..100 (lichess takes the
  drop from its engine's evaluation before the move, which is its best move's; ours is the
  best decision found);
- a verdict by the loss: `best` (the decision found best, or one valued as high), `good`
  (< 10 points), `inaccuracy` (< 20), `mistake` (< 30), `blunder` (>= 30). Lichess's
  thresholds on win% are 5/10/15; ours are twice as wide because a few hundred determinized
  playouts estimate a win chance to a few points only.

When winning is out of reach (the win search's `win_before` below HOPELESS, 5 %), every
option's win chance reads about 0 and every decision would be `best`: a seat far behind could
play at random and be rated 100 % accurate. Such a decision is judged instead by what the seat
can still change, the score margin it keeps (own total minus the best other seat's): a second
search of the same budget and seed whose rewards are the margin each seat gains from where the
search began (`MarginRollout`, each playout's gain clamped to +-MARGIN_CLAMP = 20 points and
mapped to 0..1). `loss`, `best`, `accuracy` and the verdict then come from it, on the same
0..100 scale, where 100 points are 40 points of score: a loss of 10 is 4 points of final
margin thrown away. The row says `judged_by: "margin"` (else `"win"`) and gives `margin`:
the margin now and the expected final margins (before, after the decision played, after the
best found), in points of score. The margin as it stands is public (what the greedy bot
reads, ai/base.py `margin`), so the second search is as fair as the first. The second search
runs only for such positions: the win search's root value decides, so a review pays for it
only where it is needed (docs/review.md has the cost).

Per seat: the counts of each verdict and an accuracy, the mean of the arithmetic and the
harmonic mean of its decisions' accuracies (each at least 1 in the harmonic mean): like
lichess's game accuracy (which averages a volatility-weighted and a harmonic mean) one
blunder pulls it down more than an average would; unlike lichess, no volatility weights.

Decisions with one option are skipped (not reviewed, not counted). Every search's seed comes
from the request (its seed and budget, `review_seed`) and the view searched (`task_seed`),
so an iteration budget gives the same review every time, and the same view the same row.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ai.base import MAX_ITERATIONS, MAX_TIME_MS, Start, margin, start_of
from ai.bots import LEVELS, Budget, IsmctsBot, SearchResult
from ai.evaluators import MARGIN_CLAMP, Evaluator, MarginRollout, RandomRollout
from ai.model import ModelEvaluator, evaluation_version, model_for
from engine.canonical import digest
from engine.errors import IllegalDecision
from engine.games import GameModule, engine_for_state
from engine.messages import msg

VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")
# loss thresholds, in percentage points of win chance (module doc)
INACCURACY, MISTAKE, BLUNDER = 10.0, 20.0, 30.0
# a loss counts beyond NOISE_Z standard errors of the two values compared (module doc)
NOISE_Z = 0.5
SEED_BITS = 63
# Below this win chance (the win search's root value) a seat's decisions can hardly change
# whether it wins, and every option reads ~0: such a decision is judged by a second search
# whose rewards are the score margin the seat gains from here (module doc, docs/review.md).
HOPELESS = 0.05
# A review asked without a level or budget searches at the deepest of these levels whose
# searches in all fit the synchronous limit (the cheapest when none does): deeper reviews
# tell good play from bad better (docs/review.md, "The default level").
DEFAULT_LEVELS = ("medium", "hard", "expert")


@dataclass(frozen=True)
class Judgement:
    """How a search's option values become a loss: each option's mean is shrunk toward the
    position's value by `prior_visits` pseudo-visits, and a loss counts beyond `noise_z`
    standard errors of the two values compared (module doc)."""

    noise_z: float
    prior_visits: float


# Playouts score 0 or 1: an option seen lose once is shrunk by 2 pseudo-visits and its loss
# discounted by half its noise bound (NOISE_Z).
PLAYOUTS = Judgement(NOISE_Z, 2.0)
# The win-chance search's evaluations (`win_evaluator`) and their judgements. The model's
# values are smooth win shares: the playouts' noise bound would hide every difference (z 0),
# and 2 pseudo-visits took two thirds of the loss of an option the search visited once, as a
# random seat's options mostly are at the review's default 40 iterations (0.25: measured,
# docs/review.md, "The evaluation").
EVALUATORS: dict[str, Judgement] = {"rollout": PLAYOUTS, "model": Judgement(0.0, 0.25)}
WIN_EVALUATOR = "model"
# The margin search's judgement: its playouts' (without the noise discount it judged the two
# seats by two different standards: docs/review.md, "Tried, not kept").
MARGIN = PLAYOUTS


def move_accuracy(loss: float) -> float:
    """Lichess's accuracy of one move from its win-chance drop in points, clamped 0..100."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))


def game_accuracy(accuracies: Sequence[float]) -> float | None:
    """A seat's accuracy over its reviewed decisions (module doc); None without any."""
    if not accuracies:
        return None
    mean = sum(accuracies) / len(accuracies)
    harmonic = len(accuracies) / sum(1 / max(1.0, a) for a in accuracies)
    return (mean + harmonic) / 2


def verdict(loss: float, best: bool) -> str:
    if best:
        return "best"
    if loss < INACCURACY:
        return "good"
    if loss < MISTAKE:
        return "inaccuracy"
    if loss < BLUNDER:
        return "mistake"
    return "blunder"


def review_seed(request_seed: int, settings: dict[str, Any]) -> int:
    """The seed a review's searches derive from: the request's seed and search settings."""
    text = f"{request_seed}:{digest(settings)}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> (64 - SEED_BITS)


def task_seed(base: int, view: dict[str, Any]) -> int:
    """The seed of the search of one decision: the review's and the deciding seat's view
    (canonical JSON), nothing else, so the same view is reviewed the same, whatever the
    cards the seat cannot see and whichever other decisions are reviewed."""
    h = hashlib.sha256(f"{base}:{digest(view)}".encode()).digest()
    return int.from_bytes(h[:8], "big") >> (64 - SEED_BITS)


@dataclass(frozen=True)
class Decision:
    """A decision of the game as the walk met it: who took it, how many options it had, and
    the task that reviews it (None: forced, or its seat is not reviewed)."""

    index: int
    seat: int | None
    options: int
    task: dict[str, Any] | None


# What one reviewed decision costs besides its search's iterations (its view, its worlds, the
# search's set-up): 1-iteration reviews of 2,000 decisions of a 4-seat, 500-card Fora de
# Prumo game took 18 s of CPU, synchronously (audit of 2026-11-29), where the limit is one
# suggestion's. So a decision counts at least this much against the synchronous limit.
TASK_ITERATIONS = 20
TASK_MS = 10


def counted(budget: Budget) -> Budget:
    """A reviewed decision's budget as the synchronous limit counts it (TASK_ITERATIONS,
    TASK_MS at least)."""
    return Budget(
        iterations=max(budget.iterations, TASK_ITERATIONS) if budget.iterations else None,
        time_ms=max(budget.time_ms, TASK_MS) if budget.time_ms else None,
    )


def synchronous(budget: Budget, tasks: int) -> bool:
    """Whether a review of `tasks` decisions at `budget` each stays within the synchronous
    limit of one suggestion: the whole review's searches, not one of them, each decision
    counted at least TASK_ITERATIONS or TASK_MS (`counted`)."""
    each = counted(budget)
    return (each.iterations or 0) * tasks <= MAX_ITERATIONS and (
        each.time_ms or 0
    ) * tasks <= MAX_TIME_MS


def default_level(tasks: int) -> str:
    """The level of a review of `tasks` decisions asked without a level or budget: the
    deepest of DEFAULT_LEVELS within the synchronous limit, else the cheapest (then a job)."""
    fitting = [k for k in DEFAULT_LEVELS if synchronous(LEVELS[k], tasks)]
    return fitting[-1] if fitting else DEFAULT_LEVELS[0]


def seed_tasks(walked: Sequence[Decision], base_seed: int) -> None:
    """Give each task of a walk its search's seed (`task_seed`)."""
    for d in walked:
        if d.task is not None:
            d.task["seed"] = task_seed(base_seed, d.task["view"])


def plan(
    eng: GameModule,
    g: Any,
    decisions: Sequence[Any],
    seats: set[int] | None,
    base_seed: int | None,
) -> list[Decision]:
    """Walk the game from `g` (its start, changed in place) through `decisions` (objects, as
    a replay takes them) and make a task for each decision to review, seeded from
    `base_seed` (None: not yet, `seed_tasks`). Raises IllegalDecision (with its index) at a
    decision that is not legal where it is played."""
    out: list[Decision] = []
    for i, d in enumerate(decisions):
        seat = eng.current_player(g)
        opts = eng.legal_actions(g)
        task = None
        if seat is not None and len(opts) > 1 and (seats is None or seat in seats):
            action = eng.parse_decision(g, d, f"/decisions/{i}")
            played = eng.action_to_json(g, seat, action) if action in opts else d
            view = eng.game_view(g, seat)
            task = {"index": i, "seat": seat, "view": view, "played": played}
        try:
            eng.apply_internal(g, d, f"/decisions/{i}")
        except IllegalDecision as e:
            raise IllegalDecision(e.code, e.detail, e.clause, e.pointer, index=i) from None
        out.append(Decision(i, seat, len(opts), task))
    if base_seed is not None:
        seed_tasks(out, base_seed)
    return out


def _values(result: SearchResult, prior: float) -> tuple[float, list[float]]:
    """The position's value (mean reward of every iteration at the root) and each option's
    value shrunk toward it by `prior` pseudo-visits."""
    n = sum(o.visits for o in result.options)
    w = sum(o.visits * (o.value or 0.0) for o in result.options)
    before = w / n if n else 0.5
    values = [
        (o.visits * (o.value or 0.0) + prior * before) / (o.visits + prior) for o in result.options
    ]
    return before, values


def _standard_error(p: float, visits: int, prior: float) -> float:
    """A bound on the standard error of a mean reward in 0..1 over `visits` (plus the prior's
    pseudo-visits): sqrt(p(1-p)/n), the most a reward of mean p can vary."""
    return math.sqrt(max(0.0, p * (1 - p)) / (visits + prior))


def _pct(x: float) -> float:
    return round(100 * x, 1)


def win_evaluator(eng: GameModule, name: str) -> Evaluator:
    """The evaluation of the win-chance search (EVALUATORS): `rollout`, random playouts scored
    by win shares alone; `model`, the game's learned model (ai/model.py), or `rollout` for a
    game without one."""
    if name == "rollout" or model_for(eng) is None:
        return RandomRollout(margin_weight=0.0)
    return ModelEvaluator(alone=True)


def evaluation(eng: GameModule, name: str = WIN_EVALUATOR) -> str:
    """What judges the win search's leaves, as a review's answer names it: the model's version
    (ai/model.py `evaluation_version`) or `playouts`."""
    return evaluation_version(eng) if name == "model" else "playouts"


@dataclass(frozen=True)
class Judged:
    """One search's judgement of the played decision: the position's value, the played
    decision's and the best found's (rewards in 0..1), the best's action, the loss in
    points of the reward scale (module doc), and every root option's shrunk value (`_values`),
    in the search's option order."""

    before: float
    after: float
    best: float
    action: Any
    loss: float
    values: tuple[float, ...]


def _judge(result: SearchResult, played: Any, how: Judgement = PLAYOUTS) -> Judged:
    prior = how.prior_visits
    before, values = _values(result, prior)
    acts = [o.action for o in result.options]
    best_i, played_i = acts.index(result.action), acts.index(played)
    best, after = max(values[best_i], values[played_i]), values[played_i]
    visits = [o.visits for o in result.options]
    noise = _standard_error(best, visits[best_i], prior) + _standard_error(
        after, visits[played_i], prior
    )
    loss = round(max(0.0, 100 * (best - after - how.noise_z * noise)), 1)
    return Judged(before, after, best, result.action, loss, tuple(values))


def _search(
    start: Start, seed: int, budget: Budget, evaluator: Evaluator, deadline: float | None
) -> SearchResult:
    # no greedy prior: every option is searched, the one played included
    bot = IsmctsBot(budget, evaluator=evaluator, prior_widening=0.0)
    return bot.pick(replace(start, t0=time.perf_counter()), seed, deadline)


def _margin_points(reward: float, now: int) -> float:
    """A margin search's reward as the final margin it stands for, in points of score (the
    gain from `now` is clamped to +-MARGIN_CLAMP per playout: MarginRollout)."""
    # + 0.0: a margin that rounds to zero from below is 0.0, never -0.0 (audit of 2026-11-29)
    return round(now + (2 * reward - 1) * MARGIN_CLAMP, 1) + 0.0


def read_catalog(view: dict[str, Any], catalog: Any) -> Any:
    """A review's custom catalog (a document, or already read: returned unchanged) read by
    the game of `view`: once for all of a review's tasks, not once a task (a 500-card one
    takes 6 ms)."""
    return engine_for_state(view).get_catalog(catalog) if catalog is not None else None


def review_task(
    task: dict[str, Any],
    budget: Budget,
    catalog: Any = None,
    deadline: float | None = None,
    evaluator: str = WIN_EVALUATOR,
) -> dict[str, Any]:
    """One reviewed decision, searched from the task's view only (module doc). `catalog`: a
    custom catalog (object or document) the view's game is played with; `evaluator`: the
    win-chance search's (`win_evaluator`)."""
    view = task["view"]
    eng = engine_for_state(view)
    start = start_of(view, read_catalog(view, catalog))
    seed = int(task["seed"])
    result = _search(start, seed, budget, win_evaluator(eng, evaluator), deadline)
    base = start.sampler.base
    seat = int(task["seat"])
    played = eng.parse_decision(base, task["played"])
    acts = [o.action for o in result.options]
    if played not in acts:  # the walk checked it: a task edited in transit
        raise IllegalDecision(
            "illegal_decision", msg("The decision reviewed is not an option here."), None, ""
        )
    win = _judge(result, played, EVALUATORS[evaluator])
    judged, iterations, truncated = win, result.iterations, result.truncated
    extra: dict[str, Any] = {"judged_by": "win"}
    if win.before < HOPELESS:
        now = tuple(margin(eng, base, s) for s in range(base.n))
        second = _search(start, seed, budget, MarginRollout(now), deadline)
        iterations += second.iterations
        truncated = truncated or second.truncated
        if second.iterations:
            judged = _judge(second, played, MARGIN)
            pts = [_margin_points(x, now[seat]) for x in (judged.before, judged.after, judged.best)]
            extra = {
                "judged_by": "margin",
                "margin": {"now": now[seat], "before": pts[0], "after": pts[1], "best": pts[2]},
            }
    values = win.values
    best_json = eng.action_to_json(base, seat, judged.action)
    played_json = eng.action_to_json(base, seat, played)
    spell = eng.decision_notation
    return {
        "index": task["index"],
        "seat": seat,
        "decision": played_json,
        "notation": spell(played_json),
        "best": {"decision": best_json, "notation": spell(best_json)},
        "win_before": _pct(win.before),
        "win_after": _pct(win.after),
        "win_best": _pct(max(values[acts.index(judged.action)], win.after)),
        **extra,
        "loss": judged.loss,
        "accuracy": round(move_accuracy(judged.loss), 1),
        "verdict": verdict(judged.loss, judged.loss == 0),
        "options": len(acts),
        "iterations": iterations,
        "truncated": truncated,
    }


def summarize(seats: int, reviewed: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per seat: its reviewed decisions, the count of each verdict and its accuracy."""
    out = []
    for s in range(seats):
        mine = [r for r in reviewed if r["seat"] == s]
        acc = game_accuracy([r["accuracy"] for r in mine])
        counts = {v: sum(1 for r in mine if r["verdict"] == v) for v in VERDICTS}
        out.append(
            {
                "seat": s,
                "reviewed": len(mine),
                "accuracy": None if acc is None else round(acc, 1),
                "counts": counts,
            }
        )
    return out


def assemble(
    decisions: Sequence[Decision], reviewed: Sequence[dict[str, Any]], seats: int
) -> dict[str, Any]:
    """The review's answer from the walk and the tasks' results (any order)."""
    by_index = {r["index"]: r for r in reviewed}
    rows: list[dict[str, Any]] = []
    for d in decisions:
        if d.index in by_index:
            rows.append(by_index[d.index])
        else:
            why = "forced" if d.options <= 1 else "not_reviewed" if d.task is None else "deadline"
            rows.append({"index": d.index, "seat": d.seat, "skipped": why})
    done = [by_index[i] for i in sorted(by_index)]
    return {
        "decisions": rows,
        "seats": summarize(seats, done),
        "iterations": sum(r["iterations"] for r in done),
        "truncated": any(r["truncated"] for r in done),
    }


def review_all(
    tasks: Sequence[dict[str, Any]],
    budget: Budget,
    catalog: Any = None,
    deadline: float | None = None,
    done: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Every task in this process, in order (`done` is called after each)."""
    if tasks:
        catalog = read_catalog(tasks[0]["view"], catalog)
    out = []
    for t in tasks:
        if deadline is not None and time.perf_counter() >= deadline:
            break  # the rest is listed as skipped by the deadline (`assemble`)
        r = review_task(t, budget, catalog, deadline)
        if r["truncated"] and r["iterations"] == 0:
            break  # nothing searched: no verdict to give
        out.append(r)
        if done is not None:
            done(r)
    return out
