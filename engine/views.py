"""A seat's view sent by a client, read back into a world (POST /v1/suggest, /v1/render):
only exactly what POST /v1/view answers for some valid state is taken, its null fields left
out or not; anything else is refused with the first field that differs, never drawn or searched
as sent (a view is checked against the view of the state rebuilt from it)."""

from __future__ import annotations

from typing import Any

from engine.canonical import digest
from engine.declared import is_int
from engine.describe import short_repr
from engine.errors import EngineError, IllegalDecision, InvalidState, Problem
from engine.games import GameModule, engine_for_state, nulls_written
from engine.messages import msg
from engine.protocol import view_mismatch, with_nulls


class InvalidView(InvalidState):
    """A document sent as a seat's view that is not one (code `invalid_view`); every problem
    is listed, pointers relative to the view."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems)
        self.code = "invalid_view"


def engine_of(doc: Any, is_view: bool) -> GameModule:
    """The game a state, or a seat's view, names; one that names none is refused as what it
    was sent as (InvalidState, or InvalidView: /v1/suggest and /v1/render alike)."""
    try:
        return engine_for_state(doc)
    except InvalidState as e:
        raise e if not is_view else InvalidView(e.problems) from None


def load_view(eng: GameModule, view: dict[str, Any], seat: int | None, cat: Any) -> tuple[Any, Any]:
    """A full state consistent with `view` and the world sampler built on it; refuses (422)
    anything that is not exactly the view /v1/view answers for `seat` of some valid state,
    its null fields left out or not (`with_nulls`), naming the first field that differs.
    Pointers of problems are relative to the view."""
    if not isinstance(view, dict):
        raise InvalidView([Problem("invalid_view", msg("A view is a JSON object."))])
    if "view_of" not in view:
        raise InvalidView([not_a_view(view)])
    view_of = view["view_of"]
    if not is_int(view_of):
        # as /v1/view writes it, an integer: 0.0 or false passed for seat 0 and then failed
        # inside the compiled world builder, said differently by each engine (audit of
        # 2026-11-30)
        raise InvalidView(
            [
                Problem(
                    "invalid_view",
                    msg(
                        "view_of is the seat whose view this is, an integer as /v1/view "
                        "writes it, not {value}: send the view /v1/view answered, unchanged.",
                        value=short_repr(view_of),
                    ),
                    "/view_of",
                    eng.INFO.view_clause,
                )
            ]
        )
    if seat is None:  # the view's own seat
        seat = view_of
    if view_of != seat:
        whose = msg(
            "This view is seat {view_of}'s (its view_of); a suggestion for seat {seat} "
            "needs seat {seat2}'s own view.",
            view_of=view_of,
            seat=seat,
            seat2=seat,
        )
        raise IllegalDecision("wrong_view", whose, eng.INFO.view_clause, "/view/view_of")
    view = nulls_written(eng, view)
    try:
        sampler = eng.WorldSampler(view, cat)
        expected = eng.game_view(sampler.base, seat)
        # the nulls the template could not place (in a city's cards, say) from the view of
        # the state rebuilt from it: every one of its null fields may be left out
        mismatch = (
            None
            if digest(expected) == digest(view)  # the common case, in C
            else view_mismatch(with_nulls(view, expected), expected, eng.INFO.view_clause)
        )
    except InvalidState as e:  # the state rebuilt from it is inconsistent
        raise InvalidView(e.problems) from None
    except EngineError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        # the engine's world builder assumes the shape /v1/view writes; any other shape
        # fails somewhere inside it, and that is exactly "not a view"
        raise InvalidView(
            [
                Problem(
                    "invalid_view",
                    msg(
                        "This is not a view as /v1/view answers it ({error}): send a view "
                        "/v1/view gave, unchanged (its nulls left out or not), or the state "
                        "itself as `state`.",
                        error=type(e).__name__,
                    ),
                )
            ]
        ) from None
    if mismatch is not None:
        raise InvalidView([mismatch])
    return sampler.base, sampler


def not_a_view(doc: dict[str, Any]) -> Problem:
    """A document sent as a view without `view_of`: a state (it has its `rng`, or the
    `sealed` part of an encrypted one) is told to be sent as `state`; anything else, what a
    view is."""
    if "sealed" in doc and "seal" in doc:
        said, where = (
            msg(
                "This is an encrypted state (sealed), not a seat's view: send it as `state` "
                "(the seat's view is taken from it), or send what POST /v1/view answers as "
                "`view`."
            ),
            "/sealed",
        )
    elif isinstance(doc.get("rng"), str):
        said, where = (
            msg(
                "This is a state (it has its rng), not a seat's view: send it as `state` "
                "(the seat's view is taken from it), or send what POST /v1/view answers as "
                "`view`."
            ),
            "/rng",
        )
    else:
        return Problem(
            "invalid_view",
            msg("A view names its seat (view_of): send what POST /v1/view answers, unchanged."),
            "/view_of",
        )
    return Problem("state_not_view", said, where)
