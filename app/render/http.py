"""POST /v1/render: an SVG picture of a state or of a seat's view (docs/render.md).

The document is read by its game's engine first (a state through the strict reader, a view
through the world sampler, which re-reads it as a state), and the picture is drawn from what
the engine gives back: a state as checked, or the view re-derived from the engine's game. The
drawing code therefore never walks raw client JSON, and every text it shows is escaped. Labels
and card names are drawn in the language `Accept-Language` asks for (app/i18n.py; msgctxt
"render" holds the picture's own labels), which `Content-Language` names.
"""

from __future__ import annotations

from functools import partial
from typing import Any, cast

from flask import Blueprint, Response, request
from marshmallow import fields, validate, validates_schema

from app.endpoint import engine_errors, read_body
from app.errors import ApiError, from_engine
from app.i18n import gettext, negotiate
from app.query import reads_query
from app.render import LEGENDS, MAX_SVG_BYTES, RENDERERS
from app.render.marks import last_events_field, marks
from app.schemas import Envelope, _strict_int, exactly_one
from engine.canonical import same
from engine.errors import EngineError
from engine.games import (
    GAMES,
    MAX_SEATS,
    GameModule,
    unknown_game,
)
from engine.messages import Msg, msg
from engine.render.board import Board
from engine.views import InvalidView, engine_of, load_view, not_a_view

bp = Blueprint("render", __name__, url_prefix="/v1")

SVG = "image/svg+xml"
# An SVG opened on its own is a document that could run script: it may use only its own inline
# <style> (and the patterns it defines), nothing else, and is sandboxed (no script, no forms,
# an opaque origin) whatever it contains.
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"


class RenderSchema(Envelope):
    state = fields.Dict()
    view = fields.Dict()
    seat = _strict_int(validate=validate.Range(0, MAX_SEATS - 1))
    catalog = fields.Dict()
    preview = fields.Dict()  # one option of the pending decision, drawn as if taken
    last_events = last_events_field()
    columns = _strict_int(validate=validate.Range(1, MAX_SEATS))  # seats' panels side by side

    @validates_schema
    def _one_document(self, data: dict[str, Any], **kwargs: Any) -> None:
        sentence = msg("Give exactly one of state (a game state) or view (a seat's view).")
        exactly_one(data, "state", "view", sentence)


RENDER = RenderSchema()


def _engine(doc: dict[str, Any], where: str) -> GameModule:
    with engine_errors(state=where):
        eng = engine_of(doc, where == "/view")
    if eng.INFO.id not in RENDERERS:
        raise ApiError(
            422,
            "no_renderer",
            msg("No picture is drawn for {game} yet.", game=repr(eng.INFO.id)),
            f"{where}/game",
        )
    return eng


def _from_state(body: dict[str, Any]) -> tuple[GameModule, Any, dict[str, Any], int | None]:
    eng = _engine(body["state"], "/state")
    seat = body.get("seat")
    with engine_errors():
        g = eng.load(body["state"], body.get("catalog"))
        doc = body["state"] if seat is None else eng.game_view(g, seat)
    return eng, g, doc, seat


def _previewed(body: dict[str, Any], doc: dict[str, Any]) -> dict[str, Any] | None:
    """The decision to draw as a preview: one of the options of the pending decision that the
    picture shows (a view lists them only for its own seat), else 422 `invalid_preview`. It is
    only drawn, never applied: no state is made and nothing is drawn or dealt."""
    if "preview" not in body:
        return None
    pending = doc.get("pending")
    options = pending.get("options") if isinstance(pending, dict) else None
    # as JSON, types included: {"seat": 0.0, "r": false} is no option (audit of 2026-11-30)
    if not isinstance(options, list) or not any(same(body["preview"], o) for o in options):
        raise ApiError(
            422,
            "invalid_preview",
            msg(
                "A preview must be one of the options of the pending decision this picture "
                "shows (as POST /v1/legal-moves lists them, for the picture's own seat)."
            ),
            "/preview",
        )
    return cast(dict[str, Any], body["preview"])


