"""POST /v1/review: what each decision of a game cost its seat (ai/review.py, docs/review.md).

The game comes as a record (what POST /v1/record answers, accepted as it is: its header is
checked against the replay as /v1/replay checks it) or as a state alone with its history
(replayed as /v1/record replays it). The walk through the game and each reviewed decision's
task (the deciding seat's view, the decision played, a seed) are made here, from the game's
public interface; the searches are ai/review.py's and read only the tasks.

A review within the synchronous limit (its reviewed decisions times the per-decision budget at
most MAX_ITERATIONS iterations and MAX_TIME_MS ms, ai/base.py) is answered at once, under the
same concurrency cap and SUGGEST_MAX_MS deadline as /v1/suggest. A larger one, or one with
`"async": true`, runs as a background job (202 and /v1/jobs/{id}, app/jobs.py), split by
decision over the workers (ai/jobs.py `run_review`).
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from flask import Blueprint, Response, current_app
from marshmallow import ValidationError, fields, validate, validates_schema

from ai.bots import LEVELS, MAX_ITERATIONS, MAX_TIME_MS, Budget
from ai.review import (
    DEFAULT_LEVELS,
    TASK_ITERATIONS,
    TASK_MS,
    Decision,
    assemble,
    counted,
    default_level,
    evaluation,
    plan,
    review_all,
    review_seed,
    seed_tasks,
    synchronous,
)
from ai.service import MAX_SEED
from app import schemas
from app.endpoint import engine_errors, read_body
from app.errors import ApiError
from app.jobs import configured, start_review, without_jobs, work
from app.jsonio import json_response
from app.record import from_history
from app.replay import run_replay
from app.schemas import Envelope, JsonBool, _strict_int
from app.seal import require_readable
from app.suggest import GATE, BudgetSchema, Gate
from engine.errors import IllegalDecision
from engine.games import MAX_SEATS, GameModule
from engine.messages import Msg, msg

bp = Blueprint("review", __name__, url_prefix="/v1")

# the deepest level a review asked without one searches at (ai/review.py `default_level`)
REVIEW_LEVEL = DEFAULT_LEVELS[-1]


def _different(seats: list[int]) -> None:
    """`seats` names each seat once (as `events_for` does): [0, 0] was taken as [0]."""
    if len(set(seats)) != len(seats):
        raise ValidationError(msg("Each seat at most once: send an array of different seats."))


class ReviewSchema(Envelope):
    """A game record (or a replay request), or a state alone with its history; the search
    budget per reviewed decision; the seats to review."""

    record = fields.Dict()
    setup = schemas.SetupField()
    state = fields.Dict()
    decisions = schemas.BoundedList(
        schemas.DecisionItem(),
        most=lambda: int(current_app.config["MAX_DECISIONS"]),
        what=msg("decisions (MAX_DECISIONS)"),
    )
    catalog = fields.Dict()
    level = fields.String(validate=validate.OneOf(list(LEVELS)))
    budget = fields.Nested(BudgetSchema)
    seats = fields.List(
        _strict_int(validate=validate.Range(0, MAX_SEATS - 1)),
        validate=[validate.Length(1, MAX_SEATS), _different],
    )
    seed = _strict_int(load_default=0, validate=validate.Range(0, MAX_SEED))
    run_async = JsonBool(data_key="async")

    @validates_schema
    def _shape(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "level" in data and "budget" in data:
            raise ValidationError(msg("Give either a level or a budget, not both."), "budget")
        schemas.exactly_one(
            data, "state", "setup", msg("Give exactly one of state (a starting state) or setup.")
        )
        if "setup" in data and "decisions" not in data:
            raise ValidationError(msg("A set-up needs its decisions."), "decisions")
        schemas.own_catalog(data)
        if "record" in data and "decisions" not in data:
            raise ValidationError(
                msg("Only a replay request (with decisions) takes this field."), "record"
            )


REVIEW = ReviewSchema()


def _game(body: dict[str, Any], req: Any) -> tuple[GameModule, Any, list[Any], Any]:
    """(engine, the start in memory, the decisions as objects, the custom catalog document
    the searches read: the one sent beside a state, or a set-up's own)."""
    if "decisions" in body:
        eng, out, decisions = run_replay(body, req.origin.composed)
        if not out["ok"]:  # a review is of a game played by the rules
            err = out["error"]
            raise ApiError(
                422,
                err["code"],
                err["detail"],
                err["pointer"],
                err.get("clause"),
                index=err["index"],
            )
        start: dict[str, Any] = {"setup": body["setup"]} if "setup" in body else body
    else:
        written = from_history(body, req.origin)
        eng, out, decisions = run_replay(
            {"setup": written["setup"], "decisions": written["decisions"]}
        )
        start = {"setup": written["setup"]}
    cat = body.get("catalog")
    with engine_errors(setup="/setup", catalog="/catalog"):
        if "setup" in start:
            g = eng.new_game_internal(start["setup"])
            own = start["setup"].get("catalog")
            cat = own if isinstance(own, dict) else None  # an id names a built-in catalog
        else:
            g = eng.load(start["state"], cat)
    return eng, g, decisions, cat


def _budget(body: dict[str, Any], tasks: int) -> tuple[Budget, dict[str, Any]]:
    """The per-decision budget and the settings the answer echoes; without a level or a
    budget, the deepest default level that keeps a review of the game's `tasks` (every
    seat's: so a seat's rows do not depend on which seats are asked) synchronous."""
    if "budget" in body:
        b = body["budget"]
        budget = Budget(iterations=b.get("iterations"), time_ms=b.get("time_ms"))
        return budget, {"level": None, **budget.to_json()}
    level = body.get("level") or default_level(tasks)
    return LEVELS[level], {"level": level, **LEVELS[level].to_json()}


def _over(budget: Budget, walked: list[Decision]) -> Msg:
    """Why a review is over the synchronous limit (its decisions times the per-decision
    budget), and what would fit: the largest level for the whole game, and this budget for
    the seat with the fewest decisions to review (`seats`)."""
    per_seat = Counter(d.seat for d in walked if d.task is not None)
    tasks = sum(per_seat.values())
    each = counted(budget)
    out = msg(
        "{tasks} decisions to review, {per} each: {total} in all.",
        tasks=tasks,
        per=work(each.iterations, each.time_ms),
        total=work(_times(each.iterations, tasks), _times(each.time_ms, tasks)),
    )
    if each != budget:
        out = msg(
            "{problem} A reviewed decision counts at least {iterations} iterations or {ms} ms "
            "(its own work besides its search).",
            problem=out,
            iterations=TASK_ITERATIONS,
            ms=TASK_MS,
        )
    fitting = [k for k, b in LEVELS.items() if synchronous(b, tasks)]
    if fitting:
        level = max(fitting, key=lambda k: LEVELS[k].iterations or 0)
        out = msg("{problem} Level {level} would fit.", problem=out, level=level)
    seat, fewest = min(per_seat.items(), key=lambda kv: (kv[1], kv[0]))
    if len(per_seat) > 1 and synchronous(budget, fewest):
        out = msg(
            '{problem} So would this budget for one seat: "seats": [{seat}] ({count} decisions).',
            problem=out,
            seat=seat,
            count=fewest,
        )
    return out


def _times(amount: int | None, n: int) -> int | None:
    return None if amount is None else amount * n


def _walk(eng: GameModule, g: Any, decisions: list[Any], body: dict[str, Any]) -> list[Decision]:
    """The game's decisions and their tasks, not yet seeded (the seed depends on the budget,
    and a default budget on how many tasks there are)."""
    seats = set(body["seats"]) if "seats" in body else None
    if seats is not None and max(seats) >= g.n:
        raise ApiError(
            422,
            "unknown_seat",
            msg("seats must list seats 0..{last}", last=g.n - 1),
            f"/seats/{body['seats'].index(max(seats))}",
            eng.INFO.seats_clause,
        )
    try:
        return plan(eng, g, decisions, seats, None)
    except IllegalDecision as e:  # replayed above: only a catalog changed in between
        raise ApiError(422, e.code, e.detail, e.pointer, e.clause, index=e.index) from None


def _reviewable_history(history: dict[str, Any] | None) -> None:
    """A history holds up to MAX_HISTORY decisions, a review reads up to MAX_DECISIONS, as
    from a record: refused before it is replayed and planned (a view per decision)."""
    most = int(current_app.config["MAX_DECISIONS"])
    if history is not None and len(history["decisions"]) > most:
        raise ApiError(
            422,
            "budget_too_large",
            msg(
                "A review reads at most {most} decisions (MAX_DECISIONS); this game's history "
                "holds {count}. Review part of it: send its set-up and its first decisions, "
                "within that limit (`setup` and `decisions`, as POST /v1/record writes them).",
                most=most,
                count=len(history["decisions"]),
            ),
            "/state/history/decisions",
        )


@bp.post("/review")
def review() -> Response:
    """Review a game: per decision, the win chance it kept or lost and the best decision."""
    req = read_body(REVIEW)
    body = req.body
    if "state" in body:
        require_readable(req.opened, body["state"])
        if "decisions" not in body:  # its history is the game reviewed
            _reviewable_history(req.origin.history)
    eng, g, decisions, catalog = _game(body, req)
    walked = _walk(eng, g, decisions, body)
    tasks = [d.task for d in walked if d.task is not None]
    budget, settings = _budget(body, sum(d.seat is not None and d.options > 1 for d in walked))
    settings["seed"] = body["seed"]
    large = not synchronous(budget, len(tasks))
    where = next((f"/{k}" for k in ("budget", "level") if k in body), "")
    if large and body.get("run_async") is False:
        raise ApiError(
            422,
            "budget_too_large",
            msg(
                "A synchronous review may search at most {iterations} iterations and {ms} ms "
                'in all: {over} Or leave out "async": false to run it as a job.',
                iterations=MAX_ITERATIONS,
                ms=MAX_TIME_MS,
                over=_over(budget, walked),
            ),
            where or "/async",
        )
    if (large or body.get("run_async")) and not configured():
        over = _over(budget, walked) if large else None
        raise without_jobs("/v1/review", over, where if large else "/async")
    seed_tasks(walked, review_seed(body["seed"], settings))  # once it is going to run
    head = {"game": eng.INFO.id, "settings": settings, "evaluation": evaluation(eng)}
    rows = [{"index": d.index, "seat": d.seat, "options": d.options} for d in walked]
    if large or body.get("run_async"):
        return start_review(
            {
                "head": head,
                "walk": rows,
                "seats": g.n,
                "tasks": tasks,
                "budget": budget.to_json(),
                "catalog": catalog,
            }
        )
    return json_response(_run(eng, head, walked, tasks, budget, catalog, g.n))


def _run(
    eng: GameModule,
    head: dict[str, Any],
    walked: list[Decision],
    tasks: list[dict[str, Any]],
    budget: Budget,
    catalog: Any,
    seats: int,
) -> dict[str, Any]:
    gate: Gate = current_app.extensions[GATE]
    with gate.slot():
        deadline = time.perf_counter() + int(current_app.config["SUGGEST_MAX_MS"]) / 1000
        with engine_errors(catalog="/catalog"):
            done = review_all(tasks, budget, catalog, deadline)
    return {**head, **assemble(walked, done, seats)}
