"""Messages as data (engine/messages.py): a Msg is the English text the engines always wrote,
a `str` in every way, and keeps the template and values it was made of."""

from __future__ import annotations

import copy
import pickle

import orjson
from marshmallow import fields

from app.schemas import templated
from engine.messages import Msg, msg, template


def test_a_message_is_its_english_text() -> None:
    m = msg("{card} is not in your hand.", card="blue.palace")
    assert m == "blue.palace is not in your hand." and isinstance(m, str)
    assert hash(m) == hash("blue.palace is not in your hand.")
    assert orjson.loads(orjson.dumps({"detail": m})) == {"detail": str(m)}
    assert (m.template, m.args) == ("{card} is not in your hand.", {"card": "blue.palace"})
    assert type(m + "!") is str  # what is made from a message is text, not a message
    plain = msg("catalog must be {id, hash}")  # without values, braces are text
    assert plain == plain.template == "catalog must be {id, hash}" and plain.args == {}
    assert msg("catalog must be {id, hash}") is plain  # made once: some are made on every read


def test_messages_hold_messages() -> None:
    part = msg("card ")
    m = msg("unknown {what}field {field}", what=part, field="'x'")
    assert m == "unknown card field 'x'" and m.args["what"] is part


def test_a_message_survives_copies_and_pickling() -> None:
    m = msg("{where}: {why}", where="/seats", why=msg("Not a valid integer."))
    for again in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m), copy.copy(m)):
        assert isinstance(again, Msg) and again == m
        assert again.template == m.template and again.args == m.args
        assert isinstance(again.args["why"], Msg)


def test_a_template_filled_by_marshmallow_stays_a_message() -> None:
    """marshmallow fills a message with str.format and passes values the template does not
    use: a template answers with a message of its template and the values it names."""
    t = template("Must be one of: {choices}.")
    m = t.format(choices="a, b", labels="", input="c")
    assert m == "Must be one of: a, b." and m.template == t and m.args == {"choices": "a, b"}
    field = fields.Integer()
    schema_field = templated_field(field)
    error = schema_field.make_error("invalid")
    assert isinstance(error.messages[0], Msg) and error.messages[0] == "Not a valid integer."


def templated_field(field: fields.Integer) -> fields.Integer:
    from marshmallow import Schema

    schema = templated(Schema.from_dict({"n": field})())
    out = schema.fields["n"]
    assert isinstance(out, fields.Integer)
    return out
