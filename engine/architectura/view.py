"""What one seat may see (A-1.3, A-7.3), and sampling a full state consistent with it.

The same view is what the bots read: a bot is handed `player_view(...)`, never the state,
so it cannot peek. `sample_world` fills the hidden zones (other hands, every deck order,
the generator) at random from the unseen cards: the determinization step of ISMCTS.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from engine.architectura.catalog import Catalog
from engine.architectura.model import Game
from engine.architectura.serialize import game_from_json
from engine.errors import IllegalDecision


def player_view(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """boardgame.io-style playerView: other hands and every deck order hidden, counts and
    the set of unseen cards kept (deck contents are public: A-1.5 replacements are shown);
    face-down cards stay visible (A-7.3); the generator state is hidden (A-1.6)."""
    n = len(state["seats"])
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise IllegalDecision("unknown_seat", f"seat must be 0..{n - 1}", "A-1.1", "/seat")
    view = copy.deepcopy(state)
    for j, s in enumerate(view["seats"]):
        unseen = list(s["deck"]) if j == seat else list(s["deck"]) + list(s["hand"])
        s["deck_count"] = len(s["deck"])
        s["hand_count"] = len(s["hand"])
        s["deck"] = None
        if j != seat:
            s["hand"] = None
        s["unseen"] = sorted(unseen)
    view["rng"] = None
    pending = view.get("pending")
    if pending is not None and pending["seat"] != seat:
        pending["options"] = None
    view["view_of"] = seat
    return view


def sample_world(view: dict[str, Any], rnd: random.Random, catalog: Catalog | None = None) -> Game:
    """A full state consistent with `view`: the unseen cards of each seat dealt at random
    into its hidden hand and deck, and a random generator state for future shuffles."""
    state = copy.deepcopy(view)
    viewer = state.pop("view_of")
    for j, s in enumerate(state["seats"]):
        unseen = list(s.pop("unseen"))
        rnd.shuffle(unseen)
        hand_count = s.pop("hand_count")
        s.pop("deck_count")
        if j != viewer:
            s["hand"] = unseen[:hand_count]
            s["deck"] = unseen[hand_count:]
        else:
            s["deck"] = unseen
    state["rng"] = f"{rnd.getrandbits(64):016x}"
    state["pending"] = None  # recomputed from the resolving steps
    return game_from_json(state, catalog)


class WorldSampler:
    """Fast repeated determinization: the view is read and checked once, then each sample
    only re-deals the unseen cards (ISMCTS draws thousands of worlds per decision)."""

    def __init__(self, view: dict[str, Any], catalog: Catalog | None = None) -> None:
        self.viewer: int = view["view_of"]
        self.base = sample_world(view, random.Random(0), catalog)
        self.hidden: list[tuple[int, list[int], int]] = []
        for j in range(self.base.n):
            hand = self.base.hands[j] if j != self.viewer else []
            pool = sorted(hand + self.base.decks[j])
            self.hidden.append((j, pool, len(hand)))

    def sample(self, rnd: random.Random) -> Game:
        g = self.base.copy()
        for j, pool, hand_count in self.hidden:
            cards = pool[:]
            rnd.shuffle(cards)
            if j != self.viewer:
                g.hands[j] = cards[:hand_count]
                g.decks[j] = cards[hand_count:]
            else:
                g.decks[j] = cards
        g.rng = rnd.getrandbits(64)
        g._opts = None
        return g
