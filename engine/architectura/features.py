"""What Architectura's learned evaluation reads of a position (ai/model.py, docs/model.md):
per seat, the score as it stands (A-8.1) and what can still change it, all public (A-R13):
the city, the tokens, which seat moves, and the cards a seat has not played yet (its hand and
deck together: the colour's cards not in the city, A-1.3, whose sum every seat can count).

Each feature comes twice: as it is, and multiplied by the game's progress (the share of all
cards played), so that a linear model can weigh the score more as the game nears its end."""

from __future__ import annotations

from engine.architectura.city import current_value
from engine.architectura.model import BLOCKS, HAND_LIMIT, Game
from engine.architectura.scoring import seat_score

DECK = 12  # each seat's deck, its hand drawn from it
BASE = (
    "score",  # the seat's total as the city stands
    "face_up",  # its face-up top cards (A-8.2's first tie-break)
    "cards_left",  # cards in its hand and deck: plays still to come
    "value_left",  # their basic values summed (A-2.2: a card enters with it on top)
    "tokens",  # protection tokens left
    "exposed",  # current value of its own unprotected top cards with a free cell on their
    # right: the next card played there is compared with them
    "to_move",  # 1 for the seat whose turn it is
    "mulligan",  # 1 while its once-a-game mulligan is unused (A-3.1b)
)
NAMES = BASE + tuple(f"{name}*progress" for name in BASE)


def _exposed(g: Game) -> list[float]:
    """Per seat, the summed current value of its exposed top cards (see BASE)."""
    out = [0.0] * g.n
    city, owner, shielded = g.city, g.inst.owner, g.inst.shielded
    for cell, stack in enumerate(city):
        if not stack or cell % BLOCKS == BLOCKS - 1:
            continue
        iid, _, face_up, token = stack[-1]
        if not face_up or token or shielded[iid]:
            continue
        right = city[cell + 1]
        if right and right[-1][2]:  # a face-up card on its right: no free cell there
            continue
        v = current_value(g, cell)
        if v is not None:
            out[owner[iid]] += v
    return out


def position_features(g: Game) -> list[list[float]]:
    """Every seat's features (NAMES), in seat order."""
    cdef = g.inst.cdef
    exposed = _exposed(g)
    left = [len(g.hands[s]) + len(g.decks[s]) for s in range(g.n)]
    progress = 1.0 - min(1.0, sum(left) / ((DECK + HAND_LIMIT) * g.n))
    rows = []
    for s in range(g.n):
        sc = seat_score(g, s)
        value_left = sum(cdef[i].basic_value or 0 for i in g.hands[s]) + sum(
            cdef[i].basic_value or 0 for i in g.decks[s]
        )
        base = [
            float(sc["total"]),
            float(sc["face_up_cards"]),
            float(left[s]),
            float(value_left),
            float(g.tokens[s]),
            exposed[s],
            1.0 if g.seat == s else 0.0,
            0.0 if g.mulligan[s] else 1.0,
        ]
        rows.append(base + [x * progress for x in base])
    return rows
