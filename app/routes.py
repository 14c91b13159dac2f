"""The /v1 endpoints: parse and check the envelope, call the engine, answer JSON.

Each handler is a thin translation; the engine decides everything about the game. Engine
errors become 422 problems whose pointers point into the request body.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Blueprint, Response, g, request
from marshmallow import Schema

from app import history, notation, schemas
from app.errors import ApiError, bounded, from_engine, prefixed
from app.jsonio import json_response, loads
from app.limits import body_bytes
from app.seal import issue_state, open_state, require_dealt
from engine.errors import MAX_PROBLEMS, EngineError, InvalidState, problem_count, short_repr
from engine.games import DEFAULT_GAME, GAMES, GameModule, engine, engine_for, engine_for_state

bp = Blueprint("v1", __name__, url_prefix="/v1")

JSON_TYPES = ("application/json",)


def game_of(body: dict[str, Any]) -> GameModule:
    """The engine of the body's state, chosen by its `game` field."""
    with engine_errors():
        return engine_for_state(body["state"])


def read_body(schema: Schema) -> dict[str, Any]:
    """The request's JSON object, checked by `schema` (400 problems otherwise)."""
    mt = request.mimetype
    if mt not in JSON_TYPES and not (mt.startswith("application/") and mt.endswith("+json")):
        raise ApiError(
            415,
            "unsupported_media_type",
            f"Send the body as application/json (got {mt or 'no Content-Type'}).",
        )
    body = loads(body_bytes())  # 413 above MAX_CONTENT_LENGTH
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_request", "The request body must be a JSON object.", "")
    data: dict[str, Any] = (
        schemas.load_setup(body) if schema is schemas.SETUP else schemas.load(schema, body)
    )
    if "state" in data:  # its seal checked, when the service seals states (app/seal.py)
        g.state_as_sent = data["state"]  # a game record carries it unchanged (app/record.py)
        state, authentic = open_state(data["state"])
        try:
            eng: GameModule | None = engine_for_state(state)
        except InvalidState:  # an unknown game: the state's reader says so
            eng = None
        # history and `composed` kept aside, the history read unless the seal vouches for it
        data["state"] = history.strip(state, eng, authentic, data.get("catalog"))
    return data


@contextmanager
def engine_errors(**prefixes: str) -> Iterator[None]:
    """Engine errors as 422 problems; `prefixes` say where state/catalog/setup sit."""
    try:
        yield
    except EngineError as e:
        raise from_engine(e, **prefixes) from None


@bp.post("/games")
def new_game() -> Response:
    """A-1: a new game's state."""
    setup = read_body(schemas.SETUP)
    with engine_errors(setup=""):
        eng = engine_for(setup)
        state = eng.new_game(setup)
    history.begin(eng, setup, state["catalog"])
    return json_response({"state": issue_state(state)})


Reading = Callable[[GameModule, dict[str, Any]], Any]


def reading(path: str, schema: Schema = schemas.STATE) -> Callable[[Reading], Reading]:
    """A route answering, as JSON, what the decorated function reads with the engine of the
    body's state from the body (`schema` checks it)."""

    def register(read: Reading) -> Reading:
        def answer() -> Response:
            body = read_body(schema)
            with engine_errors():
                out = read(game_of(body), body)
            return json_response(out)

        bp.add_url_rule(path, read.__name__, answer, methods=["POST"])
        return read

    return register


@reading("/legal-moves")
def legal_moves(eng: GameModule, body: dict[str, Any]) -> Any:
    """The pending decision and every option (each accepted unchanged by /v1/resolve)."""
    return eng.legal_decisions(body["state"], body.get("catalog"))


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
    body = read_body(schemas.RESOLVE)  # 1 to MAX_DECISIONS decisions
    require_dealt(history.composed_sent())
    eng = game_of(body)
    decisions, unreadable = notation.expand(eng, body["decisions"])  # strings in notation
    with engine_errors():
        if unreadable is not None:
            raise unreadable
        state, events = eng.apply_all(body["state"], decisions, body.get("catalog"))
        if "events_for" in body:
            seat = body["events_for"]
            if seat >= len(state["seats"]):
                raise EngineError(
                    "unknown_seat",
                    f"events_for must be a seat 0..{len(state['seats']) - 1}",
                    eng.SEATS_CLAUSE,
                    "/events_for",
                )
            events = eng.events_for_seat(events, seat)
    if body.get("notation"):
        notation.annotate(eng, events, decisions)
    history.extend(eng, decisions)
    return json_response(
        {
            "state": issue_state(state),
            "events": events,
            "pending": state["pending"],
            "game_over": state["game_over"],
            "scores": state["scores"],
        }
    )