def _bad_view(detail: Msg, pointer: str = "/view") -> ApiError:
    return ApiError(422, "invalid_view", detail, pointer)


def _from_view(body: dict[str, Any]) -> tuple[GameModule, Any, dict[str, Any], int]:
    view = body["view"]
    eng = _engine(view, "/view")
    seats = view.get("seats")
    viewer = view.get("view_of")
    if viewer is None:  # a state sent as a view is told to send it as `state`, as /v1/suggest does
        raise from_engine(InvalidView([not_a_view(view)]), state="/view")
    if not isinstance(seats, list) or not seats:
        raise _bad_view(msg("A view lists its seats (seats: an array)."), "/view/seats")
    if not isinstance(viewer, int) or isinstance(viewer, bool) or not 0 <= viewer < len(seats):
        raise _bad_view(
            msg("view_of must be the viewing seat, 0..{last}.", last=len(seats) - 1),
            "/view/view_of",
        )
    if body.get("seat", viewer) != viewer:
        raise ApiError(
            422,
            "seat_not_viewer",
            msg(
                "This view is seat {viewer}'s; it cannot be drawn for seat {seat}.",
                viewer=viewer,
                seat=body["seat"],
            ),
            "/seat",
        )
    try:
        cat = eng.get_catalog(body["catalog"]) if "catalog" in body else None
        # exactly a view /v1/view answers, or refused (as /v1/suggest refuses it): never
        # drawn from what the state rebuilt from a doctored view would show instead
        g, _ = load_view(eng, view, viewer, cat)
        doc = eng.game_view(g, viewer)
    except EngineError as e:
        raise from_engine(e, state="/view") from None
    return eng, g, doc, viewer


@bp.post("/render")
def render() -> Response:
    """The board as SVG, from the referee's side (a state) or one seat's (`seat`, or a view)."""
    req = read_body(RENDER)
    body = req.body
    eng, g, doc, viewer = _from_view(body) if "view" in body else _from_state(body)
    preview = _previewed(body, doc)
    with engine_errors():
        scores = eng.final_scores(g)
    lang = negotiate()
    composed = "state" in body and req.origin.composed
    svg = RENDERERS[eng.INFO.id](
        Board(
            doc=doc,
            game=g,
            viewer=viewer,
            scores=scores,
            translate=partial(gettext, lang),
            composed=composed,
            preview=preview,
            marks=marks(body.get("last_events")),
            columns=body.get("columns"),
        )
    )
    data = svg.encode("utf-8")
    if len(data) > MAX_SVG_BYTES:
        raise ApiError(
            422,
            "picture_too_large",
            msg(
                "The picture would take {size} bytes (at most {most}).",
                size=len(data),
                most=MAX_SVG_BYTES,
            ),
            "",
        )
    return _svg(data, lang)


def _svg(data: bytes, lang: str) -> Response:
    """A picture's answer: sandboxed, in the language it was drawn in."""
    answer = Response(data, mimetype=SVG)
    answer.headers["Content-Security-Policy"] = SVG_CSP
    answer.headers["Content-Language"] = lang
    answer.vary.add("Accept-Language")
    return answer


@bp.get("/legend")
@reads_query("game")
def legend() -> Response:
    """What every symbol of a game's pictures means, drawn as they are (SVG)."""
    game = request.args.get("game")
    if game is None:  # required: a 400, as any missing field (was a 404 for the game '')
        detail = msg("The query parameter game is required: send ?game=<a game's id>.")
        problem = {"code": "missing_field", "detail": detail, "pointer": "/game"}
        raise ApiError(400, "invalid_request", detail, "/game", problems=[problem])
    if game not in GAMES:
        raise ApiError(404, "unknown_game", unknown_game(game), "/game")
    if game not in LEGENDS:
        sentence = msg("No legend is drawn for {game} yet.", game=repr(game))
        raise ApiError(404, "no_renderer", sentence, "/game")
    lang = negotiate()
    svg = LEGENDS[game](Board.for_legend(partial(gettext, lang)))
    return _svg(svg.encode("utf-8"), lang)
