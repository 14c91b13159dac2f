"""marshmallow schemas of the request envelopes (openapi.yaml has the same contract).

Only the envelope is checked here: the engine reads the state, the decisions and a custom
catalog itself and reports every problem with a rule clause (422). Unknown fields are
refused (400), except in a set-up: its fields are its game's, and its engine refuses the
others (422 `unknown_field`, A-1 or F-1). More than MAX_PROBLEMS unknown fields are refused
alike everywhere, a set-up's too, before any is read: 400 `invalid_request` (every request
schema of app/ derives from `Envelope`; a set-up is checked by `load_setup`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection
from typing import Any

from marshmallow import (
    INCLUDE,
    RAISE,
    Schema,
    ValidationError,
    fields,
    missing,
    pre_load,
    validate,
    validates_schema,
)

from app import current
from engine.describe import brief
from engine.errors import MAX_PROBLEMS
from engine.games import DEFAULT_GAME, GAMES, MAX_SEATS, engine, info
from engine.guesses import closest, did_you_mean, guesses
from engine.messages import Msg, msg, template
from engine.setup_fields import seeded

UNKNOWN_FIELD = msg("Unknown field.")  # marshmallow's, for fields left unread


def whole(value: Any) -> Any:
    """`value`, or its integer when it is a whole-number float: JSON Schema's notion of an
    integer (3.0 is 3), for the envelope's fields and a set-up's values alike."""
    return int(value) if type(value) is float and value.is_integer() else value


class JsonInteger(fields.Integer):
    """A JSON integer: a number without a fraction (JSON Schema counts 3.0 as an integer),
    never a boolean or a string."""

    def _validated(self, value: Any) -> int:
        return super()._validated(whole(value))


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
        what: str = msg("entries"),
        **kwargs: Any,
    ) -> None:
        super().__init__(inner, **kwargs)
        self.least, self.most, self.what = least, most, what

    def bound(self) -> int:
        """The most entries allowed now (`most` may read the app's configuration)."""
        return self.most() if callable(self.most) else self.most

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, list):
            most = self.bound()
            if not self.least <= len(value) <= most:
                raise ValidationError(
                    msg(
                        "Must hold {least} to {most} {what}, not {count}.",
                        least=self.least,
                        most=most,
                        what=self.what,
                        count=len(value),
                    )
                )
        return super()._deserialize(value, attr, data, **kwargs)


class JsonBool(fields.Field):  # type: ignore[type-arg]
    """A JSON boolean, never 1 or "true"."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError(msg("Must be true or false."))
        return value


class DecisionItem(fields.Field):  # type: ignore[type-arg]
    """A decision: an object, or the same decision in its game's notation (a string that the
    game's engine reads, engine/<game>/notation.py)."""

    @staticmethod
    def accepts(value: Any) -> bool:
        return isinstance(value, dict) or (isinstance(value, str) and 1 <= len(value) <= 200)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if self.accepts(value):
            return value
        raise ValidationError(
            msg("Must be a decision object or a decision in notation (a string).")
        )


class SeatOrSeats(fields.Field):  # type: ignore[type-arg]
    """A seat, or an array of 1 to MAX_SEATS different seats (each an integer from 0 to
    MAX_SEATS - 1): `events_for` of POST /v1/resolve."""

    @staticmethod
    def normal(value: Any) -> Any:
        """`value` with each whole-number float as its integer (`whole`, docs/http.md)."""
        return [whole(s) for s in value] if type(value) is list else whole(value)

    @staticmethod
    def accepts(value: Any) -> bool:
        seats = value if type(value) is list else [value]
        return (
            1 <= len(seats) <= MAX_SEATS
            and all(type(s) is int and 0 <= s < MAX_SEATS for s in seats)
            and len(set(seats)) == len(seats)
        )

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        value = self.normal(value)
        if not self.accepts(value):
            raise ValidationError(self.wanted())
        return value

    @staticmethod
    def wanted() -> Msg:
        return msg(
            "a seat (an integer from 0 to {hi}) or an array of different seats", hi=MAX_SEATS - 1
        )


