"""Canonical JSON: one byte string per value, so hashes and 'byte-identical' are meaningful."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson

# orjson writes every float with a fraction or an exponent ("1.5", "1e+16", "1e-7"), and some
# differently from the standard library (1e-05 as 0.00001); `_has_float` tells these from the
# same characters inside a string (a version "1.0", hexadecimal digits "3e").
# every digit a 0 and every fraction or exponent mark a ".": one search in C finds them all
_ZEROED = bytes.maketrans(b"123456789eE", b"000000000..")
_DIGITS = b"0123456789"
_NUMBER = b"0123456789+-.eE"


def _has_float(out: bytes) -> bool:
    """Whether JSON text written by orjson holds a float: a number with a fraction or an
    exponent where a value starts and ends. A string that spells one in a list (",1.5]") is
    taken for one too: then the slow writer runs, with the same bytes."""
    zeroed = out.translate(_ZEROED)
    at = zeroed.find(b"0.")
    while at >= 0:
        if _number_at(out, at):
            return True
        at = zeroed.find(b"0.", at + 1)
    return False


def _number_at(out: bytes, at: int) -> bool:
    """Whether the digit at `at`, before a fraction or an exponent, is part of a number token
    (not of a string)."""
    i = at
    while i > 0 and out[i - 1] in _DIGITS:
        i -= 1
    if i > 0 and out[i - 1] == 45:  # "-"
        i -= 1
    if i > 0 and out[i - 1] not in b":,[":
        return False
    j, end = at + 2, len(out)
    while j < end and out[j] in _NUMBER:
        j += 1
    return j == end or out[j] in b",}]"


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def dumps_utf8(value: Any, errors: str = "strict") -> bytes:
    """`dumps(value).encode("utf-8", errors)`, byte for byte, about ten times faster: orjson
    writes it (keys sorted by code point, compact, UTF-8, the same string escapes) unless the
    value holds a float, an integer beyond 64 bits or a lone surrogate, which the standard
    library writes (tests/http/test_sealed_fast_path.py compares the two). For values read
    from JSON or written by the engines: orjson writes NaN as null."""
    try:
        out = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return dumps(value).encode("utf-8", errors)
    if _has_float(out):
        return dumps(value).encode("utf-8", errors)
    return out


def same(given: Any, written: Any) -> bool:
    """Whether a value a client sent is the one the service writes, as JSON: Python's `==`
    takes 2.0, True and -0.0 for the integers 2, 1 and 0, so a state whose `pending.seat`
    was 0.0 or false passed, and an answer that echoes it wrote -0.0 (audit of 2026-11-29).
    Keys in any order; the cost of a comparison that passes is one write of each."""
    if given != written:
        return False
    try:
        return orjson.dumps(given, option=orjson.OPT_SORT_KEYS) == orjson.dumps(
            written, option=orjson.OPT_SORT_KEYS
        )
    except TypeError:  # a value orjson does not write (an integer beyond 64 bits): not ours
        return False


def digest(value: Any) -> str:
    return "sha256:" + hashlib.sha256(dumps(value).encode("utf-8")).hexdigest()
