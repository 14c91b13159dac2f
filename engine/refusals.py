"""Refusal tables: why a decision that is not among the options is illegal.

Each game's `diagnose` is a table of rows, one per clause, checked in order: the first row
whose predicate holds for the decision gives the refusal (its code, clause and sentence,
and the decision's field the pointer names). A row that needs more than a yes or no (a
refusal whose code comes from elsewhere) is any function of the same shape as `Refusal`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from engine.errors import IllegalDecision

C = TypeVar("C")  # what a game's rows read: the game, the decision, the deciding seat, …


@dataclass(frozen=True)
class Refusal(Generic[C]):
    """One row: when `breaks` holds, the decision is refused with `code`, `clause` and the
    sentence `detail`, the pointer ending in `field` ("/card", "/cell", "" for the whole)."""

    code: str
    clause: str
    field: str
    breaks: Callable[[C], bool]
    detail: Callable[[C], str]

    def __call__(self, c: C, pointer: str) -> IllegalDecision | None:
        if not self.breaks(c):
            return None
        return IllegalDecision(self.code, self.detail(c), self.clause, pointer + self.field)


Row = Callable[[C, str], IllegalDecision | None]


def always(_: object) -> bool:
    """The predicate of a table's last row, the refusal when no rule before it is broken."""
    return True


def first_refusal(rows: Iterable[Row[C]], c: C, pointer: str) -> IllegalDecision | None:
    """The refusal of the first row that refuses the decision, in the table's order."""
    for row in rows:
        refusal = row(c, pointer)
        if refusal is not None:
            return refusal
    return None
