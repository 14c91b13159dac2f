"""POST /v1/record: a game record, versioned, that /v1/replay accepts as it is; and
POST /v1/position: a state built from a position in notation, or a state's position.

A record is a replay request (the start: `setup` or `state`; every decision in notation) with
a `record` header: the record format, the game, the rules version, the catalog (id and hash)
and the result. /v1/replay checks the header against what it replays (422
`record_mismatch`), so a record made under other rules or another card list is refused
rather than silently replayed differently.

Why from a replay request and not from a bare state: a state holds the position, not how it
came about (neither engine keeps a history of decisions), and adding one would change both
games' state formats and every stored state. A client that plays through this service has
the set-up and the decisions it sent; this endpoint checks them by replaying and writes them
down.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, g
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from app import notation, schemas
from app.errors import ApiError
from app.jsonio import json_response
from app.routes import engine_errors, game_of, read_body, record_header, run_replay
from app.seal import issue_state
from engine.errors import short_repr
from engine.games import GAMES, engine

bp = Blueprint("record", __name__, url_prefix="/v1")


@bp.post("/record")
def record() -> Response:
    """Replay a game and write it down as a record."""
    body = read_body(schemas.REPLAY)
    eng, out, decisions = run_replay(body)
    if not out["ok"]:  # a record is of a game played by the rules: the first illegal decision
        err = out["error"]
        raise ApiError(
            422, err["code"], err["detail"], err["pointer"], err.get("clause"), index=err["index"]
        )
    written = notation.names(eng, decisions)
    state = out["state"]
    # the starting state exactly as sent (sealed or encrypted too): re-issuing it would
    # start a new lineage, or with anti-rollback claim the game's next move
    start: dict[str, Any] = (
        {"setup": body["setup"]} if "setup" in body else {"state": g.state_as_sent}
    )
    answer: dict[str, Any] = {
        "record": record_header(eng, state, len(decisions)),
        **start,
        # a decision that notation cannot spell (an odd card id of a custom catalog) stays an object
        "decisions": [w if w is not None else d for w, d in zip(written, decisions, strict=True)],
    }
    if "catalog" in body:
        answer["catalog"] = body["catalog"]
    return json_response(answer)


# -- positions -----------------------------------------------------------------------------------


class PositionSchema(Schema):
    """POST /v1/position: a position to build a state from, or a state to write."""

    position = fields.String(validate=validate.Length(1, 4000))
    state = fields.Dict()
    catalog = fields.Dict()

    @validates_schema
    def _one(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("position" in data) == ("state" in data):
            raise ValidationError("Give exactly one of position (to build) or state (to write).")


POSITION = PositionSchema()


def _positions_of(game_id: str, pointer: str) -> Any:
    """The engine of a game that has a position notation (422 otherwise)."""
    eng = engine(game_id) if game_id in GAMES else None
    if eng is None or not hasattr(eng, "state_from_position"):
        raise ApiError(
            422,
            "position_not_supported",
            f"A position starts with the name of a game ({', '.join(GAMES)}), "
            f"not {short_repr(game_id)}.",
            pointer,
        )
    return eng


@bp.post("/position")
def position() -> Response:
    """Build a state from a position (docs/notation.md), or write a state's position."""
    body = read_body(POSITION)
    if "position" in body:
        text = body["position"]
        with engine_errors(state="/position"):
            eng = _positions_of(text.split(" ", 1)[0], "/position")
            state = eng.state_from_position(text)
        return json_response({"position": eng.position_of(state), "state": issue_state(state)})
    eng = _positions_of(game_of(body).GAME_ID, "/state/game")
    with engine_errors():
        text = eng.position_of(body["state"], body.get("catalog"))
    return json_response({"position": text})
