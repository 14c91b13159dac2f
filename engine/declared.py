"""Untrusted documents read against one declaration, in every game.

Each document (a state, a catalog, a set-up) is declared once as msgspec structs in its
game's package (`schema.py`). A well-formed one converts in one call (`convert`, in C):
objects, unknown and missing fields, booleans and fixed ranges are checked there. Only when
that fails is it walked node by node against the same declarations (`node`), each problem
listed with its code, pointer and clause, a safe stand-in put for each bad value, so that
the reader's checks of meaning (which depend on the game) run on the same typed nodes
either way, and report in the same order.

`Problems` is the one collector every reader lists its problems with. Its sentences come in
two wordings, as the games' documents always have: Architectura's name what is expected
("must be an integer from 0 to 3"), Fora de Prumo's also what was sent (`named`: "..., not
null").
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeGuard, TypeVar, cast

import msgspec
import msgspec.inspect as mi

from engine.describe import brief as brief
from engine.errors import InvalidState, Problem, ProblemList, short_repr, unknown_keys
from engine.messages import Msg, msg

T = TypeVar("T", bound="Doc")
S = TypeVar("S", bound=msgspec.Struct)
C = TypeVar("C")  # a game's catalog


class _Catalog(Protocol):
    """What a state's catalog reference is checked against: a catalog's id and content hash."""

    @property
    def id(self) -> str: ...
    @property
    def hash(self) -> str: ...


K = TypeVar("K", bound=_Catalog)


def state_catalog(chash: str, sent: K | None, builtin: K | None) -> K | None:
    """A state's catalog (A-10, F-2.1), by the content hash the state records: the one sent
    with it if it has that hash (one sent that has not is not the state's: refused, never
    ignored), else, none sent, the built-in one of the state's catalog id if it has it."""
    cat = sent if sent is not None else builtin
    return cat if cat is not None and cat.hash == chash else None


def is_int(v: Any) -> TypeGuard[int]:
    """An integer in JSON's sense (a boolean is not one)."""
    return isinstance(v, int) and not isinstance(v, bool)


def unknown_fields(
    problems: list[Problem],
    d: dict[Any, Any],
    allowed: Any,
    path: str,
    code: str = "unknown_field",
    clause: str | None = None,
    what: str = "",
) -> None:
    """engine.errors.unknown_keys, keys that are not strings (only a Python caller can send
    them) named by their short repr: they do not sort with strings."""
    if not d.keys() - allowed:  # the usual case: nothing unknown, nothing to write
        return
    if not all(isinstance(k, str) for k in d):
        d = {k if isinstance(k, str) else short_repr(k): None for k in d}
    unknown_keys(problems, d, allowed, path, code, what, clause)


