"""A compact notation for Architectura's decisions, like chess's UCI: one short string per
decision, read and written without the state (the seat is always the one the pending
decision belongs to, so it is never written).

    blue.palace@1,2        play a card onto cell [street 1, block 2]      (type play)
    blue.graveyard@-       play a card outside the city (cell null)       (type play)
    down:blue.villa@2,3    play face down (Laboratory, A-R7)              (play_face_down)
    rotate:green.villa/+1  rotate a card one step clockwise (A-7.2)       (steps signed)
    move:blue.inn@2,4      move a card to a cell                          (move)
    fountain@2,5           a cell-only decision (fountain, guesthouse)
    destroy:red.park       a card-only decision (obelisk, pay, destroy, restore, swap,
                           remove, protect, manufactory, smithy)
    mulligan               a decision with no field (mulligan, pass, apply, decline)

Cells are `street,block`, both from 1, as in the JSON cell `[street, block]` (A-1.2).
"""

from __future__ import annotations

import re
from typing import Any

from engine.architectura.serialize import DECISION_TYPES
from engine.errors import IllegalDecision, short_repr
from engine.messages import msg

CLAUSE = "A-3"  # a decision of a turn; the notation only spells it
MAX_LENGTH = 200
PLAY_FACE_DOWN = "down"  # the short word for play_face_down

_CARD = r"[A-Za-z0-9_][A-Za-z0-9_.#-]{0,99}"
_NUMBER = r"(?:0|[1-9][0-9]{0,2})"  # one spelling: no leading zero (`@01,001` was read as `@1,1`)
_CELL = rf"(?:-|{_NUMBER},{_NUMBER})"
_FORM = re.compile(
    rf"^(?:(?P<type>[a-z_]+):)?(?P<card>{_CARD})?(?:@(?P<cell>{_CELL}))?(?:/(?P<steps>[+-]{_NUMBER}))?$"
)
_CARD_RE = re.compile(rf"^{_CARD}$")


def _cell_text(cell: Any) -> str:
    if cell is None:
        return "-"
    street, block = cell
    return f"{street},{block}"


def to_notation(d: dict[str, Any]) -> str | None:
    """The notation of a decision object (its `seat` left out); None when it cannot be
    written (a field of an unexpected shape, a card id with a reserved character)."""
    kind = d.get("type")
    fields = DECISION_TYPES.get(kind) if isinstance(kind, str) else None
    if fields is None:
        return None
    card = d.get("card", d.get("target"))
    if ("card" in fields or "target" in fields) and not (
        isinstance(card, str) and _CARD_RE.fullmatch(card)
    ):
        return None
    cell = d.get("cell")
    if "cell" in fields and not (
        cell is None
        or (
            isinstance(cell, list)
            and len(cell) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1000 for v in cell)
        )
    ):
        return None
    steps = d.get("steps")
    if "steps" in fields and not (
        isinstance(steps, int) and not isinstance(steps, bool) and -1000 < steps < 1000
    ):
        return None
    if kind == "play":
        return f"{card}@{_cell_text(cell)}"
    head = PLAY_FACE_DOWN if kind == "play_face_down" else kind
    if not fields:
        return head
    if fields == ("cell",):
        return f"{head}@{_cell_text(cell)}"
    text = f"{head}:{card}"
    if "cell" in fields:
        text += f"@{_cell_text(cell)}"
    if "steps" in fields:
        text += f"/{steps:+d}"
    return text


def _refuse(text: str, why: str, pointer: str) -> IllegalDecision:
    return IllegalDecision(
        "invalid_notation",
        msg(
            (
                "{text} is not a decision in notation: {why} (e.g. blue.palace@1,2, "
                "rotate:green.villa/+1, mulligan)."
            ),
            text=short_repr(text),
            why=why,
        ),
        CLAUSE,
        pointer,
    )


def from_notation(text: str, pointer: str = "") -> dict[str, Any]:
    """The decision object a notation string stands for (no `seat`: the engine gives the
    decision to the seat whose turn it is). IllegalDecision `invalid_notation` otherwise."""
    if len(text) > MAX_LENGTH:
        raise _refuse(
            text[:40] + "…", msg("longer than {most} characters", most=MAX_LENGTH), pointer
        )
    word = text if text in DECISION_TYPES and not DECISION_TYPES[text] else None
    if word is not None:
        return {"type": word}
    m = _FORM.fullmatch(text)
    if m is None:
        raise _refuse(text, msg("it does not read as [type:]card[@street,block][/±steps]"), pointer)
    head, card, cell, steps = m["type"], m["card"], m["cell"], m["steps"]
    if head is None and card in DECISION_TYPES and cell is not None:  # fountain@2,5
        head, card = card, None
    if head is None:
        head = "play"
    kind = "play_face_down" if head == PLAY_FACE_DOWN else head  # the long name reads too
    fields = DECISION_TYPES.get(kind)
    if fields is None:
        raise _refuse(text, msg("unknown decision type {head}", head=short_repr(head)), pointer)
    raw = {"card": card, "cell": cell, "steps": steps}
    wants = {"card": "card" in fields or "target" in fields, "cell": "cell" in fields}
    wants["steps"] = "steps" in fields
    for part, value in raw.items():
        if value is None and wants[part]:
            raise _refuse(
                text, msg("a {kind} decision needs its {part}", kind=kind, part=part), pointer
            )
        if value is not None and not wants[part]:
            raise _refuse(
                text, msg("a {kind} decision has no {part}", kind=kind, part=part), pointer
            )
    out: dict[str, Any] = {"type": kind}
    for f in fields:
        if f == "cell":
            out[f] = None if cell == "-" else [int(x) for x in str(cell).split(",")]
        elif f == "steps":
            out[f] = int(str(steps))
        else:
            out[f] = card
    return out
