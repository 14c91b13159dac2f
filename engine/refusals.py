"""Refusal tables: why a decision that is not among the options is illegal.

Each game's `diagnose` is a table of rows, one per clause, checked in order: a row is a small
function named after its rule, `(decision, pointer) -> IllegalDecision | None`, that refuses
the decision (code, sentence, clause, the pointer to the field at fault) when it breaks the
rule, else gives None; the first refusal is the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from engine.errors import IllegalDecision

C = TypeVar("C")  # what a game's rows read: the game, the decision, the deciding seat, …
Row = Callable[[C, str], IllegalDecision | None]


def first_refusal(rows: Iterable[Row[C]], c: C, pointer: str) -> IllegalDecision | None:
    """The refusal of the first row that refuses the decision, in the table's order."""
    for row in rows:
        refusal = row(c, pointer)
        if refusal is not None:
            return refusal
    return None
