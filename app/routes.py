"""The /v1 endpoints: parse and check the envelope, call the engine, answer JSON.

Each handler is a thin translation; the engine decides everything about the game. Engine
errors become 422 problems whose pointers point into the request body.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, request
from marshmallow import Schema

from app import history, notation, schemas
from app.endpoint import engine_errors, game_of, read_body
from app.errors import ApiError, bounded, prefixed
from app.i18n import answer_language, gettext, said_in, translate_prompt
from app.jsonio import json_response
from app.query import reads_query
from app.replay import run_replay
from app.seal import (
    Opened,
    decided_before_chance,
    issue_state,
    require_dealt,
    require_readable_record,
)
from engine.errors import (
    MAX_PROBLEMS,
    EngineError,
    InvalidState,
    problem_count,
    short_repr,
)
from engine.games import (
    DEFAULT_GAME,
    GAMES,
    GameModule,
    engine,
    engine_for,
    engine_for_state,
    info,
    unknown_game,
)
from engine.messages import msg
from engine.setup_fields import JSON_SAFE_INT

bp = Blueprint("v1", __name__, url_prefix="/v1")


@bp.post("/games")
def new_game() -> Response:
    """A-1: a new game's state."""
    setup = read_body(schemas.SETUP).body
    with engine_errors(setup=""):
        eng = engine_for(setup)
        state = eng.new_game(setup)
    refuse_unsafe_seed(setup)
    origin = history.Origin.dealt(eng, setup, state["catalog"])
    return json_response({"state": issue_state(state, origin)})


def refuse_unsafe_seed(setup: dict[str, Any]) -> None:
    """A new game's seed is one every JSON client reads exactly (at most 2^53-1): the state's
    history keeps it, and a client reading numbers as doubles (JavaScript, jq) rounded a
    larger one, so that the game's record no longer replayed (audit of 2026-11-29). The
    engines take seeds up to 2^64-1, so that old states and records stay readable."""
    seed = setup.get("seed")
    if isinstance(seed, int) and seed > JSON_SAFE_INT:
        raise ApiError(
            422,
            "invalid_seed",
            msg(
                "A new game's seed must be an integer from 0 to 2^53-1 ({most}): a client "
                "reading JSON numbers as doubles (JavaScript, jq) would round a larger one, "
                "and the game's record would no longer replay. Send a smaller seed, or none "
                "for one chosen at random.",
                most=JSON_SAFE_INT,
            ),
            "/seed",
        )


@bp.get("/games")
def games() -> Response:
    """Every registered game, as a page shows it without naming it (/play): its name, seat
    range, seat colours (its default catalog's, when seats have colours), how a cell is named
    and the set-up fields a person picks; names and cells in the asked language."""
    lang = answer_language()
    return said_in(json_response({"games": [_game_facts(g, lang) for g in GAMES]}), lang)


def _game_facts(game_id: str, lang: str) -> dict[str, Any]:
    facts = info(game_id)
    eng = engine(game_id)
    colours = eng.builtin_catalogs()[facts.default_catalog].summary().get("colours", [])
    return {
        "game": game_id,
        "name": facts.name,
        "seats": {"min": facts.min_seats, "max": facts.max_seats},
        "colours": [{"colour": c, "name": gettext(lang, c, "colour") or c} for c in colours],
        "cell": gettext(lang, facts.cell_name, "cell") or facts.cell_name,
        "setup": {k: list(v) for k, v in facts.setup_choices.items()},
        "catalog": facts.default_catalog,
    }


Reading = Callable[[GameModule, dict[str, Any]], Any]


def reading(path: str, schema: Schema = schemas.STATE) -> Callable[[Reading], Reading]:
    """A route answering, as JSON, what the decorated function reads with the engine of the
    body's state from the body (`schema` checks it)."""

    def register(read: Reading) -> Reading:
        def answer() -> Response:
            body = read_body(schema).body
            with engine_errors():
                out = read(game_of(body), body)
            return json_response(out)

        bp.add_url_rule(path, read.__name__, answer, methods=["POST"])
        return read

    return register


def in_language(pending: Any) -> Any:
    """A copy of a pending decision answered beside the state, its prompt in the answer's
    language (the state's own stays English: states are sealed as the engine wrote them)."""
    if not isinstance(pending, dict) or "prompt" not in pending:
        return pending
    return {**pending, "prompt": translate_prompt(pending["prompt"], answer_language())}


@reading("/legal-moves")
def legal_moves(eng: GameModule, body: dict[str, Any]) -> Any:
    """The pending decision and every option (each accepted unchanged by /v1/resolve)."""
    out = eng.legal_decisions(body["state"], body.get("catalog"))
    if isinstance(out, dict) and "pending" in out:
        out = {**out, "pending": in_language(out["pending"])}
    return out


@reading("/view", schemas.VIEW)
def view(eng: GameModule, body: dict[str, Any]) -> Any:
    """What one seat may see."""
    return eng.player_view(body["state"], body["seat"], body.get("catalog"))


@reading("/score")
def score(eng: GameModule, body: dict[str, Any]) -> Any:
    """Standings now, or the final scores with the tie-break detail (A-8)."""
    return eng.score(body["state"], body.get("catalog"))


