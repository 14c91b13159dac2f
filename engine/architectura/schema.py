"""The shape of a state document (docs/state.md), declared once as msgspec structs.

A well-formed state converts in one call (`msgspec.convert`, in C): objects, unknown and
missing fields, booleans and fixed ranges are checked there. Only when that fails is the
document walked node by node against the same declarations (`node`), listing every
problem with its pointer and putting a safe stand-in for each bad value, so the reader's
checks of meaning (serialize.py) run on the same typed nodes either way.

Fields whose check depends on the game (cards, cells, seats, lengths bounded by the number
of cards) are `Any` or `list[Any]` here and checked by the reader.
"""

from __future__ import annotations

import copy
import functools
from typing import Annotated, Any, ClassVar, TypeVar, cast

import msgspec
import msgspec.inspect as mi

from engine.architectura.model import RULES_VERSION, TOKENS
from engine.errors import Problem, ProblemList, unknown_keys
from engine.messages import Msg, msg

T = TypeVar("T", bound="Doc")
GAME = "architectura"


class _Reader:
    """Collects problems while reading; every accessor returns a safe default on error."""

    def __init__(self) -> None:
        self.problems: list[Problem] = ProblemList()
        self.walked: list[_Walked] = []  # nodes that failed the typed conversion

    def bad(self, code: str, detail: Msg, pointer: str, clause: str | None = None) -> None:
        self.problems.append(Problem(code, detail, pointer, clause))

    def obj(self, v: Any, p: str) -> dict[str, Any]:
        if not isinstance(v, dict):
            self.bad("wrong_type", msg("must be an object"), p)
            return {}
        return v

    def lst(self, v: Any, p: str, most: int | None = None) -> list[Any]:
        """An array; one longer than `most` entries is refused whole, unread (a hostile
        state may hold a million entries where the game has a few dozen cards)."""
        if not isinstance(v, list):
            self.bad("wrong_type", msg("must be an array"), p)
            return []
        if most is not None and len(v) > most:
            self.bad(
                "too_long",
                msg("must have at most {most} entries, not {count}", most=most, count=len(v)),
                p,
            )
            return []
        return v

    def unknown(self, d: dict[str, Any], allowed: Any, p: str) -> None:
        unknown_keys(self.problems, d, allowed, p)

    def int_(self, v: Any, p: str, lo: int, hi: int, clause: str | None = None) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            self.bad(
                # JSON true is no integer (a Python bool is an int): a wrong type
                "out_of_range" if isinstance(v, int) and not isinstance(v, bool) else "wrong_type",
                msg("must be an integer from {lo} to {hi}", lo=lo, hi=hi),
                p,
                clause,
            )
            return lo
        return v

    def bool_(self, v: Any, p: str) -> bool:
        if not isinstance(v, bool):
            self.bad("wrong_type", msg("must be true or false"), p)
            return False
        return v

    def str_(self, v: Any, p: str) -> str:
        if not isinstance(v, str):
            self.bad("wrong_type", msg("must be a string"), p)
            return ""
        return v


class Doc(msgspec.Struct, forbid_unknown_fields=True):
    """One object of the document. `absent`: what a missing field stands for when not
    None (its absence is reported all the same); `report_missing`: whether a missing field
    is a problem of its own (an entry's missing field is reported as its wrong value)."""

    absent: ClassVar[dict[str, Any]] = {}
    report_missing: ClassVar[bool] = True


class SeatDoc(Doc):
    absent = {"replacements": {}}
    colour: Any
    replacements: Any
    deck: list[Any]
    hand: list[Any]
    tokens: Annotated[int, msgspec.Meta(ge=0, le=TOKENS, extra={"clause": "A-6.1"})]
    hand_limit: Annotated[int, msgspec.Meta(ge=1, le=12, extra={"clause": "A-7.9"})]
    mulligan_used: bool
    first_turn_taken: bool
    outside: list[Any]
    graveyard: list[Any]
    removed: list[Any]


class EntryDoc(Doc):
    """A card in the city: every value is checked by the reader, once the card is known."""

    report_missing = False
    card: Any
    orientation: Any
    face_up: Any
    token: Any
    value: Any = msgspec.UNSET  # written on top cards; checked against the city when given


