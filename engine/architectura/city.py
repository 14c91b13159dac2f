"""The city: card values (A-2), eligible cells (A-4), protection (A-6) and the primitive
changes every rule is built from (A-7.3 destroy, A-7.4 restore, A-7.5 move, A-7.6 swap,
A-7.7 remove). Nothing here asks a player anything; flow.py does that."""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence

from engine.architectura.catalog import Selector
from engine.architectura.model import BLOCKS, Entry, Game, cell_event, cell_json


def adjacent_cells(g: Game, cell: int) -> list[int]:
    """A-7.1: left, right, above, below; never diagonal."""
    street, block = divmod(cell, BLOCKS)
    out = []
    if block > 0:
        out.append(cell - 1)
    if block < BLOCKS - 1:
        out.append(cell + 1)
    if street > 0:
        out.append(cell - BLOCKS)
    if street < g.n - 1:
        out.append(cell + BLOCKS)
    return out


# ADJACENT[n][cell]: adjacent_cells of each cell of an n-street city, listed once
ADJACENT: dict[int, tuple[tuple[int, ...], ...]] = {}


def adjacency(g: Game) -> tuple[tuple[int, ...], ...]:
    """Every cell's adjacent_cells (A-7.1) for the game's city size, from the table."""
    table = ADJACENT.get(g.n)
    if table is None:
        table = ADJACENT[g.n] = tuple(tuple(adjacent_cells(g, c)) for c in range(g.n * BLOCKS))
    return table


# The cells of an n-seat city (A-1.1: 2 to 4 seats, one street each) as ranges built once,
# all of them (CELLS[n]) and street by street (STREETS[n]): the hot loops walk them, and
# building a range costs more than reading one
CELLS: dict[int, range] = {n: range(n * BLOCKS) for n in range(2, 5)}
STREETS: dict[int, tuple[range, ...]] = {
    n: tuple(range(base, base + BLOCKS) for base in range(0, n * BLOCKS, BLOCKS))
    for n in range(2, 5)
}


