"""What Architectura's learned evaluation reads of a position (ai/model.py, docs/model.md):
per seat, the score as it stands (A-8.1) and what can still change it: the city, the tokens,
which seat moves, and the cards a seat has not played yet (its hand and deck together: the
colour's cards not in the city, A-1.3, whose sum every seat can count), all public (A-R13);
and its own hand, which that seat alone sees (A-1.3). A seat's row reads only what that seat
may see: in a world sampled from its view it is the same as in the state (the searching seat's
own row is exact; the other seats' rows read their hands as the world dealt them, as a random
playout of that world plays them).

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
    "threatened",  # of those, the value the other seats' unplayed cards could destroy: each
    # card's value times the share of their cards worth at least twice it
    "threat",  # the same of the other seats' exposed cards, by its own unplayed cards
    "to_move",  # 1 for the seat whose turn it is
    "mulligan",  # 1 while its once-a-game mulligan is unused (A-3.1b)
    "hand_value",  # its hand's basic values summed: what it can play next
    "hand_best",  # the highest basic value in its hand
    "hand_strike",  # the largest exposed card of another seat that a card in its hand
    # could destroy now: worth at least twice it
)
NAMES = BASE + tuple(f"{name}*progress" for name in BASE)


def _exposed(g: Game) -> list[list[int]]:
    """Per seat, the current values of its exposed top cards (see BASE)."""
    out: list[list[int]] = [[] for _ in range(g.n)]
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
        if v is not None and v > 0:
            out[owner[iid]].append(v)
    return out


def _at_risk(values: list[int], cards: list[int]) -> float:
    """The value of `values` that `cards` (basic values) could destroy: each value times the
    share of the cards worth at least twice it (A-5.2)."""
    if not cards:
        return 0.0
    return sum(v * sum(1 for c in cards if c >= 2 * v) for v in values) / len(cards)


def _strike(values: list[int], cards: list[int]) -> float:
    """The largest of `values` that one of `cards` (basic values) could destroy: worth at
    least twice it (A-5.2); 0 when none can."""
    best = max(cards, default=0)
    return float(max((v for v in values if best >= 2 * v), default=0))


def position_features(g: Game) -> list[list[float]]:
    """Every seat's features (NAMES), in seat order."""
    cdef = g.inst.cdef
    exposed = _exposed(g)
    hand = [[cdef[i].basic_value or 0 for i in g.hands[s]] for s in range(g.n)]
    unplayed = [hand[s] + [cdef[i].basic_value or 0 for i in g.decks[s]] for s in range(g.n)]
    left = [len(u) for u in unplayed]
    progress = 1.0 - min(1.0, sum(left) / ((DECK + HAND_LIMIT) * g.n))
    rows = []
    for s in range(g.n):
        sc = seat_score(g, s)
        others = [c for t in range(g.n) if t != s for c in unplayed[t]]
        their_exposed = [v for t in range(g.n) if t != s for v in exposed[t]]
        base = [
            float(sc["total"]),
            float(sc["face_up_cards"]),
            float(left[s]),
            float(sum(unplayed[s])),
            float(g.tokens[s]),
            float(sum(exposed[s])),
            _at_risk(exposed[s], others),
            _at_risk(their_exposed, unplayed[s]),
            1.0 if g.seat == s else 0.0,
            0.0 if g.mulligan[s] else 1.0,
            float(sum(hand[s])),
            float(max(hand[s], default=0)),
            _strike(their_exposed, hand[s]),
        ]
        rows.append(base + [x * progress for x in base])
    return rows