class StateDoc(Doc):
    """The top level; what only the reader can check is read from the document itself."""

    absent = {"game": GAME, "rules_version": RULES_VERSION, "fountains": []}
    game: Any
    rules_version: Any
    catalog: Any
    variant: Any
    seats: list[SeatDoc]
    city: list[list[list[EntryDoc]]]
    fountains: Any
    turn: Any
    resolving: Any
    rng: Any
    game_over: bool
    pending: Any = None
    scores: Any = None


def convert(data: Any, cls: type[T]) -> T | None:
    """The typed document, or None when it is not well formed."""
    try:
        return msgspec.convert(data, cls)
    except msgspec.ValidationError:
        return None


@functools.cache
def _fields(cls: type[Doc]) -> tuple[mi.Field, ...]:
    """The declared fields; only types that `_value` checks as msgspec does are allowed,
    so that the walk refuses exactly what the typed conversion refuses."""
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    for f in info.fields:
        t = f.type.type if isinstance(f.type, mi.Metadata) else f.type
        known = isinstance(t, mi.AnyType | mi.BoolType | mi.ListType) or (
            isinstance(t, mi.IntType) and t.ge is not None and t.le is not None
        )
        if not known:
            raise TypeError(f"{cls.__name__}.{f.name}: a type the walk does not check")
    return info.fields


def _value(r: _Reader, v: Any, t: mi.Type, p: str) -> Any:
    """One field's value checked against its declared type (or a stand-in)."""
    clause = None
    if isinstance(t, mi.Metadata):
        clause = (t.extra or {}).get("clause")
        t = t.type
    if isinstance(t, mi.IntType):
        return r.int_(v, p, t.ge or 0, t.le or 0, clause)
    if isinstance(t, mi.BoolType):
        return r.bool_(v, p)
    if isinstance(t, mi.ListType):  # an array of objects: the reader walks its items
        return r.lst(v, p, t.max_length)
    return v  # Any: the reader checks it when it reaches it


def node(r: _Reader, v: Any, cls: type[T], p: str) -> T:
    """`v` as a `cls` node: as it is when already one. Else it is checked as the reader
    reads it, so that problems come in reading order: being an object now, its unknown and
    missing fields at the first read, each field's value at its own; a bad value is read as
    a safe stand-in."""
    if type(v) is cls:
        return v
    walked = _Walked(r, r.obj(v, p), cls, p)
    r.walked.append(walked)
    return cast(T, walked)


class _Walked:
    """A node that failed the typed conversion, read like one."""

    def __init__(self, r: _Reader, d: dict[str, Any], cls: type[Doc], p: str) -> None:
        self._r, self._d, self._cls, self._p = r, d, cls, p
        self._read: dict[str, Any] | None = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if self._read is None:
            self._read = {}
            self._fields_present()
        if name not in self._read:
            self._read[name] = self._check(name)
        return self._read[name]

    def _fields_present(self) -> None:
        fields, r, d, p = _fields(self._cls), self._r, self._d, self._p
        r.unknown(d, {f.name for f in fields}, p)
        if self._cls.report_missing:
            for k in sorted(f.name for f in fields if f.required and f.name not in d):
                r.bad("missing_field", msg("missing field {field}", field=repr(k)), f"{p}/{k}")

    def _check(self, name: str) -> Any:
        f = next(f for f in _fields(self._cls) if f.name == name)
        p = f"{self._p}/{name}"
        if name in self._d:
            return _value(self._r, self._d[name], f.type, p)
        if not f.required:  # its default, as the struct would have it
            cls = self._cls
            defaults = cls.__struct_defaults__
            return defaults[cls.__struct_fields__.index(name) - len(cls.__struct_fields__)]
        stand_in = copy.copy(self._cls.absent.get(name))
        return stand_in if stand_in is not None else _value(self._r, None, f.type, p)

    def finish(self) -> None:
        """Check the fields the reader did not read (a field it skips is still refused)."""
        for f in _fields(self._cls):
            getattr(self, f.name)


def finish(r: _Reader) -> None:
    """Check what the reader left unread of the walked nodes."""
    for walked in r.walked:
        walked.finish()