def _decisions(least: int, setting: str, what: Msg) -> BoundedList:
    return BoundedList(
        DecisionItem(),
        least=least,
        most=lambda: int(current.config()[setting]),
        what=what,
        required=True,
    )


def refuse_many_unknown(data: dict[str, Any], known: Collection[str]) -> None:
    """More than MAX_PROBLEMS fields of `data` that `known` does not name: refused at once
    (400 `invalid_request`: their count, then the first of them as sent), before any field
    of the body is read. The count looks up only the known names, and the listing stops at
    MAX_PROBLEMS: nothing walks a flood's keys (the body's parse aside), let alone its
    values. marshmallow reports each unknown field (some microseconds apiece: 150,000 took
    half a second), and a set-up's engine would read each."""
    if len(data) <= MAX_PROBLEMS:  # the common case: a comparison
        return
    names = frozenset(known)
    count = len(data) - sum(1 for k in names if k in data)
    if count > MAX_PROBLEMS:
        shown = itertools.islice((k for k in data if k not in names), MAX_PROBLEMS - 1)
        messages = {"_schema": [msg("{count} unknown fields; the first are listed.", count=count)]}
        messages.update({k: [UNKNOWN_FIELD] for k in shown})
        raise ValidationError(messages)


def wanted(field: fields.Field) -> Msg | None:  # type: ignore[type-arg]
    """What a field of an envelope takes, in words ("an integer from 0 to 3"); None for a
    field whose own messages say it."""
    if isinstance(field, JsonInteger):
        lo, hi = _range(field)
        return msg("an integer from {lo} to {hi}", lo=lo, hi=hi)
    if isinstance(field, JsonBool):
        return msg("true or false")
    if isinstance(field, SeatOrSeats):
        return field.wanted()
    if isinstance(field, DecisionItem):
        return msg("a decision object or a decision in notation (a string)")
    if isinstance(field, fields.String):
        return _wanted_string(field)
    if isinstance(field, BoundedList):
        return msg("an array of at most {most} {what}", most=field.bound(), what=field.what)
    if isinstance(field, fields.List):
        item = wanted(field.inner)
        sizes = [v for v in field.validators if isinstance(v, validate.Length)]
        if item is None or not sizes:
            return None
        return msg(
            "an array of {least} to {most} entries, each {item}",
            least=sizes[0].min,
            most=sizes[0].max,
            item=item,
        )
    if isinstance(field, fields.Dict | fields.Nested | SetupField):
        return msg("an object")
    return None


def _range(field: fields.Field) -> tuple[Any, Any]:  # type: ignore[type-arg]
    ranges = [v for v in field.validators if isinstance(v, validate.Range)]
    return (ranges[0].min, ranges[0].max) if ranges else (None, None)


def _wanted_string(field: fields.String) -> Msg:
    for v in field.validators:
        if isinstance(v, validate.OneOf):
            return msg("one of {choices}", choices=guesses([str(c) for c in v.choices]))
        if isinstance(v, validate.Length):
            return msg("a string of {least} to {most} characters", least=v.min, most=v.max)
    return msg("a string")


def refusal(field: fields.Field, name: str, value: Any) -> Msg | None:  # type: ignore[type-arg]
    """The sentence refusing `value` for `field` (sent as `name`): the type and range it
    takes, what was sent, and the closest choices to a misspelt one; None when the field
    itself takes the value (a schema's own check refused it) or its messages say it better
    (an array's length or entries, an object's fields)."""
    want = wanted(field)
    if want is None:
        return None
    if isinstance(value, list) and isinstance(field, fields.List):
        return None
    if isinstance(value, dict) and isinstance(field, fields.Dict | fields.Nested | SetupField):
        return None
    try:
        field.deserialize(value)
    except ValidationError:
        pass
    else:
        return None
    # what the field takes, and what was sent (as the set-up's readers say it,
    # engine/setup_fields.py)
    sentence = msg(
        "{field} must be {wanted}, not {value}.", field=name, wanted=want, value=brief(value)
    )
    choices = [v.choices for v in field.validators if isinstance(v, validate.OneOf)]
    if choices and isinstance(value, str):
        return did_you_mean(sentence, closest(value, [str(c) for c in choices[0]]))
    return sentence


