"""JSON in and out: strict parsing and deterministic, fast serialization (orjson).

Responses keep the engine's key order (a sealed state embeds its sorted bytes, `Written`), so
the same request always yields byte-identical bodies. Parsing is strict JSON: no
NaN/Infinity, at most MAX_DEPTH levels of nesting, and no object with the same key twice
(orjson would silently keep the last one, so two readers of one body could disagree on what
it says).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask import Response

from engine.errors import short_repr
from engine.messages import Msg, msg

JSON = "application/json"
PROBLEM_JSON = "application/problem+json"
# orjson.dumps refuses deeper values: the round trip in `loads` is the depth check. No
# legitimate body comes near (a state is 7 levels deep), and every later step (error
# messages, comparisons, copies) then runs far from Python's recursion limit.
MAX_DEPTH = 254


# What orjson says of a body it cannot read (the start of its English message), in our words,
# so that the detail is translated whole; a message it may add later is quoted as it is.
PARSER_SAYS: tuple[tuple[str, Msg], ...] = (
    ("unexpected end of data", msg("the body ends before the JSON value does")),
    ("unexpected character, expected a string key", msg("a key (a string) was expected")),
    ("unexpected character, expected ':'", msg("a colon was expected after a key")),
    ("unexpected character, expected a JSON value", msg("a JSON value was expected")),
    ("unexpected character", msg("an unexpected character")),
    ("unexpected content after document", msg("something follows the JSON value")),
    ("invalid escaped sequence", msg("a string holds an invalid escape sequence")),
    ("invalid literal", msg("an unknown word (only true, false and null are JSON words)")),
    ("number with leading zero", msg("a number starts with a zero")),
    ("number is infinity", msg("a number is too large")),
    ("unexpected control character", msg("a string holds a control character")),
    ("str is not valid UTF-8", msg("the body is not valid UTF-8")),
    ("no low surrogate", msg("a string holds an unpaired surrogate")),
    ("no high surrogate", msg("a string holds an unpaired surrogate")),
    ("trailing comma", msg("a trailing comma")),
    (
        "UTF-8 byte order mark",
        msg("the body starts with a byte order mark (send UTF-8 without it)"),
    ),
)


def parser_reason(e: orjson.JSONDecodeError) -> Msg:
    """Why orjson refused a body, as a message of ours (PARSER_SAYS); a reason it does not
    list, quoted in the parser's English and said to be the parser's."""
    for start, said in PARSER_SAYS:
        if e.msg.startswith(start):
            return said
    return msg("the JSON parser says {reason}", reason=short_repr(e.msg))


class BadJSON(Exception):
    """The request body is not one acceptable JSON value."""

    def __init__(self, detail: Msg, code: str = "malformed_json") -> None:
        super().__init__(detail)
        self.detail = detail
        self.code = code


class Written:
    """JSON already written (compact UTF-8 bytes), which an answer embeds as it is: a sealed
    state (app/seal.py) is written once, for its MAC and for the answer."""

    __slots__ = ("raw",)

    def __init__(self, raw: bytes) -> None:
        self.raw = raw


def _embedded(value: Any) -> Any:
    if isinstance(value, Written):
        return orjson.Fragment(value.raw)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _as_value(value: Any) -> Any:
    if isinstance(value, Written):
        return orjson.loads(value.raw)
    raise TypeError(f"{type(value).__name__} is not JSON")


def dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value, default=_embedded)
    except TypeError:
        # orjson refuses integers beyond 64 bits; the standard library writes them
        return json.dumps(
            value, ensure_ascii=False, separators=(",", ":"), default=_as_value
        ).encode("utf-8")


class _Duplicate(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise _Duplicate(k)
            seen.add(k)
    return out


def _first_duplicate(body: bytes) -> str | None:
    """The first repeated key of the body (slow: a Python call per object)."""
    try:
        json.loads(body, object_pairs_hook=_no_duplicates)
    except _Duplicate as e:
        return e.key
    except ValueError:  # a text orjson read but this parser does not: no verdict on keys
        return None
    return None


def _check(body: bytes, value: Any) -> None:
    """Refuse what orjson reads without a word: too deep a nesting, duplicate keys."""
    try:
        written = orjson.dumps(value)
    except orjson.JSONEncodeError:
        raise BadJSON(
            msg(
                "The request body is nested deeper than {depth} levels of arrays and objects.",
                depth=MAX_DEPTH,
            )
        ) from None
    # A colon outside a string follows a key, so `written` (every key once, each string's
    # colons written plainly) has as many colons as the body unless a duplicate key was
    # dropped, or the body hides colons in strings as \u003a escapes. Only then does the
    # exact (slow) check run. Cost on a 5 KB state: one orjson.dumps and two byte counts (one
    # comparison when the body is written exactly as orjson writes it).
    if written == body:  # written as orjson writes it (compact, as JSON.stringify does)
        return  # a written object never repeats a key
    if body.count(b":") == written.count(b":") and b"\\u003" not in body:
        return
    key = _first_duplicate(body)
    if key is not None:
        raise BadJSON(
            msg(
                "The key {key} appears twice in one object; each key may appear once.",
                key=short_repr(key),
            ),
            "duplicate_key",
        )


def loads(body: bytes) -> Any:
    if not body.strip():
        raise BadJSON(msg("The request body is empty; a JSON object is expected."))
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError as e:
        raise BadJSON(
            msg(
                "The request body is not valid JSON: at line {line}, column {column} (character "
                "{position}), {why}.",
                line=e.lineno,
                column=e.colno,
                position=e.pos,
                why=parser_reason(e),
            )
        ) from None
    _check(body, value)
    return value


def json_response(value: Any, status: int = 200, mimetype: str = JSON) -> Response:
    return Response(dumps(value), status=status, mimetype=mimetype)