@bp.post("/validate")
def validate_state() -> Response:
    """Every consistency problem of a state (200 with the list, empty when valid)."""
    body = read_body(schemas.STATE)
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
    body = read_body(schemas.REPLAY)  # 0 to MAX_DECISIONS decisions
    if "state" in body:
        require_dealt(history.composed_sent())
    eng, out, decisions = run_replay(body)
    applied = decisions[: out["applied"]]
    if "setup" in body:
        history.begin(eng, body["setup"], out["state"]["catalog"], applied)
    else:
        history.extend(eng, applied)
    out["state"] = issue_state(out["state"])
    return json_response(out)


def run_replay(body: dict[str, Any]) -> tuple[GameModule, dict[str, Any], list[Any]]:
    """A replay request's outcome: (engine, answer with the state not yet issued, decisions
    as objects). A decision in notation that does not read stops the replay there, as an
    illegal one would; a game record's header (`record`) must match what is replayed."""
    if "setup" in body:
        start: Any = {"setup": body["setup"]}
        prefixes = {"setup": "/setup", "catalog": "/setup/catalog"}
        eng = engine_for(body["setup"])
    else:
        start = body["state"]
        prefixes = {}
        eng = game_of(body)
    decisions, unreadable = notation.expand(eng, body["decisions"])
    with engine_errors(**prefixes):
        out = eng.replay(start, decisions, body.get("catalog"))
    if unreadable is not None and out["ok"]:
        out.update(ok=False, applied=unreadable.index, error=unreadable.to_json())
    if "record" in body:
        with engine_errors():
            check_record(eng, body["record"], out)
    if body.get("notation"):
        notation.annotate(eng, out["events"], decisions)
    return eng, out, decisions


RECORD_FORMAT = "referee-record/1"


def record_header(
    eng: GameModule, state: dict[str, Any], decisions: int, composed: bool = False
) -> dict[str, Any]:
    """The header of a game record (POST /v1/record) whose replay ends in `state`; `composed`
    when it starts from a state composed from a position (app/history.py), not dealt."""
    header: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": eng.GAME_ID,
        "rules_version": eng.RULES_VERSION,
        "catalog": state["catalog"],
        "result": {
            "game_over": state["game_over"],
            "decisions": decisions,
            "scores": state["scores"],
        },
    }
    if composed:
        header["composed"] = True
    return header


def check_record(eng: GameModule, header: dict[str, Any], out: dict[str, Any]) -> None:
    """A game record's header against its replay: the format, the game, the rules version,
    the catalog (by hash), whether it starts from a composed state and, when every decision
    was legal, the result must be the ones replayed (422 `record_mismatch`)."""
    expected = record_header(eng, out["state"], out["applied"], history.composed_sent())
    if not out["ok"]:
        del expected["result"]  # the answer says where the log breaks
    for key, want in expected.items():
        if header.get(key) != want:
            raise EngineError(
                "record_mismatch",
                f"The record's {key} is {short_repr(header.get(key))}; replaying it gives "
                f"{short_repr(want)}.",
                None,
                f"/record/{key}",
            )


def _catalog_game() -> GameModule:
    """The game whose catalogs are asked for: `?game=` (Architectura by default)."""
    game_id = request.args.get("game", DEFAULT_GAME)
    if game_id not in GAMES:
        raise ApiError(
            404, "unknown_game", f"Unknown game {game_id!r}; known: {', '.join(GAMES)}.", ""
        )
    return engine(game_id)


@bp.get("/catalogs")
def catalogs() -> Response:
    """The built-in catalogs of one game (`?game=`, Architectura by default)."""
    eng = _catalog_game()
    cats = eng.builtin_catalogs()
    return json_response(
        {"game": eng.GAME_ID, "catalogs": [cats[k].summary() for k in sorted(cats)]}
    )


@bp.get("/catalogs/<catalog_id>")
def catalog(catalog_id: str) -> Response:
    """One built-in catalog: its summary and the whole catalog document."""
    eng = _catalog_game()
    cats = eng.builtin_catalogs()
    cat = cats.get(catalog_id)
    if cat is None:
        raise ApiError(
            404,
            "unknown_catalog",
            f"No built-in {eng.GAME_ID} catalog {catalog_id!r}; known: {', '.join(sorted(cats))}.",
            "",
            eng.CATALOG_CLAUSE,
        )
    out = cat.summary()
    out["catalog"] = cat.to_json()
    return json_response(out)
