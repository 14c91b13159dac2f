"""marshmallow schemas of the request envelopes (openapi.yaml has the same contract).

Only the envelope is checked here: the engine reads the state, the decisions and a custom
catalog itself and reports every problem with a rule clause (422). Unknown fields are
refused (400).
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

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


class SetupSchema(Schema):
    """POST /v1/games, and the `setup` of POST /v1/replay (A-1)."""

    seats = _strict_int(required=True, validate=validate.Range(2, 4))
    seed = _strict_int(required=True, validate=validate.Range(0, MAX_SEED))
    variant = fields.String(load_default="basic", validate=validate.OneOf(["basic", "advanced"]))
    first_seat = _strict_int(load_default=0, validate=validate.Range(0, 3))
    colours = fields.List(fields.String(), validate=validate.Length(2, 4))
    replacements = fields.List(
        fields.Dict(keys=fields.String(), values=fields.String()), validate=validate.Length(0, 4)
    )
    catalog = CatalogSpec(load_default="reference")


class StateSchema(Schema):
    """POST /v1/legal-moves, /v1/validate, /v1/score."""

    state = fields.Dict(required=True)
    catalog = fields.Dict()


class ResolveSchema(StateSchema):
    decisions = fields.List(fields.Dict(), required=True)
    events_for = _strict_int(validate=validate.Range(0, 3))


class ViewSchema(StateSchema):
    seat = _strict_int(required=True, validate=validate.Range(0, 3))


class ReplaySchema(Schema):
    state = fields.Dict()
    setup = fields.Nested(SetupSchema)
    decisions = fields.List(fields.Dict(), required=True)
    catalog = fields.Dict()

    @validates_schema
    def _one_start(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("state" in data) == ("setup" in data):
            raise ValidationError("Give exactly one of state (a starting state) or setup.")


SETUP = SetupSchema()
STATE = StateSchema()
RESOLVE = ResolveSchema()
VIEW = ViewSchema()
REPLAY = ReplaySchema()