def _refused(field: fields.Field, name: str, value: Any, why: Any) -> Any:  # type: ignore[type-arg]
    """A field's messages, each refusal of its value (or of an array's entry) said as
    `refusal` says it."""
    if isinstance(field, fields.List) and isinstance(value, list) and isinstance(why, dict):
        return {
            i: _refused(field.inner, f"{name}[{i}]", value[i], sub)
            if isinstance(i, int) and 0 <= i < len(value)
            else sub
            for i, sub in why.items()
        }
    sentence = refusal(field, name, value)
    return why if sentence is None else [sentence]


def unknown_field(name: str, known: Collection[str]) -> Msg:
    """The sentence refusing a field a body does not have: the closest known names, or else
    every one of them."""
    found = closest(name, known)
    if found:
        return did_you_mean(UNKNOWN_FIELD, found)
    return msg("Unknown field; this request takes {known}.", known=guesses(sorted(known)))


class Envelope(Schema):
    """A request envelope, the base of every request schema (nested ones too): unknown fields
    are refused, and more of them than MAX_PROBLEMS at once before anything is read
    (`refuse_many_unknown`; a set-up, whose fields are its game's, by `load_setup`). A
    refusal says what the field takes (`refusal`), and an unknown name the closest known
    ones, as the games' readers do."""

    def handle_error(self, error: ValidationError, data: Any, **kwargs: Any) -> None:
        messages = error.messages
        if not isinstance(data, dict) or not isinstance(messages, dict):
            return
        by_name = {f.data_key or name: f for name, f in self.load_fields.items()}
        out = dict(messages)
        for key, why in messages.items():
            field = by_name.get(key)
            if field is not None and key in data:
                out[key] = _refused(field, str(key), data[key], why)
            elif field is None and key in data and len(data) <= MAX_PROBLEMS:
                out[key] = [unknown_field(str(key), list(by_name))]
        # unknown fields in the body's order: marshmallow finds them as a set, whose order
        # changes with the process's string hashing (PYTHONHASHSEED), so two servers answered
        # the same body differently (audit of 2026-11-29). (A flood is listed in the body's
        # order already, by `refuse_many_unknown`.)
        ordered = list(out)
        if len(data) <= MAX_PROBLEMS:
            at = {k: i for i, k in enumerate(data)}
            unknown = sorted((k for k in out if k not in by_name and k in at), key=at.__getitem__)
            ordered = [k for k in out if k in by_name or k not in at] + unknown
        if out != messages or ordered != list(messages):
            out = {k: out[k] for k in ordered}
            raise ValidationError(out, data=error.data, valid_data=error.valid_data)

    @pre_load
    def _few_unknown(self, data: Any, **kwargs: Any) -> Any:
        unknown = kwargs.get("unknown") or self.unknown  # load(unknown=...) or the Meta's
        if isinstance(data, dict) and len(data) > MAX_PROBLEMS and unknown == RAISE:
            # the names a body uses (`data_key`: /v1/suggest's `async`), not the attributes'
            known = [f.data_key or name for name, f in self.load_fields.items()]
            refuse_many_unknown(data, known)
        return data


def _passed_on(default: Any = missing) -> fields.Raw:
    """A set-up field: its value is its game's to read (the engine names the clause)."""
    return fields.Raw(load_default=default, allow_none=True)


