""" "Did you mean …?": the known names closest to an unknown one (a card id, a decision type,
a field), for the sentence that refuses it.

The cost is bounded whatever the input: an unknown name longer than MAX_NAME characters is
not compared (none of the games' names comes near it), at most MAX_CANDIDATES known names are
compared (each at most 2 * MAX_NAME characters long) by difflib's cheap upper bounds, and only
the MAX_COMPARED best of those fully: a guess costs at most a few milliseconds (a full
comparison of two 40-character names alike but for their ends takes 170 µs: 256 of them took
42 ms). A reader that lists many refusals of one request (a history's decisions, app/history.py)
guesses for its first few only (`without_guesses`): 2,000 unknown ids in a forged history
cost 83 s of CPU (audit of 2026-11-29).
"""

from __future__ import annotations

import difflib
import heapq
import itertools
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from engine.describe import brief, short_repr
from engine.messages import Msg, msg

MAX_NAME = 40  # the longest unknown name compared
MAX_CANDIDATES = 256  # the most known names compared with it
GUESSES = 3  # the most names suggested
CUTOFF = 0.6  # difflib's similarity from which a name is suggested (its default)
MAX_COMPARED = 16  # the most candidates compared fully: those of the best upper bounds

_GUESSING: ContextVar[bool] = ContextVar("guessing", default=True)


@contextmanager
def without_guesses() -> Iterator[None]:
    """Within it, `closest` guesses nothing (a refusal says no "Did you mean")."""
    token = _GUESSING.set(False)
    try:
        yield
    finally:
        _GUESSING.reset(token)


def closest(value: Any, candidates: Iterable[str], n: int = GUESSES) -> list[str]:
    """Up to `n` of `candidates` closest to `value` (difflib's ratio, case ignored), the
    closest first, ties in the candidates' order; none when `value` is no string of 1 to
    MAX_NAME characters, or within `without_guesses`. Only the first MAX_CANDIDATES
    candidates are compared, and of those only the MAX_COMPARED of the best upper bound
    (difflib's quick_ratio) fully."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME or not _GUESSING.get():
        return []
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(value.casefold())  # difflib caches what it knows of the second
    bounded: list[tuple[float, int, str]] = []
    for i, name in enumerate(itertools.islice(candidates, MAX_CANDIDATES)):
        if not isinstance(name, str) or len(name) > 2 * MAX_NAME:
            continue
        matcher.set_seq1(name.casefold())
        if matcher.real_quick_ratio() < CUTOFF:
            continue
        bound = matcher.quick_ratio()
        if bound >= CUTOFF:
            bounded.append((-bound, i, name))
    scored: list[tuple[float, int, str]] = []
    for _, i, name in heapq.nsmallest(MAX_COMPARED, bounded):
        matcher.set_seq1(name.casefold())
        ratio = matcher.ratio()
        if ratio >= CUTOFF:
            scored.append((-ratio, i, name))
    return [name for _, _, name in heapq.nsmallest(n, scored)]


def unknown_card(field: str, value: Any, quoted: str, found: list[str]) -> Msg:
    """The sentence refusing a decision's card that names no card of the game: the type
    wanted when `value` is no string, else the id (`quoted` as its game quotes values) and
    the closest ids (`found`, by `closest`)."""
    if not isinstance(value, str):
        return msg(
            "{field} must be a card id (a string), not {value}.", field=field, value=brief(value)
        )
    return did_you_mean(msg("{card} is not a card of this game.", card=quoted), found)


def did_you_mean(detail: Msg, found: list[str]) -> Msg:
    """`detail` followed by the names suggested, when there are some."""
    if not found:
        return detail
    return msg("{problem} Did you mean {guesses}?", problem=detail, guesses=guesses(found))


def guesses(names: list[str]) -> str:
    """Suggested names as a sentence quotes them: 'a', 'b', 'c'."""
    return ", ".join(short_repr(name) for name in names)
