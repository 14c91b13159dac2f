"""What every endpoint shares: its JSON body read and checked, the engine of the state it
carries, and the engine's errors answered as 422 problems (app/routes.py, app/record.py,
app/suggest.py, app/jobs.py, app/render/http.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from marshmallow import Schema

from app import current, history, schemas
from app.errors import ApiError, from_engine
from app.jsonio import loads
from app.limits import body_bytes
from app.seal import Opened, open_state
from engine.errors import EngineError, InvalidState, short_repr
from engine.games import GameModule, engine_for_state
from engine.messages import msg
from engine.protocol import misdirected

JSON_TYPES = ("application/json",)


def game_of(body: dict[str, Any]) -> GameModule:
    """The engine of the body's state, chosen by its `game` field."""
    with engine_errors():
        return engine_for_state(body["state"])


@dataclass(frozen=True)
class Received:
    """A request as an endpoint reads it: the envelope as its schema loaded it (`body`; its
    `state`, if any, the engine's state), the state document as sent and opened (`opened`:
    seal, encryption, lineage), and how that state came about (`origin`: its history, or
    composed). Nothing of it is kept anywhere else: each endpoint passes what it needs on."""

    body: dict[str, Any]
    sent: dict[str, Any] | None = None
    opened: Opened | None = None
    origin: history.Origin = history.UNKNOWN_ORIGIN


def read_body(schema: Schema) -> Received:
    """The request's JSON object, checked by `schema` (400 problems otherwise); its state
    opened (its seal checked, app/seal.py) and stripped of its origin (app/history.py)."""
    mt = current.req().mimetype
    if mt not in JSON_TYPES and not (mt.startswith("application/") and mt.endswith("+json")):
        raise ApiError(
            415,
            "unsupported_media_type",
            msg(
                "Send the body as application/json (got {media_type}).",
                media_type=mt or "no Content-Type",
            ),
        )
    coding = current.environ().get("HTTP_CONTENT_ENCODING", "")
    if coding.strip().lower() not in ("", "identity"):  # RFC 9110, 8.4.1 and 15.5.16
        raise ApiError(
            415,
            "unsupported_media_type",
            msg(
                "Send the body as it is, without a Content-Encoding (got {coding}): a "
                "compressed body is not read.",
                coding=short_repr(coding),
            ),
            headers={"Accept-Encoding": "identity"},
        )
    body = loads(body_bytes())  # 413 above MAX_CONTENT_LENGTH
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_request", msg("The request body must be a JSON object."), "")
    data: dict[str, Any] = (
        schemas.load_setup(body) if schema is schemas.SETUP else schemas.load(schema, body)
    )
    if "state" not in data:
        return Received(data)
    sent = data["state"]
    try:
        opened = open_state(sent)
    except ApiError:  # no seal: a view or a whole answer is told as such (engine.protocol)
        wrong = misdirected(sent)
        if wrong is not None:
            raise from_engine(wrong) from None
        raise
    try:
        eng: GameModule | None = engine_for_state(opened.state)
    except InvalidState:  # an unknown game: the state's reader says so
        eng = None
    # the history read unless the seal vouches for it
    data["state"], origin = history.strip(opened.state, eng, opened.authentic, data.get("catalog"))
    return Received(data, sent, opened, origin)


@contextmanager
def engine_errors(**prefixes: str) -> Iterator[None]:
    """Engine errors as 422 problems; `prefixes` say where state/catalog/setup sit."""
    try:
        yield
    except EngineError as e:
        raise from_engine(e, **prefixes) from None