def _setup_schema(game: str) -> type[Schema]:
    """The schema of a game's set-up fields (engine.registry.GameInfo's `setup_order`, with
    its `setup_defaults`): each value passed on as sent, unknown fields included. Their values
    are the game's: its engine reads them as it reads a state, every problem a 422 naming its
    clause (a field it does not have too: `unknown_field`), as every game's engine does."""
    facts = info(game)
    attrs: dict[str, Any] = {
        name: _passed_on(facts.setup_defaults.get(name, missing)) for name in facts.setup_order
    }
    attrs["Meta"] = type("Meta", (), {"unknown": INCLUDE})
    attrs["__module__"] = __name__
    attrs["__doc__"] = (
        "POST /v1/games, and the `setup` of POST /v1/replay, for the default game: its fields, "
        "with the defaults the state's history writes out (their values are its engine's to "
        "read, every problem a 422 naming its clause)."
    )
    return type("SetupSchema", (Schema,), attrs)


SetupSchema = _setup_schema(DEFAULT_GAME)


class GameSetupSchema(Schema):
    """The set-up of any other registered game: only `game` is read here, to choose the engine
    that reads the rest (422 naming the clause). A new game therefore needs no schema of its
    own in app/."""

    class Meta:
        unknown = INCLUDE

    # the registry's games as they are when a set-up is read (a game registered later too)
    game = fields.String(required=True, validate=validate.OneOf(GAMES))
    catalog = _passed_on("reference")


def load_setup(value: Any) -> dict[str, Any]:
    """A set-up, as its game's engine is to read it (the default game when `game` is absent):
    an object whose `game` names a game (400 otherwise), the defaults written out (and a
    seed chosen at random when it gives none)."""
    if not isinstance(value, dict):
        raise ValidationError(msg("A set-up must be an object."))
    game = value.get("game", DEFAULT_GAME)
    if game != DEFAULT_GAME:
        GAME_SETUP.load({"game": game})  # a `game` naming no game: marshmallow's 400
    # a flood of fields its game does not have: the envelope's 400, before any is read or
    # copied (fewer are the engine's to refuse, each a 422 naming its clause)
    refuse_many_unknown(value, engine(game).SETUP_KEYS)
    # The game's set-up fields in their order (engine.registry.GameInfo.setup_order), each
    # value as sent or its default, then the fields it does not have, for the engine to
    # refuse: what its schema's load gives, without copying a hostile set-up's many unknown
    # fields through marshmallow first.
    # A set-up without a seed: one chosen at random, written in (so the state's history
    # names it and the game replays; engine.setup_fields.seeded).
    if "seed" in engine(game).SETUP_KEYS:
        value = seeded(value)
    facts = info(game)
    out: dict[str, Any] = {}
    for name in facts.setup_order:
        if name in value:
            out[name] = value[name]
        elif name in facts.setup_defaults:
            out[name] = facts.setup_defaults[name]
    for k, v in value.items():
        out.setdefault(k, v)
    # JSON Schema's notion of an integer, for a set-up's values as for the envelope's: 3.0
    # is 3 (in the state's history too)
    return {k: whole(v) for k, v in out.items()}


