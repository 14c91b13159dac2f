"""marshmallow schemas of the request envelopes (openapi.yaml has the same contract).

Only the envelope is checked here: the engine reads the state, the decisions and a custom
catalog itself and reports every problem with a rule clause (422). Unknown fields are
refused (400).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any

from flask import current_app
from marshmallow import (
    INCLUDE,
    RAISE,
    Schema,
    ValidationError,
    fields,
    pre_load,
    validate,
    validates_schema,
)

from engine.errors import MAX_PROBLEMS
from engine.games import DEFAULT_GAME, GAMES

MAX_SEED = 2**64 - 1


class CatalogSpec(fields.Field):  # type: ignore[type-arg]
    """A built-in catalog's id (a string) or a whole catalog document (an object)."""

    def _deserialize(
        self, value: Any, attr: str | None, data: Any, **kwargs: Any
    ) -> str | dict[str, Any]:
        if isinstance(value, str):
            if not 1 <= len(value) <= 64:
                raise ValidationError("A catalog id has 1 to 64 characters.")
            return value
        if isinstance(value, dict):
            return value
        raise ValidationError("Must be a catalog id (string) or a catalog document (object).")


class JsonInteger(fields.Integer):
    """A JSON integer: a number without a fraction (JSON Schema counts 3.0 as an integer),
    never a boolean or a string."""

    def _validated(self, value: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return super()._validated(value)


def _strict_int(**kwargs: Any) -> fields.Integer:
    return JsonInteger(strict=True, **kwargs)


class BoundedList(fields.List):  # type: ignore[type-arg]
    """A list whose length is checked before its items: marshmallow checks (and reports)
    every item first, so a million bad items would make a million problems."""

    def __init__(
        self,
        inner: fields.Field,  # type: ignore[type-arg]
        *,
        least: int = 0,
        most: int | Callable[[], int],
        what: str = "entries",
        **kwargs: Any,
    ) -> None:
        super().__init__(inner, **kwargs)
        self.least, self.most, self.what = least, most, what

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, list):
            most = self.most() if callable(self.most) else self.most
            if not self.least <= len(value) <= most:
                raise ValidationError(
                    f"Must hold {self.least} to {most} {self.what}, not {len(value)}."
                )
        return super()._deserialize(value, attr, data, **kwargs)


class JsonBool(fields.Field):  # type: ignore[type-arg]
    """A JSON boolean, never 1 or "true"."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("Must be true or false.")
        return value


class DecisionItem(fields.Field):  # type: ignore[type-arg]
    """A decision: an object, or the same decision in its game's notation (a string that the
    game's engine reads, engine/<game>/notation.py)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, dict):
            return value
        if isinstance(value, str) and 1 <= len(value) <= 200:
            return value
        raise ValidationError("Must be a decision object or a decision in notation (a string).")


class BoundedDict(fields.Dict):
    """{string: string} of at most `most` entries, its size checked before its entries (a
    seat's replacements: one per basic card at most, A-1.5)."""

    def __init__(self, *, most: int, **kwargs: Any) -> None:
        super().__init__(keys=fields.String(), values=fields.String(), **kwargs)
        self.most = most

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, dict) and len(value) > self.most:
            raise ValidationError(f"Must hold at most {self.most} entries, not {len(value)}.")
        return super()._deserialize(value, attr, data, **kwargs)  # type: ignore[no-untyped-call]


def _decisions(least: int) -> BoundedList:
    return BoundedList(
        DecisionItem(),
        least=least,
        most=lambda: int(current_app.config["MAX_DECISIONS"]),
        what="decisions (MAX_DECISIONS)",
        required=True,
    )


class Envelope(Schema):
    """A request envelope: unknown fields are refused, and more of them than MAX_PROBLEMS
    at once, before marshmallow reports each (some microseconds apiece: 150,000 took a
    second)."""

    @pre_load
    def _few_unknown(self, data: Any, **kwargs: Any) -> Any:
        if isinstance(data, dict) and self.unknown == RAISE:
            extra = set(data).difference(self.fields)
            if len(extra) > MAX_PROBLEMS:
                shown = heapq.nsmallest(MAX_PROBLEMS - 1, extra)
                messages = {"_schema": [f"{len(extra)} unknown fields; the first are listed."]}
                messages.update({k: ["Unknown field."] for k in shown})
                raise ValidationError(messages)
        return data


class SetupSchema(Envelope):
    """POST /v1/games, and the `setup` of POST /v1/replay, for Architectura (A-1), the default
    game: its whole set-up is checked here."""

    game = fields.String(validate=validate.Equal(DEFAULT_GAME))
    seats = _strict_int(required=True, validate=validate.Range(2, 4))
    seed = _strict_int(required=True, validate=validate.Range(0, MAX_SEED))
    variant = fields.String(load_default="basic", validate=validate.OneOf(["basic", "advanced"]))
    first_seat = _strict_int(load_default=0, validate=validate.Range(0, 3))
    colours = BoundedList(fields.String(), least=2, most=4, what="colours")
    replacements = BoundedList(BoundedDict(most=12), most=4, what="seats")
    catalog = CatalogSpec(load_default="reference")


class GameSetupSchema(Schema):
    """The set-up of any other registered game: the envelope (game, seats, seed, catalog) is
    checked here; the game's own options pass through to its engine, which checks them and
    names the clause (422). A new game therefore needs no schema of its own in app/."""

    class Meta:
        unknown = INCLUDE

    game = fields.String(required=True, validate=validate.OneOf(list(GAMES)))
    seats = _strict_int(required=True, validate=validate.Range(1, 16))
    seed = _strict_int(required=True, validate=validate.Range(0, MAX_SEED))
    catalog = CatalogSpec(load_default="reference")


def load_setup(value: Any) -> dict[str, Any]:
    """A set-up checked by its game's schema (Architectura when `game` is absent)."""
    if not isinstance(value, dict):
        raise ValidationError("A set-up must be an object.")
    schema = SETUP if value.get("game", DEFAULT_GAME) == DEFAULT_GAME else GAME_SETUP
    out: dict[str, Any] = schema.load(value)
    return out


class SetupField(fields.Field):  # type: ignore[type-arg]
    """A nested set-up of any game (POST /v1/replay)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        return load_setup(value)


class StateSchema(Envelope):
    """POST /v1/legal-moves, /v1/validate, /v1/score."""

    state = fields.Dict(required=True)
    catalog = fields.Dict()


class ResolveSchema(StateSchema):
    decisions = _decisions(1)
    events_for = _strict_int(validate=validate.Range(0, 3))
    notation = JsonBool()  # each event names its decision in notation


class ViewSchema(StateSchema):
    seat = _strict_int(required=True, validate=validate.Range(0, 3))


class ReplaySchema(Envelope):
    state = fields.Dict()
    setup = SetupField()
    decisions = _decisions(0)
    catalog = fields.Dict()
    notation = JsonBool()
    record = fields.Dict()  # the header of a game record (POST /v1/record), checked on replay

    @validates_schema
    def _one_start(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("state" in data) == ("setup" in data):
            raise ValidationError("Give exactly one of state (a starting state) or setup.")


SETUP = SetupSchema()
GAME_SETUP = GameSetupSchema()
STATE = StateSchema()
RESOLVE = ResolveSchema()
VIEW = ViewSchema()
REPLAY = ReplaySchema()