class Problems:
    """Collects problems while reading; every accessor returns a safe stand-in on error.
    `named`: sentences also name the value sent; `clause`: the clause of every problem that
    names none (a catalog's)."""

    def __init__(self, named: bool = False, clause: str | None = None) -> None:
        self.problems: list[Problem] = ProblemList()
        self.named = named
        self.clause = clause
        self.walked: list[_Walked] = []  # nodes that failed the typed conversion
        self.unread = False  # a list was refused unread: its cards are not "missing"
        self.mistyped: set[str] = set()  # pointers refused as "wrong_type"

    def bad(self, code: str, detail: Msg, pointer: str, clause: str | None = None) -> None:
        """Report a problem, unless it lies inside a value already refused for its type: a
        string where an object belongs has no fields, and "/x/cell ... not null" about the
        stand-in read in its place would send the client after a field it never sent."""
        if self.mistyped and self._inside_mistyped(pointer):
            return
        if code == "wrong_type":
            self.mistyped.add(pointer)
        self.problems.append(Problem(code, detail, pointer, clause or self.clause))

    def _inside_mistyped(self, pointer: str) -> bool:
        while "/" in pointer:
            pointer = pointer.rsplit("/", 1)[0]
            if pointer in self.mistyped:
                return True
        return False

    def unknown_catalog(
        self, cid: str, chash: str, clause: str, sent: _Catalog | None = None
    ) -> None:
        """A state's catalog that is neither sent with it nor built in (A-10, F-2.1); `sent`:
        the catalog that was sent with it (another), named so that the sender sees which."""
        cid, chash = short_repr(cid), short_repr(chash)
        if sent is None:
            detail = msg(
                "no catalog {id} with hash {hash}; send the catalog with the state",
                id=cid,
                hash=chash,
            )
        else:
            detail = msg(
                "the catalog sent ({sent_id}, hash {sent_hash}) is not this state's: send "
                "catalog {id} with hash {hash} with the state",
                sent_id=short_repr(sent.id),
                sent_hash=short_repr(sent.hash),
                id=cid,
                hash=chash,
            )
        self.bad("unknown_catalog", detail, "/catalog", clause)

    def header(
        self,
        doc: Any,
        game: tuple[str, Msg],
        rules_version: str,
        catalog: Callable[[], C | None],
        seats_clause: str,
    ) -> tuple[C, list[Any]]:
        """A state's game (its id and the sentence when it is another's), rules version,
        catalog (read by `catalog`) and seats (2 to 4: A-1.1, F-1.1): without a catalog or a
        seat count nothing else can be read (InvalidState at once, every problem so far)."""
        if doc.game != game[0]:
            self.bad("wrong_game", game[1], "/game")
        if doc.rules_version != rules_version:
            self.bad(
                "unsupported_rules_version",
                msg("rules_version must be {version}", version=repr(rules_version)),
                "/rules_version",
            )
        cat = catalog()
        seats = self.lst(doc.seats, "/seats")
        if not 2 <= len(seats) <= 4:
            self.bad(
                "invalid_seat_count", msg("a game has 2, 3 or 4 seats"), "/seats", seats_clause
            )
        if cat is None or not 2 <= len(seats) <= 4:
            raise InvalidState(self.problems)
        return cat, seats

    def duplicate_card(self, card_id: str, index: int) -> None:
        """A catalog's card id that an earlier card has (A-10, F-2.8: ids are distinct)."""
        detail = msg("card id {id} appears twice", id=repr(card_id))
        self.bad("catalog_duplicate", detail, f"/cards/{index}/id")

    def obj(self, v: Any, p: str) -> dict[str, Any]:
        if not isinstance(v, dict):
            if self.named:
                self.bad("wrong_type", msg("must be an object, not {value}", value=brief(v)), p)
            else:
                self.bad("wrong_type", msg("must be an object"), p)
            return {}
        return v

    def lst(
        self, v: Any, p: str, most: int | None = None, what: str = "", clause: str | None = None
    ) -> list[Any]:
        """An array of at most `most` entries (`what` says why); a longer one is refused
        whole, unread: a 2 MB document can hold 700,000 entries where the game holds a few
        dozen cards, and reading each would cost seconds and hundreds of MB."""
        if not isinstance(v, list):
            if self.named:
                self.bad("wrong_type", msg("must be an array, not {value}", value=brief(v)), p)
            else:
                self.bad("wrong_type", msg("must be an array"), p)
            return []
        if most is not None and len(v) > most:
            if self.named:
                self.bad(
                    "too_long",
                    msg(
                        "holds at most {most} entries ({what}), not {count}",
                        most=most,
                        what=what,
                        count=len(v),
                    ),
                    p,
                    clause,
                )
            else:
                self.bad(
                    "too_long",
                    msg("must have at most {most} entries, not {count}", most=most, count=len(v)),
                    p,
                )
            self.unread = True
            return []
        return v

    def unknown(
        self, d: dict[Any, Any], allowed: Any, p: str, code: str = "unknown_field", what: str = ""
    ) -> None:
        if self.named or self.clause is not None:
            unknown_fields(self.problems, d, allowed, p, code, self.clause, what)
        else:
            unknown_keys(self.problems, d, allowed, p, code, what)

    def int_or_none(
        self, v: Any, p: str, lo: int, hi: int, clause: str | None = None
    ) -> int | None:
        """`v`, an integer from lo to hi, or None (the problem listed). JSON true is no
        integer (a Python bool is an int): a wrong type."""
        if is_int(v) and lo <= v <= hi:
            return v
        if self.named:
            self.bad(
                "out_of_range" if is_int(v) else "wrong_type",
                msg(
                    "must be an integer from {lo} to {hi}, not {value}",
                    lo=lo,
                    hi=hi,
                    value=brief(v),
                ),
                p,
                clause,
            )
        else:
            self.bad(
                "out_of_range" if is_int(v) else "wrong_type",
                msg("must be an integer from {lo} to {hi}", lo=lo, hi=hi),
                p,
                clause,
            )
        return None

    def int_(self, v: Any, p: str, lo: int, hi: int, clause: str | None = None) -> int:
        """`v`, an integer from lo to hi, or lo (the problem listed)."""
        got = self.int_or_none(v, p, lo, hi, clause)
        return lo if got is None else got

    def bool_(self, v: Any, p: str) -> bool:
        if not isinstance(v, bool):
            if self.named:
                self.bad("wrong_type", msg("must be true or false, not {value}", value=brief(v)), p)
            else:
                self.bad("wrong_type", msg("must be true or false"), p)
            return False
        return v

    def str_(self, v: Any, p: str) -> str:
        if not isinstance(v, str):
            self.bad("wrong_type", msg("must be a string"), p)
            return ""
        return v

    def finish(self) -> None:
        """Check what the reader left unread of the walked nodes."""
        for walked in self.walked:
            walked.finish()
        self.walked.clear()  # each holds this collector: no cycle left for the GC