class SetupField(fields.Field):  # type: ignore[type-arg]
    """A nested set-up of any game (POST /v1/replay)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        return load_setup(value)


class StateSchema(Envelope):
    """POST /v1/legal-moves, /v1/validate, /v1/score."""

    state = fields.Dict(required=True)
    catalog = fields.Dict()


class ResolveSchema(StateSchema):
    # decisions applied in one request; a replay reads a whole game's (MAX_HISTORY)
    decisions = _decisions(1, "MAX_DECISIONS", msg("decisions (MAX_DECISIONS)"))
    # a seat's copy of the events (`events`), or several seats' (`events_by_seat`)
    events_for = SeatOrSeats()
    notation = JsonBool()  # each event names its decision in notation


class ViewSchema(StateSchema):
    seat = _strict_int(required=True, validate=validate.Range(0, MAX_SEATS - 1))


class ReplaySchema(Envelope):
    state = fields.Dict()
    setup = SetupField()
    decisions = _decisions(0, "MAX_HISTORY", msg("decisions (MAX_HISTORY)"))
    catalog = fields.Dict()
    notation = JsonBool()
    record = fields.Dict()  # the header of a game record (POST /v1/record), checked on replay

    @validates_schema
    def _one_start(self, data: dict[str, Any], **kwargs: Any) -> None:
        exactly_one(
            data, "state", "setup", msg("Give exactly one of state (a starting state) or setup.")
        )
        own_catalog(data)


def own_catalog(data: dict[str, Any]) -> None:
    """A set-up reads only its own catalog: one sent beside it would be ignored, so it is
    refused (/v1/replay, /v1/review)."""
    if "setup" in data and "catalog" in data:
        raise ValidationError(
            msg(
                "A set-up carries its own catalog: send a custom catalog as setup.catalog "
                "(a catalog document), not beside the set-up."
            ),
            "catalog",
        )


def exactly_one(data: dict[str, Any], a: str, b: str, sentence: Msg) -> None:
    """A body's two alternatives: exactly one of fields `a` and `b` (else `sentence`)."""
    if (a in data) == (b in data):
        raise ValidationError(sentence)


SETUP = SetupSchema()
GAME_SETUP = GameSetupSchema()
STATE = StateSchema()
RESOLVE = ResolveSchema()
VIEW = ViewSchema()
REPLAY = ReplaySchema()


# The fast path. A request's envelope is nearly always well formed; marshmallow's machinery
# (a schema run, an error store, a call or two per field) was about 4 % of a /v1/resolve
# (issue 10). `load` first checks each value plainly against its field's own declaration
# (the same kinds, lengths and ranges); marshmallow reads whatever does not plainly pass and
# reports every problem, so the answer is the same either way (tests/http/test_schemas_fast.py).
Plain = Callable[[Any], tuple[bool, Any]]  # (passes, the value as marshmallow loads it)


def _plain_int(field: fields.Field) -> Plain | None:  # type: ignore[type-arg]
    bounds = []
    for v in field.validators:
        if not isinstance(v, validate.Range) or not (v.min_inclusive and v.max_inclusive):
            return None
        bounds.append((v.min, v.max))

    def check(x: Any) -> tuple[bool, Any]:  # an int, never a bool (a float goes the long way)
        ok = type(x) is int and all(
            (lo is None or lo <= x) and (hi is None or x <= hi) for lo, hi in bounds
        )
        return ok, x

    return check


def _plain_list(field: BoundedList) -> Plain | None:
    item = _plain(field.inner)
    if item is None or field.validators:
        return None

    def check(x: Any) -> tuple[bool, Any]:
        if type(x) is not list or not field.least <= len(x) <= field.bound():
            return False, x
        out = []
        for v in x:
            ok, v = item(v)
            if not ok:
                return False, x
            out.append(v)
        return True, out

    return check


def _plain(field: fields.Field) -> Plain | None:  # type: ignore[type-arg]
    """The plain check of a field kind this module declares, None for any other."""
    kind = type(field)
    if kind is JsonInteger and field.strict:  # type: ignore[attr-defined]
        return _plain_int(field)
    if kind is BoundedList:
        return _plain_list(field)  # type: ignore[arg-type]
    if field.validators:
        return None
    if kind is fields.Dict and field.key_field is None and field.value_field is None:  # type: ignore[attr-defined]
        return lambda x: (type(x) is dict, dict(x) if type(x) is dict else x)
    if kind is JsonBool:
        return lambda x: (type(x) is bool, x)
    if kind is DecisionItem:
        return lambda x: (DecisionItem.accepts(x), x)
    if kind is SeatOrSeats:
        return lambda x: (SeatOrSeats.accepts(n := SeatOrSeats.normal(x)), n)
    return None