def street_cells(cell: int) -> range:
    return STREETS[4][cell // BLOCKS]  # street k is the same cells in every city size


def selector_cells(g: Game, sel: Selector, cell: int) -> Sequence[int]:
    """The cells a selector looks at, relative to `cell` (none when the card has left)."""
    if sel.where == "city":
        return CELLS[g.n]
    if cell < 0:
        return []
    if sel.where == "adjacent":
        return adjacency(g)[cell]
    return street_cells(cell)


def selected_tops(g: Game, sel: Selector, cell: int, seat: int) -> list[tuple[int, Entry]]:
    """The top cards around `cell` that fit the selector's face, owner and card (A-7,
    A-7.10), with their cells, in cell order; `seat` is the selector's "own"."""
    face_up = sel.face == "up"
    own_only = sel.owner == "own"
    card = sel.card
    city, owner, cdef = g.city, g.inst.owner, g.inst.cdef
    out = []
    # selector_cells, without a call: most selectors look at the whole city
    cells = CELLS[g.n] if sel.where == "city" else selector_cells(g, sel, cell)
    for c in cells:
        stack = city[c]
        if stack:
            entry = stack[-1]
            iid = entry[0]
            if (
                entry[2] == face_up
                and (not own_only or owner[iid] == seat)
                and (card is None or cdef[iid].id == card)
            ):
                out.append((c, entry))
    return out


def current_value(g: Game, cell: int) -> int | None:
    """A-2.3/A-2.4/A-2.6: the value of the top card, recomputed on every read; None when the
    cell is empty or its top card is face down."""
    stack = g.city[cell]
    if not stack:
        return None
    iid, orient, face_up, _ = stack[-1]
    if not face_up:
        return None
    card = g.inst.cdef[iid]
    if card.formula is None:
        return card.values[orient]
    block = cell % BLOCKS
    if card.formula == "X":
        left = current_value(g, cell - 1) if block > 0 else None
        return (left if left is not None else 0) + card.offset
    return block + 1 + card.offset


def is_protected(g: Game, entry: Entry) -> bool:
    """A-6.1: a token on it, or the shield symbol printed on it."""
    return entry[3] or g.inst.shielded[entry[0]]


def protected_against(g: Game, entry: Entry, actor: int) -> bool:
    """A-6.2: a protected card cannot be affected by its owner's opponents."""
    return g.inst.owner[entry[0]] != actor and is_protected(g, entry)


def eligible_cells(g: Game, seat: int, lifted: int = -1) -> list[int]:
    """A-4.1 (a)(b)(c) and A-4.3, for `seat`; `lifted` is the cell a moving card leaves (A-4.4):
    the card is lifted off its cell while the city is looked at, then put back.

    A-R1: a Fountain token occupies its cell for (a) and (b), and its cell stays eligible
    for the token's owner; a token only ever lies on an empty cell (the state reader
    refuses others). One pass over the city: this is the engine's hottest function.
    """
    if lifted >= 0:
        stack = g.city[lifted]
        entry = stack.pop()
        try:
            return eligible_cells(g, seat)
        finally:
            stack.append(entry)
    out: list[int] = []
    city, fountain = g.city, g.fountain
    tokens = fountain.count(-1) < len(fountain)  # most games have no Fountain token out
    opened = False  # block 1 of the first street with no card and no token is open (b)
    for street in STREETS[g.n]:
        empty_street = True
        left_occupied = False
        for cell in street:
            stack = city[cell]
            if stack:
                empty_street = False
                left_occupied = True
                if not stack[-1][2]:
                    out.append(cell)  # (c) a face-down top card
            elif tokens and fountain[cell] >= 0:
                empty_street = False
                left_occupied = True
                if fountain[cell] == seat:
                    out.append(cell)
            elif left_occupied:
                out.append(cell)  # (a)
                left_occupied = False
        if empty_street and not opened:
            out.append(street.start)  # (b): nothing else of this street was added
            opened = True
    return out


def eligible_cells_lifted(g: Game, seat: int, lifted: int, eligible: list[int]) -> list[int]:
    """A-4.4: `eligible_cells(g, seat, lifted)`, derived from `eligible`, the cells eligible
    for `seat` with the card in place (`eligible_cells(g, seat)`); a Tavern lists one such
    set for each of its owner's cards, and the derivation spares a pass over the city each.

    Lifting the top card of `lifted` changes A-4.1 for two cells only: `lifted` itself, and
    the cell to its right, whose (a) reads whether `lifted` is occupied. When that leaves
    the street with no card and no token, (b) may move to it: the whole city is read then.
    """
    city, fountain = g.city, g.fountain
    stack = city[lifted]
    out = eligible[:]
    if not stack[-1][2]:
        out.remove(lifted)  # eligible by (c) while its face-down top card lies there
    if len(stack) > 1:  # the cell stays occupied: (c) for the card now on top
        if not stack[-2][2]:
            insort(out, lifted)
        return out
    base = lifted - lifted % BLOCKS
    end = base + BLOCKS
    if fountain[lifted] >= 0 or (
        city[base:end].count([]) == BLOCKS - 1 and fountain[base:end].count(-1) == BLOCKS
    ):
        return eligible_cells(g, seat, lifted)  # a token under a card, or the street empties
    # the cell empties and its street does not: (a) for it and for the cell to its right
    if lifted > base and (city[lifted - 1] or fountain[lifted - 1] >= 0):
        insort(out, lifted)
    right = lifted + 1
    if right < end and not city[right] and fountain[right] < 0:
        out.remove(right)  # it was eligible by (a), `lifted` being occupied
    return out


def breaks_three_in_a_row(g: Game, seat: int, cell: int) -> bool:
    """A-4.2: with 3-4 players, a play may not make 3+ consecutive face-up cards of the
    player's colour in a street (face-down cards break a run)."""
    if g.n < 3:
        return False
    base = cell - cell % BLOCKS
    owner = g.inst.owner
    run = 1
    c = cell - 1
    while c >= base:
        stack = g.city[c]
        if not stack or not stack[-1][2] or owner[stack[-1][0]] != seat:
            break
        run += 1
        c -= 1
    c = cell + 1
    while c < base + BLOCKS:
        stack = g.city[c]
        if not stack or not stack[-1][2] or owner[stack[-1][0]] != seat:
            break
        run += 1
        c += 1
    return run >= 3


def has_graveyard(g: Game, seat: int) -> bool:
    outside = g.outside[seat]  # usually empty: no generator then
    return bool(outside) and any("graveyard" in g.inst.cdef[i].passive for i in outside)


# -- primitive changes -----------------------------------------------------------------


def claim_fountain(g: Game, seat: int, cell: int) -> None:
    """A-9 Fountain: the owner playing or moving a card onto the token's cell takes it back."""
    if g.fountain[cell] == seat:
        g.fountain[cell] = -1
        g.tokens[seat] += 1
        if g.log is not None:
            g.log.append(
                {
                    "type": "token_returned",
                    "seat": seat,
                    "cell": cell_json(cell),
                    "reason": "fountain",
                    "clause": "A-9",
                }
            )


def place(g: Game, iid: int, cell: int, face_up: bool) -> None:
    """A-2.2: a card enters the city with its basic value on top."""
    g.city[cell].append((iid, g.inst.cdef[iid].basic_index, face_up, False))
    g._at[iid] = cell  # where `locate` looks first
    if g.fountain[cell] >= 0:
        claim_fountain(g, g.inst.owner[iid], cell)


def return_token(g: Game, entry: Entry, reason: str) -> Entry:
    """A-6.4: a token returns to its owner when its card leaves the city or is destroyed."""
    if entry[3]:
        seat = g.inst.owner[entry[0]]
        g.tokens[seat] += 1
        if g.log is not None:
            g.log.append(
                {
                    "type": "token_returned",
                    "seat": seat,
                    "card": g.name(entry[0]),
                    "reason": reason,
                    "clause": "A-6.4",
                }
            )
        return (entry[0], entry[1], entry[2], False)
    return entry


def destroy_now(g: Game, cell: int, clause: str) -> None:
    """A-7.3: turn the top card face down in place, or (A-9 Graveyard) put it beside the
    owner's Graveyard."""
    entry = g.city[cell][-1]
    entry = return_token(g, entry, "destroyed")
    seat = g.inst.owner[entry[0]]
    if has_graveyard(g, seat):
        g.city[cell].pop()
        g.graves[seat].append(entry[0])
        if g.log is not None:
            g.log.append(cell_event(g, "destroyed", entry[0], cell, clause, {"to": "graveyard"}))
        return
    g.city[cell][-1] = (entry[0], entry[1], False, False)
    if g.log is not None:
        g.log.append(cell_event(g, "destroyed", entry[0], cell, clause))


def rotate_now(g: Game, cell: int, steps: int, wrap: bool, clause: str) -> bool:
    """A-2.1 rotation (+ clockwise/higher, - counter-clockwise/lower); comparisons never
    wrap (A-5.5). Returns False when nothing turned."""
    iid, orient, face_up, token = g.city[cell][-1]
    n = len(g.inst.cdef[iid].values)
    if n < 2:
        return False
    new = orient + steps
    if wrap:
        new %= n
    elif not 0 <= new < n:
        return False
    if new == orient:
        return False
    g.city[cell][-1] = (iid, new, face_up, token)
    if g.log is not None:
        g.log.append(
            {
                "type": "rotated",
                "card": g.name(iid),
                "cell": cell_json(cell),
                "steps": steps,
                "value": current_value(g, cell),
                "clause": clause,
            }
        )
    return True


def restore_now(g: Game, cell: int, clause: str) -> None:
    """A-7.4: face up with the basic value on top; no comparison, no effect."""
    iid = g.city[cell][-1][0]
    g.city[cell][-1] = (iid, g.inst.cdef[iid].basic_index, True, False)
    if g.log is not None:
        g.log.append(
            {"type": "restored", "card": g.name(iid), "cell": cell_json(cell), "clause": clause}
        )


def remove_from_city(g: Game, cell: int, clause: str) -> None:
    """A-7.7: the top card leaves the game; the cell shows what it covered."""
    entry = return_token(g, g.city[cell].pop(), "removed")
    seat = g.inst.owner[entry[0]]
    g.removed[seat].append(entry[0])
    if g.log is not None:
        g.log.append(cell_event(g, "removed", entry[0], cell, clause))


def move_now(g: Game, src: int, dst: int, clause: str) -> None:
    """A-7.5: same orientation, token travels with it; covered cards stay."""
    entry = g.city[src].pop()
    g.city[dst].append(entry)
    g._at[entry[0]] = dst
    claim_fountain(g, g.inst.owner[entry[0]], dst)
    if g.log is not None:
        g.log.append(
            {
                "type": "moved",
                "card": g.name(entry[0]),
                "from": cell_json(src),
                "to": cell_json(dst),
                "clause": clause,
            }
        )


def swap_now(g: Game, a: int, b: int, clause: str) -> None:
    """A-7.6: exchange the two top cards, same orientations."""
    ea, eb = g.city[a][-1], g.city[b][-1]
    g.city[a][-1], g.city[b][-1] = eb, ea
    g._at[ea[0]], g._at[eb[0]] = b, a
    if g.log is not None:
        g.log.append(
            {
                "type": "swapped",
                "cards": [g.name(ea[0]), g.name(eb[0])],
                "cells": [cell_json(a), cell_json(b)],
                "clause": clause,
            }
        )
