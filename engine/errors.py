"""Typed errors. Each names the rule clause it enforces, like python-chess's IllegalMoveError."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.describe import SHORT_REPR as SHORT_REPR
from engine.describe import brief as brief
from engine.describe import short_repr as short_repr
from engine.messages import Msg, msg

# Problems kept in one error: a hostile input can hold a problem per element, and listing a
# million of them would cost far more than reading the input did. The rest are counted.
MAX_PROBLEMS = 100
# a sentence and how many problems follow it (summary)
MORE = msg("{problem} (and {more} more)")


def pointer_token(token: object) -> str:
    """One JSON pointer reference token (RFC 6901): '~' and '/' escaped."""
    return str(token).replace("~", "~0").replace("/", "~1")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, located by a JSON pointer."""

    code: str
    detail: Msg
    pointer: str = ""
    clause: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "detail": self.detail, "pointer": self.pointer}
        if self.clause:
            out["clause"] = self.clause
        return out


class ProblemList(list[Problem]):
    """A list of problems that keeps the first `limit` and counts the rest (`dropped`);
    `total` is all of them. What is kept is counted by the list's length, not by `append`:
    code compiled by mypyc (docs/compiled.md) that knows a ProblemList only as a `list`
    appends with the list's own append, past this class's. Such problems are then kept
    past the limit, until the error that carries them trims them (EngineError), and are
    counted all the same."""

    def __init__(self, limit: int = MAX_PROBLEMS) -> None:
        super().__init__()
        self.limit = limit
        self.dropped = 0

    @property
    def total(self) -> int:
        return len(self) + self.dropped

    def append(self, problem: Problem) -> None:
        if len(self) < self.limit:
            super().append(problem)
        else:
            self.dropped += 1

    def extend(self, problems: Iterable[Problem]) -> None:
        for p in problems:
            self.append(p)

    def trim(self) -> None:
        """Keep the first `limit` (after appends that went past it), counting the rest."""
        if len(self) > self.limit:
            self.dropped += len(self) - self.limit
            del self[self.limit :]


def problem_count(problems: list[Problem]) -> int:
    """How many problems were found (a ProblemList counts those it did not keep)."""
    return problems.total if isinstance(problems, ProblemList) else len(problems)


def add_problems_of(problems: list[Problem], e: EngineError, prefix: str = "") -> None:
    """`e`'s problems added to `problems`, each pointer under `prefix` and naming `e`'s clause
    where it names none, those `e` only counted counted too (a set-up's catalog)."""
    problems.extend(
        Problem(p.code, p.detail, prefix + p.pointer, p.clause or e.clause) for p in e.problems
    )
    if isinstance(problems, ProblemList):
        problems.dropped += e.problems_total - len(e.problems)


def unknown_keys(
    problems: list[Problem],
    d: dict[str, Any],
    allowed: Iterable[str],
    path: str,
    code: str = "unknown_field",
    what: str = "",
    clause: str | None = None,
) -> None:
    """A problem `code` (naming `clause`) for each key of `d` not in `allowed`, in key order
    ("unknown {what}field 'k'"). Keys beyond what a ProblemList keeps are only counted: an
    object of 100,000 unknown keys costs a count, not 100,000 sentences."""
    extra = set(d).difference(allowed)
    if not extra:
        return
    room = len(extra)
    if isinstance(problems, ProblemList):
        room = max(problems.limit - len(problems), 0)
    # keys compared as text: JSON keys are strings, but a Python caller may mix types
    shown = sorted(extra, key=str) if len(extra) <= room else heapq.nsmallest(room, extra, key=str)
    # a set-up's fields are few and typed by hand: its unknown ones suggest the closest
    # (all of them: the service writes in a seed the set-up left out, 'sead' for one)
    left = [a for a in allowed if isinstance(a, str)] if what == "set-up " else []
    for k in shown:
        problems.append(
            Problem(
                code,
                _unknown_field(what, k, left),
                f"{path}/{pointer_token(k)}",
                clause,
            )
        )
    if isinstance(problems, ProblemList):
        problems.dropped += len(extra) - len(shown)


def _unknown_field(what: str, key: Any, left: list[str]) -> Msg:
    field = short_repr(key)
    if what == "set-up ":  # the catalog words a set-up's field its own way
        from engine.guesses import closest, guesses  # it reads this module: imported here

        found = closest(key, left)
        if found:
            return msg(
                "unknown set-up field {field}; did you mean {guesses}?",
                field=field,
                guesses=guesses(found),
            )
        return msg("unknown set-up field {field}", field=field)
    return msg("unknown {what}field {field}", what=what, field=field)


class EngineError(Exception):
    """Base class: a machine-readable code, the clause broken and a sentence for a person."""

    status = 422

    def __init__(
        self,
        code: str,
        detail: Msg,
        clause: str | None = None,
        pointer: str = "",
        problems: list[Problem] | None = None,
        *,
        index: int | None = None,  # the refused decision's place in a batch (IllegalDecision)
    ) -> None:
        super().__init__(detail)
        self.index = index
        self.code = code
        self.detail = detail
        self.clause = clause
        self.pointer = pointer
        self.problems: list[Problem] = problems or []
        if isinstance(self.problems, ProblemList):
            self.problems.trim()  # filled past its limit by compiled code (ProblemList)
        self.problems_total = problem_count(self.problems)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "detail": self.detail, "pointer": self.pointer}
        if self.clause:
            out["clause"] = self.clause
        if self.problems:
            out["problems"] = [p.to_json() for p in self.problems]
            if self.problems_total > len(self.problems):
                out["problems_total"] = self.problems_total
        if self.index is not None:
            out["index"] = self.index
        return out


class IllegalDecision(EngineError):
    """A decision that the rules do not allow in this state (`index`: its place in a batch)."""


def missing(
    problems: list[Problem], d: dict[str, Any], name: str, clause: str, path: str = ""
) -> bool:
    """Whether `d` leaves out the field `name` that it must give (a `missing_field` problem
    naming `clause`, as a state's missing field is one)."""
    if name in d:
        return False
    problems.append(
        Problem(
            "missing_field",
            msg("missing field {field}", field=repr(name)),
            f"{path}/{name}",
            clause,
        )
    )
    return True


def summary(problems: list[Problem]) -> Msg:
    """The first problem's sentence, with how many more there are."""
    first, n = problems[0], problem_count(problems)
    return first.detail if n == 1 else msg(MORE, problem=first.detail, more=n - 1)


class InvalidState(EngineError):
    """A state that is malformed or inconsistent; every problem is listed."""

    def __init__(self, problems: list[Problem]) -> None:
        first = problems[0]
        super().__init__("invalid_state", summary(problems), first.clause, first.pointer, problems)


class CatalogError(EngineError):
    """A card catalog that does not follow the catalog format; every problem is listed."""

    def __init__(self, problems: list[Problem], clause: str = "A-10") -> None:
        super().__init__(
            "invalid_catalog", summary(problems), clause, problems[0].pointer, problems
        )


class SetupError(EngineError):
    """A game set-up that the rules do not allow."""

    @classmethod
    def listing(cls, problems: list[Problem], clause: str | None = None) -> SetupError:
        """The error of a set-up with these problems, named by the first (and its clause
        unless `clause` is given)."""
        first = problems[0]
        return cls(first.code, summary(problems), clause or first.clause, first.pointer, problems)
