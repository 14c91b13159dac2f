"""Input values described in a sentence, briefly and at a bounded cost whatever their size or
depth: quoted (`short_repr`) or named by kind (`brief`). Imports only engine.messages, so every
module that writes a message may use it (engine.errors, engine.declared, engine.guesses)."""

from __future__ import annotations

import itertools
import reprlib
from typing import Any

from engine.messages import msg

SHORT_REPR = 60  # most characters of an input value quoted in a message


class _ShortRepr(reprlib.Repr):
    """reprlib with dicts cut like lists (reprlib sorts every key first), and null, true and
    false named as JSON names them wherever they sit (the client sent JSON: "not [null, 2]",
    not "not [None, 2]")."""

    def repr_NoneType(self, x: None, level: int) -> str:  # reprlib's naming
        return "null"

    def repr_bool(self, x: bool, level: int) -> str:
        return "true" if x else "false"

    def repr_dict(self, x: dict[Any, Any], level: int) -> str:
        if not x:
            return "{}"
        if level <= 0:
            return "{...}"
        items = [
            f"{self.repr1(k, level - 1)}: {self.repr1(v, level - 1)}"
            for k, v in itertools.islice(x.items(), self.maxdict)
        ]
        return "{" + ", ".join(items) + (", ..." if len(x) > self.maxdict else "") + "}"


_REPR = _ShortRepr()
_REPR.maxlevel = 2
_REPR.maxdict = _REPR.maxlist = _REPR.maxtuple = _REPR.maxset = 4
_REPR.maxstring = _REPR.maxlong = _REPR.maxother = 40


def short_repr(value: Any) -> str:
    """An input value quoted in an error message: at most SHORT_REPR characters whatever its
    size or depth (plain repr recurses without bound and copies a 2 MB string whole)."""
    try:
        text = _REPR.repr(value)
    except (ValueError, RecursionError):  # an integer beyond int_max_str_digits
        text = f"<{type(value).__name__}>"
    return text if len(text) <= SHORT_REPR else text[: SHORT_REPR - 3] + "..."


def brief(v: Any) -> str:
    """A short, always printable description of any JSON value (never repr of deep or huge
    values: deep nesting would recurse, huge integers refuse str()). A kind of value is named
    by a message, so that it is translated with the sentence it stands in."""
    if isinstance(v, bool) or v is None:
        return {True: "true", False: "false", None: "null"}[v]
    if isinstance(v, str):
        return short_repr(v)
    if isinstance(v, int):
        return str(v) if -(10**15) < v < 10**15 else msg("a huge integer")
    if isinstance(v, float):
        if v != v:
            return "NaN"
        # a whole number written as a float (2.0, or an integer beyond 64 bits, which the
        # JSON reader gives as one) is shown as read: it has no fraction to speak of
        return repr(v) if v.is_integer() else msg("a number with a fraction")
    if isinstance(v, dict):
        return msg("an object")
    if isinstance(v, list):
        return msg("an array")
    return type(v).__name__