@bp.post("/resolve")
def resolve() -> Response:
    """Apply decisions, all or nothing."""
    req = read_body(schemas.RESOLVE)  # 1 to MAX_DECISIONS decisions
    body = req.body
    require_dealt(req.origin)
    eng = game_of(body)
    decisions, unreadable = notation.expand(eng, body["decisions"])  # strings in notation
    with engine_errors():
        if unreadable is not None:
            raise unreadable
        # a state whose seal verified is read without its consistency checks (docs/trust.md)
        sealed = req.opened is not None and req.opened.authentic
        state, events = _apply_batch(eng, body, decisions, req.opened, sealed)
        copies = _copies(eng, events, body.get("events_for"), len(state["seats"]))
    if isinstance(body.get("events_for"), int):  # one seat's copy, in place of the log
        events = copies[0]["events"]
    for log in [events, *(c["events"] for c in copies)] if body.get("notation") else []:
        notation.annotate(eng, log, decisions)
    out = {
        "state": issue_state(state, req.origin.extended(eng, decisions), req.opened),
        "events": events,
        "pending": in_language(state["pending"]),
        "game_over": state["game_over"],
        "scores": state["scores"],
    }
    if isinstance(body.get("events_for"), list):  # several seats' copies, beside the log
        out["events_by_seat"] = copies
    return json_response(out)


def _apply_batch(
    eng: GameModule, body: dict[str, Any], decisions: list[Any], opened: Opened | None, sealed: bool
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`eng.apply_all`, and for an encrypted state no decision past a chance event
    (app/seal.py `decided_before_chance`). The batch stops at that event: what follows is
    never applied nor even looked at, so neither the answer nor its time depends on whether
    it would have been legal (audit of 2026-11-30: a second pass for an illegal one took
    longer, and that told which cards a mulligan had drawn)."""
    encrypted = opened is not None and opened.encrypted
    until = eng.CHANCE_EVENTS if encrypted else frozenset()
    state, events = eng.apply_all(body["state"], decisions, body.get("catalog"), sealed, until)
    decided_before_chance(opened, eng.CHANCE_EVENTS, eng.INFO.view_clause, events, len(decisions))
    return state, events


def _copies(
    eng: GameModule, events: list[dict[str, Any]], wanted: Any, seats: int
) -> list[dict[str, Any]]:
    """Each seat's copy of the events that `events_for` names (a seat, or an array of
    them), in its order: [{seat, events}]."""
    if wanted is None:
        return []
    asked = wanted if isinstance(wanted, list) else [wanted]
    for i, seat in enumerate(asked):
        if seat >= seats:
            raise EngineError(
                "unknown_seat",
                msg("events_for must be a seat 0..{last}", last=seats - 1),
                eng.INFO.seats_clause,
                f"/events_for/{i}" if isinstance(wanted, list) else "/events_for",
            )
    return [{"seat": seat, "events": eng.events_for_seat(events, seat)} for seat in asked]


@bp.post("/validate")
def validate_state() -> Response:
    """Every consistency problem of a state (200 with the list, empty when valid)."""
    body = read_body(schemas.STATE).body
    try:
        eng = engine_for_state(body["state"])
    except InvalidState as e:  # an unknown game is a problem of the state like any other
        problems = e.problems
    else:
        with engine_errors():
            problems = eng.validate(body["state"], body.get("catalog"))
    listed = bounded(prefixed(problems[:MAX_PROBLEMS], "/state"))
    out: dict[str, Any] = {"valid": not listed, "problems": listed}
    if problem_count(problems) > len(listed):
        out["problems_total"] = problem_count(problems)
    return json_response(out)


@bp.post("/replay")
def replay() -> Response:
    """Settle a dispute: a start (state or set-up) and a decision log."""
    req = read_body(schemas.REPLAY)  # 0 to MAX_HISTORY decisions
    body = req.body
    require_dealt(req.origin)
    require_readable_record(req.opened, body)
    eng, out, decisions = run_replay(body, req.origin.composed)
    applied = decisions[: out["applied"]]
    if "setup" in body:
        origin = history.Origin.dealt(eng, body["setup"], out["state"]["catalog"], applied)
    else:
        origin = req.origin.extended(eng, applied)
    out["state"] = issue_state(out["state"], origin, req.opened)
    return json_response(out)


def _catalog_game() -> GameModule:
    """The game whose catalogs are asked for: `?game=` (Architectura by default)."""
    game_id = request.args.get("game", DEFAULT_GAME)
    if game_id not in GAMES:
        raise ApiError(404, "unknown_game", unknown_game(game_id), "/game")
    return engine(game_id)


@bp.get("/catalogs")
@reads_query("game")
def catalogs() -> Response:
    """The built-in catalogs of one game (`?game=`, Architectura by default)."""
    eng = _catalog_game()
    cats = eng.builtin_catalogs()
    summaries = [cats[k].summary() for k in sorted(cats)]
    return said_in(json_response({"game": eng.INFO.id, "catalogs": summaries}), "en")


@bp.get("/catalogs/<catalog_id>")
@reads_query("game")
def catalog(catalog_id: str) -> Response:
    """One built-in catalog: its summary and the whole catalog document."""
    eng = _catalog_game()
    cats = eng.builtin_catalogs()
    cat = cats.get(catalog_id)
    if cat is None:
        raise ApiError(
            404,
            "unknown_catalog",
            msg(
                "No built-in {game} catalog {catalog_id}; known: {known}.",
                game=eng.INFO.id,
                catalog_id=short_repr(catalog_id),
                known=", ".join(sorted(cats)),
            ),
            "",
            eng.INFO.catalog_clause,
        )
    out = cat.summary()
    out["catalog"] = cat.to_json()
    # the document as the catalog has it; `names`, each card's name in the asked language (as
    # the pictures draw it: msgctxt "card"), for a page's sentences
    lang = answer_language()
    cards = out["catalog"].get("cards", [])
    out["names"] = {
        c["id"]: gettext(lang, c["name"], "card") or c["name"] for c in cards if "name" in c
    }
    return said_in(json_response(out), "en" if lang == "en" else f"{lang}, en")
