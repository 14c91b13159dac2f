"""A-8: scores, end-of-game effects (A-7.10) and the tie-break."""

from __future__ import annotations

from typing import Any

from engine.architectura.catalog import Score
from engine.architectura.city import current_value, selected_tops
from engine.architectura.model import Game, cell_json


def _matches(g: Game, sc: Score, cell: int, seat: int) -> int:
    """How many other top cards around `cell` fit the modifier's selector."""
    return sum(1 for c, _ in selected_tops(g, sc.target, cell, seat) if c != cell)


def end_of_game_bonus(g: Game, sc: Score, seat: int, cell: int) -> int:
    """A-7.10: one scoring modifier of a card (Theatre, Statue, Graveyard)."""
    if sc.score == "per_graveyard_card":
        return sc.points * len(g.graves[seat])
    n = _matches(g, sc, cell, seat)
    if sc.score == "per_match":
        return sc.points * n
    return sc.points if n else 0


def seat_score(g: Game, seat: int) -> dict[str, Any]:
    """A-8.1: face-up top cards' values + their end-of-game effects + scoring cards outside."""
    city = 0
    bonuses: list[dict[str, Any]] = []
    values: list[int] = []
    owner, cdef = g.inst.owner, g.inst.cdef
    for cell, stack in enumerate(g.city):
        if not stack:
            continue
        iid, _, face_up, _ = stack[-1]
        if not face_up or owner[iid] != seat:
            continue
        v = current_value(g, cell)
        assert v is not None
        city += v
        values.append(v)
        for sc in cdef[iid].end_of_game:
            pts = end_of_game_bonus(g, sc, seat, cell)
            if pts:
                bonuses.append({"card": g.name(iid), "cell": cell_json(cell), "points": pts})
    outside = 0
    for iid in g.outside[seat]:
        card = g.card(iid)
        outside += card.basic_value or 0
        for sc in card.end_of_game:
            pts = end_of_game_bonus(g, sc, seat, -1)
            if pts:
                bonuses.append({"card": g.name(iid), "cell": None, "points": pts})
    total = city + outside + sum(b["points"] for b in bonuses)
    return {
        "seat": seat,
        "colour": g.colours[seat],
        "city": city,
        "outside": outside,
        "bonuses": bonuses,
        "total": total,
        "face_up_cards": len(values),
        "lowest_card_value": min(values) if values else None,
    }


def final_scores(g: Game) -> dict[str, Any]:
    """A-8.1 and the A-8.2 tie-break: most face-up cards, then the single lowest-valued
    card, otherwise the tied players share the win (ruling)."""
    seats = [seat_score(g, s) for s in range(g.n)]
    best = max(s["total"] for s in seats)
    tied = [s for s in seats if s["total"] == best]
    decided_by = "score"
    if len(tied) > 1:
        most = max(s["face_up_cards"] for s in tied)
        tied = [s for s in tied if s["face_up_cards"] == most]
        decided_by = "face_up_cards"
        if len(tied) > 1:
            lows = [s["lowest_card_value"] for s in tied if s["lowest_card_value"] is not None]
            if lows:
                low = min(lows)
                holders = [s for s in tied if s["lowest_card_value"] == low]
                if len(holders) == 1:
                    tied = holders
                    decided_by = "lowest_card"
                else:
                    decided_by = "shared"
            else:
                decided_by = "shared"
    return {
        "seats": seats,
        "winners": [s["seat"] for s in tied],
        "decided_by": decided_by,
        "clause": "A-8.2" if decided_by != "score" else "A-8.1",
    }


# A search's tally (engine/games.py): Architectura's final scores are cheap and lean already.
tally = final_scores
