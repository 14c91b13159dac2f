"""What Fora de Prumo's learned evaluation reads of a position (ai/model.py, docs/model.md):
per seat, its work scored as it stands, part by part (F-8.4 to F-8.12), the size of its hand,
whether it moves, and the game's phase, all public (F-1.10); and what its hand holds, type by
type, which that seat alone sees (F-1.10). A seat's row reads only what that seat may see: in
a world sampled from its view it is the same as in the state (the searching seat's own row is
exact; the other seats' rows read their hands as the world dealt them, as a random playout of
that world plays them).

Each feature comes twice: as it is, and multiplied by the game's progress (the share of the
cards laid, F-3), so that a linear model can weigh what is built more as the end nears."""

from __future__ import annotations

from engine.fora_de_prumo.catalog import TYPES  # F-1.2: a card's type
from engine.fora_de_prumo.flow import tally
from engine.fora_de_prumo.model import FINAL, LAY, Game

PARTS = (  # the parts of a work's score (F-8), as final_scores and tally name them
    "total",
    "connections",
    "spaces",
    "qualified_connections",
    "materials",
    "people",
    "concepts",
    "projects",
    "complete_projects",
)
# to_lay: its turn, past the buy (F-3.3): a bought card is in its hand, not yet in its work
BASE = (*PARTS, "hand", "to_move", "to_lay", "final_turns", *(f"hand_{t}s" for t in TYPES))
NAMES = BASE + tuple(f"{name}*progress" for name in BASE)


def position_features(g: Game) -> list[list[float]]:
    """Every seat's features (NAMES), in seat order."""
    seats = tally(g)["seats"]
    cards = g.cat.cards
    unlaid = len(g.deck) + len(g.market) + sum(len(h) for h in g.hands)
    built = sum(
        len(w.building) + len(w.site) + len(w.converted) + len(w.clones) + len(w.spent)
        for w in g.works
    )
    progress = built / max(1, built + unlaid)
    final = 1.0 if g.step == FINAL else 0.0
    rows = []
    for s, sc in enumerate(seats):
        base = [float(sc[p]) for p in PARTS]
        moves = g.seat == s
        base += [float(len(g.hands[s])), float(moves), float(moves and g.step == LAY), final]
        held = [cards[c].type for c in g.hands[s]]
        base += [float(held.count(t)) for t in TYPES]
        rows.append(base + [x * progress for x in base])
    return rows