class Doc(msgspec.Struct, forbid_unknown_fields=True):
    """One object of a document. `absent`: what a missing field stands for when not None
    (its absence is reported all the same); `report_missing`: whether a missing field is a
    problem of its own (an entry's missing field is reported as its wrong value);
    `sort_missing`: missing fields reported in name order, else in declared order;
    `missing_of_non_object`: whether a value that is no object also misses every field (else
    it is one wrong type, and its fields read as null)."""

    absent: ClassVar[dict[str, Any]] = {}
    report_missing: ClassVar[bool] = True
    sort_missing: ClassVar[bool] = True
    missing_of_non_object: ClassVar[bool] = True


def convert(data: Any, cls: type[S]) -> S | None:
    """The typed document, or None when it is not well formed."""
    try:
        return msgspec.convert(data, cls)
    except msgspec.ValidationError:
        return None


def _plain(t: mi.Type) -> mi.Type:
    return t.type if isinstance(t, mi.Metadata) else t


def _walkable(t: mi.Type) -> bool:
    """A type that `_value` checks as msgspec does (a struct, or a struct or null, is left
    to the reader, which walks it with `node`)."""
    t = _plain(t)
    if isinstance(t, mi.UnionType):
        return all(isinstance(_plain(u), mi.StructType | mi.NoneType) for u in t.types)
    return isinstance(t, mi.AnyType | mi.BoolType | mi.ListType | mi.StructType) or (
        isinstance(t, mi.IntType) and t.ge is not None and t.le is not None
    )


@dataclass(frozen=True, slots=True)
class _Spec:
    """How the walk checks one declared field (read once per struct from msgspec.inspect)."""

    name: str
    required: bool
    kind: str  # int | bool | list | any (an object or Any: the reader reads it)
    lo: int = 0
    hi: int = 0
    most: int | None = None  # a list's declared max_length
    clause: str | None = None
    field: mi.Field | None = None


