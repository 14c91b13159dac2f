"""POST /v1/record: a game record, versioned, that /v1/replay accepts as it is; and
POST /v1/position: a state built from a position in notation, or a state's position.

A record is a replay request (the start: `setup` or `state`; every decision in notation) with
a `record` header: the record format, the game, the rules version, the catalog (id and hash)
and the result. /v1/replay checks the header against what it replays (422
`record_mismatch`), so a record made under other rules or another card list is refused
rather than silently replayed differently.

Two ways to ask for one:
- From a state alone (`{"state"}`, with `catalog` for a custom catalog): every state the
  service issues for a game it set up carries its `history` (the set-up and every decision
  since, app/history.py). The history is replayed, and must give the state sent exactly
  (else 422 `history_mismatch`: a forged history makes no record); the record starts at the
  set-up. A state without history (built by /v1/position, say) is 422 `no_history`.
- From a replay request (`{"setup" | "state", "decisions"}`): replayed and written down,
  the start kept as sent (a state exactly as sent, seal and history included). A composed
  state is refused as /v1/replay refuses it (403 `composed_state` with a secret, unless
  STATE_PLAY_COMPOSED).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app
from marshmallow import ValidationError, fields, validate, validates_schema

from app import history, notation, schemas
from app.endpoint import engine_errors, game_of, read_body
from app.errors import ApiError, from_engine
from app.jsonio import json_response
from app.replay import record_header, run_replay
from app.seal import issue_state, require_dealt, require_readable
from engine.errors import short_repr
from engine.games import GAMES, GameModule, engine
from engine.messages import msg
from engine.protocol import misdirected

bp = Blueprint("record", __name__, url_prefix="/v1")


# the fields of a replay request that a record from a state alone has no use for
REPLAY_ONLY = ("record", "notation")


class RecordSchema(schemas.ReplaySchema):
    """A replay request, or a state alone (its history is recorded)."""

    decisions = schemas.BoundedList(
        schemas.DecisionItem(),
        most=lambda: int(current_app.config["MAX_HISTORY"]),
        what=msg("decisions (MAX_HISTORY)"),
    )

    @validates_schema
    def _decisions_of_a_setup(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "setup" in data and "decisions" not in data:
            raise ValidationError(msg("A set-up needs its decisions."), "decisions")
        for key in REPLAY_ONLY:  # beside a state alone it would be silently ignored
            if key in data and "decisions" not in data:
                raise ValidationError(
                    msg("Only a replay request (with decisions) takes this field."), key
                )


RECORD = RecordSchema()


def _written(eng: GameModule, decisions: list[Any]) -> list[Any]:
    # a decision that notation cannot spell (an odd card id of a custom catalog) stays an object
    written = notation.names(eng, decisions)
    return [w if w is not None else d for w, d in zip(written, decisions, strict=True)]


@bp.post("/record")
def record() -> Response:
    """Write a game down as a record: from a state's history, or by replaying a request."""
    req = read_body(RECORD)
    body = req.body
    if "state" in body:  # an encrypted running game's record names its seed or hidden cards
        require_readable(req.opened, body["state"])
    if "decisions" not in body:
        return json_response(from_history(body, req.origin))
    # its result is play on the start, and the record is a /v1/replay request: refused as there
    require_dealt(req.origin)
    eng, out, decisions = run_replay(body, req.origin.composed)
    if not out["ok"]:  # a record is of a game played by the rules: the first illegal decision
        err = out["error"]
        raise ApiError(
            422, err["code"], err["detail"], err["pointer"], err.get("clause"), index=err["index"]
        )
    state = out["state"]
    # the starting state exactly as sent (sealed or encrypted too): a record issues no
    # state (nor, with anti-rollback, touches its game's head)
    start: dict[str, Any] = {"setup": body["setup"]} if "setup" in body else {"state": req.sent}
    answer: dict[str, Any] = {
        "record": record_header(eng, state, len(decisions), req.origin.composed),
        **start,
        "decisions": _written(eng, decisions),
    }
    if "catalog" in body:
        answer["catalog"] = body["catalog"]
    return json_response(answer)


# -- from a state's history ----------------------------------------------------------------------


def _history_setup(eng: GameModule, hist: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """The history's set-up, checked as /v1/games checks one, with a custom catalog's
    document (the request's `catalog`) in place of its reference."""
    setup = hist["setup"]
    if isinstance(setup.get("catalog"), dict):
        if "catalog" not in body:
            ref = setup["catalog"]
            catalog_id, catalog_hash = short_repr(ref.get("id")), short_repr(ref.get("hash"))
            raise ApiError(
                422,
                "unknown_catalog",
                msg(
                    (
                        "This game was set up with a custom catalog ({catalog_id}, {catalog_hash}): "
                        "send it as `catalog` with the state."
                    ),
                    catalog_id=catalog_id,
                    catalog_hash=catalog_hash,
                ),
                "/catalog",
                eng.INFO.catalog_clause,
            )
        setup = {**setup, "catalog": body["catalog"]}
    setup = history.read_setup(setup)
    history.same_game(eng, setup)
    return setup


def _first_difference(a: dict[str, Any], b: dict[str, Any]) -> str:
    return next((k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)), "")


def from_history(body: dict[str, Any], origin: history.Origin) -> dict[str, Any]:
    """The record of the game that led to the request's state, by replaying its history."""
    hist = _recorded_history(body, origin)
    decisions = hist["decisions"]
    eng = game_of(body)
    state, setup = _replayed_as_sent(eng, body, hist)
    return {
        "record": record_header(eng, state, len(decisions)),
        "setup": setup,
        "decisions": _written(eng, decisions),
    }