# messages marshmallow may write (validator attributes; Range and Length pick one of these)
VALIDATOR_MESSAGES = ("error", "message_min", "message_max", "message_all", "message_equal")
_TEMPLATED: dict[int, Schema] = {}  # the schemas made templated(), by id (kept alive)


def templated(schema: Schema) -> Schema:
    """`schema`, each message marshmallow may write for it (its own, its fields', their
    validators', its nested schemas') made a template (engine/messages.py) in place:
    marshmallow fills its messages with `format`, which a template answers with a message
    that keeps its template and values, translated like every other (app/i18n.py)."""
    return map_messages(schema, _template)


def _template(message: Any) -> Any:
    return (
        template(message) if isinstance(message, str) and not isinstance(message, Msg) else message
    )


def map_messages(schema: Schema, f: Callable[[Any], Any]) -> Schema:
    """Each message marshmallow may write for `schema` replaced by `f(message)`, in place
    (what `templated` does; what tests/i18n_support.py reads the messages with)."""
    schema.error_messages = {k: f(m) for k, m in schema.error_messages.items()}
    for fd in schema.fields.values():
        _map_field(fd, f)
    return schema


def _map_field(fd: fields.Field, f: Callable[[Any], Any]) -> None:  # type: ignore[type-arg]
    fd.error_messages = {k: f(m) for k, m in fd.error_messages.items()}
    for v in fd.validators:
        for attr in VALIDATOR_MESSAGES:
            if isinstance(getattr(v, attr, None), str):
                setattr(v, attr, f(getattr(v, attr)))
    for sub in ("inner", "key_field", "value_field"):
        inner = getattr(fd, sub, None)
        if isinstance(inner, fields.Field):
            _map_field(inner, f)
    if isinstance(fd, fields.Nested) and isinstance(fd.schema, Schema):
        map_messages(fd.schema, f)


templated(GAME_SETUP)  # loaded by itself, not by load()

_PLAIN: dict[int, tuple[Schema, dict[str, tuple[Plain, bool, Any]] | None]] = {}


def _plain_schema(schema: Schema) -> dict[str, tuple[Plain, bool, Any]] | None:
    """Each field's plain check, whether it is required and its load default; None when a
    field or a schema hook is beyond the fast path (marshmallow reads every such body)."""
    known = _PLAIN.get(id(schema))  # the module's few schemas live as long as the process
    if known is not None and known[0] is schema:
        return known[1]
    checks: dict[str, tuple[Plain, bool, Any]] | None = None
    hooks = {k: [h[0] for h in v] for k, v in schema._hooks.items() if v}
    if schema.unknown == RAISE and hooks in ({}, {"pre_load": ["_few_unknown"]}):
        checks = {}
        for name, field in schema.fields.items():
            plain = _plain(field)
            if plain is None or field.data_key not in (None, name):
                checks = None
                break
            checks[name] = (plain, field.required, field.load_default)
    _PLAIN[id(schema)] = (schema, checks)
    return checks


def load(schema: Schema, body: dict[str, Any]) -> dict[str, Any]:
    """`schema.load(body)`: the same data, or the same ValidationError."""
    if id(schema) not in _TEMPLATED:
        _TEMPLATED[id(schema)] = templated(schema)
    checks = _plain_schema(schema) if len(body) <= len(schema.fields) else None
    if checks is not None and all(k in checks for k in body):
        out: dict[str, Any] = {}
        for name, (plain, required, default) in checks.items():
            if name in body:
                ok, value = plain(body[name])
                if not ok:
                    break
                out[name] = value
            elif required:
                break
            elif default is not missing:
                out[name] = default() if callable(default) else default
        else:
            return out
    loaded: dict[str, Any] = schema.load(body)
    return loaded