def _spec(f: mi.Field, owner: str) -> _Spec:
    if not _walkable(f.type):
        raise TypeError(f"{owner}.{f.name}: a type the walk does not check")
    clause, counted = None, False
    t = f.type
    if isinstance(t, mi.Metadata):
        clause = (t.extra or {}).get("clause")
        counted = bool((t.extra or {}).get("counted"))  # engine.shapes.counted
        t = t.type
    if isinstance(t, mi.IntType):
        return _Spec(f.name, f.required, "int", t.ge or 0, t.le or 0, None, clause, f)
    if isinstance(t, mi.BoolType):
        return _Spec(f.name, f.required, "bool", field=f)
    if isinstance(t, mi.ListType):
        return _Spec(f.name, f.required, "list", most=None if counted else t.max_length, field=f)
    return _Spec(f.name, f.required, "any", field=f)


@functools.cache
def _fields(cls: type[Doc]) -> dict[str, _Spec]:
    """The declared fields, in order; only types that `_value` checks as msgspec does are
    allowed, so that the walk refuses exactly what the typed conversion refuses."""
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    return {f.name: _spec(f, cls.__name__) for f in info.fields}


def _value(r: Problems, v: Any, s: _Spec, p: str) -> Any:
    """One field's value checked against its declared type (or a stand-in)."""
    if s.kind == "int":
        return r.int_(v, p, s.lo, s.hi, s.clause)
    if s.kind == "bool":
        return r.bool_(v, p)
    if s.kind == "list":  # an array of objects: the reader walks its items
        return r.lst(v, p, s.most)
    return v  # Any, or an object: the reader checks it when it reaches it


def _default(f: mi.Field) -> Any:
    """A field's default, as the struct would have it (UNSET shows as none)."""
    if f.default_factory is not msgspec.NODEFAULT:
        return f.default_factory()
    return msgspec.UNSET if f.default is msgspec.NODEFAULT else f.default


def node(r: Problems, v: Any, cls: type[T], p: str) -> T:
    """`v` as a `cls` node: as it is when already one. Else it is checked as the reader
    reads it, so that problems come in reading order: being an object now, its unknown and
    missing fields at the first read, each field's value at its own; a bad value is read as
    a safe stand-in. A node that converts on its own has no problem: it is typed, and only
    the nodes on the way to a problem are walked."""
    if type(v) is cls:
        return v
    if type(v) is dict:
        typed = convert(v, cls)
        if typed is not None:
            return typed
    walked = _Walked(r, r.obj(v, p), cls, p)
    if not isinstance(v, dict) and not cls.missing_of_non_object:
        walked._looked = True  # its fields are not looked for: each reads as null
    r.walked.append(walked)
    return cast(T, walked)


class _Walked:
    """A node that failed the typed conversion, read like one."""

    def __init__(self, r: Problems, d: dict[str, Any], cls: type[Doc], p: str) -> None:
        self._r, self._d, self._cls, self._p = r, d, cls, p
        self._looked = False  # for unknown and missing fields, at the first read

    def __getattr__(self, name: str) -> Any:
        """A field's value, checked at its first read (then kept as an attribute, which
        Python finds without calling this again)."""
        if name.startswith("_"):
            raise AttributeError(name)
        if not self._looked:
            self._looked = True
            self._fields_present()
        value = self._check(name)
        setattr(self, name, value)
        return value

    def _fields_present(self) -> None:
        fields, r, d, p = _fields(self._cls), self._r, self._d, self._p
        r.unknown(d, fields.keys(), p)
        if self._cls.report_missing:
            names = [k for k, f in fields.items() if f.required and k not in d]
            for k in sorted(names) if self._cls.sort_missing else names:
                r.bad("missing_field", msg("missing field {field}", field=repr(k)), f"{p}/{k}")

    def _check(self, name: str) -> Any:
        s = _fields(self._cls)[name]
        p = f"{self._p}/{name}"
        if name in self._d:
            return _value(self._r, self._d[name], s, p)
        if not s.required:
            assert s.field is not None
            return _default(s.field)
        stand_in = copy.copy(self._cls.absent.get(name))
        return stand_in if stand_in is not None else _value(self._r, None, s, p)

    def finish(self) -> None:
        """Check the fields the reader did not read (a field it skips is still refused)."""
        for name in _fields(self._cls):
            if name not in self.__dict__:
                getattr(self, name)