def _recorded_history(body: dict[str, Any], origin: history.Origin) -> dict[str, Any]:
    """The state's history, its decisions each an object; refused (422 `no_history`) for a
    composed state or a state without one, a view or whole answer said as such."""
    hist = origin.history
    if origin.composed:
        raise ApiError(
            422,
            "no_history",
            msg(
                "This state was composed from a position (POST /v1/position), not dealt from "
                "a set-up: no history leads to it, so there is no game to write down. A "
                "record of play from it is made from the state and the decisions played "
                "since (`state` and `decisions`); its header says it starts from a composed "
                "state."
            ),
            "/state",
        )
    wrong = misdirected(body["state"]) if hist is None else None
    if wrong is not None:  # a view or a whole answer: said as such, as every endpoint does
        raise from_engine(wrong)
    if hist is None:
        raise ApiError(
            422,
            "no_history",
            msg(
                "This state carries no history, so the game cannot be written down from it: "
                "only a game started with POST /v1/games (or replayed from a set-up) and "
                "played on with /v1/resolve carries one, for its first {most} decisions "
                "(MAX_HISTORY). Send the set-up and the decisions instead (`setup` and "
                "`decisions`).",
                most=int(current_app.config["MAX_HISTORY"]),
            ),
            "/state",
        )
    for i, d in enumerate(hist["decisions"]):  # each stored as an object
        if not isinstance(d, dict):
            raise ApiError(
                422,
                "invalid_history",
                msg("A history's decisions are objects."),
                f"{history.POINTER}/decisions/{i}",
            )
    return hist


def _replayed_as_sent(
    eng: GameModule, body: dict[str, Any], hist: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The state the history's decisions lead to from its set-up, which must be the state sent
    (422 `history_mismatch` at the first illegal decision, or where the two differ), and
    that set-up."""
    decisions = hist["decisions"]
    sent = body["state"]
    if "catalog" in body:  # a catalog not the state's is said so first (422 at /state/catalog,
        # as everywhere), not blamed on the history it cannot replay
        with engine_errors():
            sent = eng.replay(sent, [], body["catalog"])["state"]
    setup = _history_setup(eng, hist, body)
    catalog_at = "/catalog" if "catalog" in body else history.POINTER + "/setup/catalog"
    with engine_errors(setup=history.POINTER + "/setup", catalog=catalog_at):
        out = eng.replay({"setup": setup}, decisions)
    if not out["ok"]:
        err = out["error"]
        index, why = err["index"], err["detail"]  # `why`: translated as a message (app/i18n.py)
        raise history.mismatch(
            msg("Decision {index} of the history is illegal there: {why}", index=index, why=why),
            f"{history.POINTER}/decisions/{err['index']}",
            err["index"],
            setup,
        )
    state = out["state"]
    # the state as the engine writes it (fields left out are recomputed; with a catalog it
    # was read so above)
    if state != sent and "catalog" not in body:
        with engine_errors():
            sent = eng.replay(sent, [], None)["state"]
    if state != sent:
        where = short_repr(_first_difference(state, sent))
        raise history.mismatch(
            msg(
                "Replaying the history does not give this state (its {where} differs).", where=where
            ),
            history.POINTER,
            setup=setup,
        )
    return state, setup


# -- positions -----------------------------------------------------------------------------------


class PositionSchema(schemas.Envelope):
    """POST /v1/position: a position to build a state from, or a state to write."""

    position = fields.String(validate=validate.Length(1, 4000))
    state = fields.Dict()
    catalog = fields.Dict()

    @validates_schema
    def _one(self, data: dict[str, Any], **kwargs: Any) -> None:
        sentence = msg("Give exactly one of position (to build) or state (to write).")
        schemas.exactly_one(data, "position", "state", sentence)
        if "position" in data and "catalog" in data:  # it would be ignored, as beside a set-up
            raise ValidationError(
                msg(
                    "A position is written with its game's reference catalog only, so it "
                    "takes no catalog: send the position alone."
                ),
                "catalog",
            )


POSITION = PositionSchema()


def _positions_of(game_id: str, pointer: str) -> Any:
    """The engine of a game that has a position notation (422 otherwise)."""
    eng = engine(game_id) if game_id in GAMES else None
    if eng is None or not hasattr(eng, "state_from_position"):
        raise ApiError(
            422,
            "position_not_supported",
            msg(
                "A position starts with the name of a game ({games}), not {game_id}.",
                games=", ".join(GAMES),
                game_id=short_repr(game_id),
            ),
            pointer,
        )
    return eng


@bp.post("/position")
def position() -> Response:
    """Build a state from a position (docs/notation.md), or write a state's position."""
    req = read_body(POSITION)
    body = req.body
    if "position" in body:
        text = body["position"]
        with engine_errors(state="/position"):
            eng = _positions_of(text.split(" ", 1)[0], "/position")
            state = eng.state_from_position(text)
        # not dealt: a seal says so, and a secret refuses to play on it
        written = eng.position_of(state)
        return json_response(
            {"position": written, "state": issue_state(state, history.COMPOSED_ORIGIN)}
        )
    require_readable(req.opened, body["state"])  # an encrypted running game's cards stay hidden
    eng = _positions_of(game_of(body).INFO.id, "/state/game")
    with engine_errors():
        text = eng.position_of(body["state"], body.get("catalog"))
    return json_response({"position": text})
