"""What Fora de Prumo's learned evaluation reads of a position (ai/model.py, docs/model.md):
per seat, its work scored as it stands, part by part (F-8.4 to F-8.12), the size of its hand
(its cards are hidden, their number is not), whether it moves, and the game's phase; all of
it public (F-R13).

Each feature comes twice: as it is, and multiplied by the game's progress (the share of the
cards laid, F-3), so that a linear model can weigh what is built more as the end nears."""

from __future__ import annotations

from engine.fora_de_prumo.flow import final_scores
from engine.fora_de_prumo.model import FINAL, Game

PARTS = (  # the parts of a work's score (F-8), as final_scores names them
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
BASE = (*PARTS, "hand", "to_move", "final_turns")
NAMES = BASE + tuple(f"{name}*progress" for name in BASE)


def position_features(g: Game) -> list[list[float]]:
    """Every seat's features (NAMES), in seat order."""
    seats = final_scores(g)["seats"]
    cards = len(g.deck) + len(g.market) + sum(len(h) for h in g.hands)
    built = sum(
        len(w.building) + len(w.site) + len(w.converted) + len(w.clones) + len(w.spent)
        for w in g.works
    )
    progress = built / max(1, built + cards)
    final = 1.0 if g.step == FINAL else 0.0
    rows = []
    for s, sc in enumerate(seats):
        base = [float(sc[p]) for p in PARTS]
        base += [float(len(g.hands[s])), 1.0 if g.seat == s else 0.0, final]
        rows.append(base + [x * progress for x in base])
    return rows
