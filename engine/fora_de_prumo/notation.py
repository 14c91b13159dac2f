"""A compact notation for Fora de Prumo's decisions: one short string per decision, read and
written without the state (the seat is the one whose step is pending, so it is never written).
A space's position is the F-2.7 compact placement (`building.Placement.compact`).

    buy:PR01              buy a market card (F-3.1), or a deck card after a look (F-6.1)
    look | skip | pass    the decisions without a field
    SP09@0,-1r0           lay a space: half A on (0, -1), rotation 0 (F-2.7)
    PE05                  lay a card into the site (F-3.5)
    convert:PE03>SP09     the designer converts a space (F-6.3)
    clone:CO01>SP09       lay a clone card of a work card (F-R27)
    …/market, …/deck      a final turn's lay or clone of a card bought in the same decision (F-8.2)
"""

from __future__ import annotations

import re
from typing import Any, TypeGuard

from engine.errors import IllegalDecision, short_repr
from engine.fora_de_prumo.building import Placement, parse_compact
from engine.fora_de_prumo.catalog import NOTATION_WORDS
from engine.fora_de_prumo.serialize import DECISION_FIELDS, SOURCES
from engine.messages import msg

CLAUSE = "F-2.7"
MAX_LENGTH = 200

# The decisions written as a bare word (`pass`): a card id spelled the same would be written,
# and read back, as that decision instead of its lay, so a catalog refuses it (catalog.py
# NOTATION_WORDS, which must be these: a decision type added without fields is added there).
BARE_WORDS: frozenset[str] = frozenset(k for k, fields in DECISION_FIELDS.items() if not fields)
if BARE_WORDS != NOTATION_WORDS:
    raise RuntimeError(f"catalog.NOTATION_WORDS is not {sorted(BARE_WORDS)}")

_CARD = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"
_CARD_RE = re.compile(rf"^{_CARD}$")
_PAIR = re.compile(rf"^({_CARD})>({_CARD})$")


def _is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def to_notation(d: dict[str, Any]) -> str | None:
    """The notation of a decision object (its `seat` left out); None when it cannot be
    written (a field of an unexpected shape)."""
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in DECISION_FIELDS:
        return None
    names = [d.get(k) for k in ("card", "designer", "target") if k in d]
    if any(not (isinstance(n, str) and _CARD_RE.fullmatch(n)) for n in names):
        return None
    src = d.get("from")
    suffix = f"/{src}" if src in SOURCES else ""
    if src is not None and not suffix:
        return None
    if kind == "buy":
        return f"buy:{d.get('card')}"
    if kind == "lay":
        x, y, r = (d.get(k) for k in ("x", "y", "r"))
        if x is None and y is None and r is None:
            return f"{d.get('card')}{suffix}"
        if not (_is_int(x) and _is_int(y) and _is_int(r) and 0 <= r < 4):
            return None
        return Placement(str(d.get("card")), x, y, r).compact() + suffix
    if kind == "convert":
        return f"convert:{d.get('designer')}>{d.get('target')}"
    if kind == "clone":
        return f"clone:{d.get('card')}>{d.get('target')}{suffix}"
    return kind


def _refuse(text: str, why: str, pointer: str) -> IllegalDecision:
    return IllegalDecision(
        "invalid_notation",
        msg(
            (
                "{text} is not a decision in notation: {why} (e.g. buy:PR01, SP09@0,-1r0, "
                "PE05, convert:PE03>SP09, clone:CO01>SP09, pass)."
            ),
            text=short_repr(text),
            why=why,
        ),
        CLAUSE,
        pointer,
    )


def from_notation(text: str, pointer: str = "") -> dict[str, Any]:
    """The decision object a notation string stands for (no `seat`: the engine gives the
    decision to the seat whose step it is). IllegalDecision `invalid_notation` otherwise."""
    if len(text) > MAX_LENGTH:
        raise _refuse(
            text[:40] + "…", msg("longer than {most} characters", most=MAX_LENGTH), pointer
        )
    if text in BARE_WORDS:
        return {"type": text}
    body, src = text, None
    for s in SOURCES:
        if text.endswith("/" + s):
            body, src = text[: -len(s) - 1], s
    head, sep, rest = body.partition(":")
    if head == "lay" and sep:  # the type may be written; it is the default
        body, sep = rest, ""
    out: dict[str, Any]
    if not sep:  # a lay: a placement or a card for the site
        placement = parse_compact(body)
        if placement is not None:
            out = {"type": "lay", "card": placement.card}
            out.update(x=placement.x, y=placement.y, r=placement.r)
        elif _CARD_RE.fullmatch(body):
            out = {"type": "lay", "card": body}
        else:
            raise _refuse(text, msg("a lay is CARD or CARD@x,yrR"), pointer)
    elif head == "buy" and _CARD_RE.fullmatch(rest):
        out = {"type": "buy", "card": rest}
    elif head in ("convert", "clone") and (pair := _PAIR.fullmatch(rest)):
        first = "designer" if head == "convert" else "card"
        out = {"type": head, first: pair[1], "target": pair[2]}
    elif head in ("buy", "convert", "clone"):
        why = (
            msg("a {head} is written buy:CARD", head=head)
            if head == "buy"
            else msg("a {head} is written {head2}:CARD>TARGET", head=head, head2=head)
        )
        raise _refuse(text, why, pointer)
    else:
        raise _refuse(text, msg("unknown decision type {head}", head=short_repr(head)), pointer)
    if src is not None:
        if "from" not in DECISION_FIELDS[out["type"]]:
            raise _refuse(
                text, msg("a {type} has no source (/market, /deck)", type=out["type"]), pointer
            )
        out["from"] = src
    return out
