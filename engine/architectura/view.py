"""What one seat may see (A-1.3, A-7.3), and sampling a full state consistent with it.

The same view is what the bots read: a bot is handed `player_view(...)`, never the state,
so it cannot peek. `sample_world` fills the hidden zones (other hands, every deck order,
the generator) at random from the unseen cards: the determinization step of ISMCTS.
"""

from __future__ import annotations

import random
from typing import Any

from engine.architectura.catalog import MAX_CARDS, Catalog
from engine.architectura.model import Game
from engine.architectura.serialize import game_from_json, game_to_json
from engine.declared import Problems
from engine.errors import IllegalDecision, InvalidState
from engine.messages import msg
from engine.protocol import finish_view


def player_view(state: Any, seat: int, catalog: Any = None) -> dict[str, Any]:
    """boardgame.io-style playerView of a JSON state (read through the validator: a
    malformed state is refused with InvalidState). `catalog`: the document, for a state
    made with a custom catalog."""
    from engine.architectura.api import load  # api builds on this module

    return game_view(load(state, catalog), seat)


def game_view(g: Game, seat: int) -> dict[str, Any]:
    """A-R13: other hands and every deck order hidden, counts and the set of unseen cards
    kept (deck lists are public: A-1.5 replacements are shown); face-down cards stay
    visible (A-7.3); the generator state is hidden (A-1.6). Built from the canonical JSON,
    so states that differ only in hidden parts give byte-identical views."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < g.n:
        raise IllegalDecision(
            "unknown_seat", msg("seat must be 0..{last}", last=g.n - 1), "A-1.1", "/seat"
        )
    view = game_to_json(g)
    for j, s in enumerate(view["seats"]):
        unseen = list(s["deck"]) if j == seat else list(s["deck"]) + list(s["hand"])
        s["deck_count"] = len(s["deck"])
        s["hand_count"] = len(s["hand"])
        s["deck"] = None
        if j != seat:
            s["hand"] = None
        s["unseen"] = sorted(unseen)
    return finish_view(view, seat)


def sample_world(view: dict[str, Any], rnd: random.Random, catalog: Catalog | None = None) -> Game:
    """A full state consistent with `view`: the unseen cards of each seat dealt at random
    into its hidden hand and deck, and a random generator state for future shuffles."""
    # only the seats' own dicts and top-level keys change: a shallow copy of those suffices
    state = {**view, "seats": [dict(s) for s in view["seats"]]}
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


MAX_SEATS = 4


def check_view_bounds(view: Any) -> None:
    """What the sampler reads before the strict reader does, each seat's unseen cards and
    counts, bounded and consistent (A-R13): refused (InvalidState, pointers in the view)
    before a 2 MB view costs a 2 MB shuffle, or a negative count deals from the list's end
    and the refusal names a field the view does not have."""
    if not isinstance(view, dict) or not isinstance(view.get("seats"), list):
        return  # not a view: the sampler's own check says so
    r = Problems(named=True)
    viewer = view.get("view_of")
    if isinstance(viewer, int) and not 0 <= viewer < len(view["seats"]):
        last = len(view["seats"]) - 1
        r.bad(
            "invalid_view", msg("view_of must be a seat, 0..{last}", last=last), "/view_of", "A-1.1"
        )
    for j, s in enumerate(r.lst(view["seats"], "/seats", MAX_SEATS, msg("2 to 4 seats"), "A-1.1")):
        if not isinstance(s, dict):
            continue
        at = f"/seats/{j}"
        most = msg("one per card of a catalog")
        n = len(r.lst(s.get("unseen"), f"{at}/unseen", MAX_CARDS, most, "A-R13"))
        deck = r.int_(s.get("deck_count"), f"{at}/deck_count", 0, n, "A-R13")
        hand = r.int_(s.get("hand_count"), f"{at}/hand_count", 0, MAX_CARDS, "A-R13")
        if j != viewer and not r.problems and hand + deck != n:
            r.bad(
                "invalid_view",
                msg(
                    "hand_count {hand} and deck_count {deck} must add up to the {n} cards in "
                    "unseen: send the view /v1/view answered, unchanged.",
                    hand=hand,
                    deck=deck,
                    n=n,
                ),
                f"{at}/hand_count",
                "A-R13",
            )
    if r.problems:
        raise InvalidState(r.problems)


class WorldSampler:
    """Fast repeated determinization: the view is read and checked once, then each sample
    only re-deals the unseen cards (ISMCTS draws thousands of worlds per decision)."""

    def __init__(self, view: dict[str, Any], catalog: Catalog | None = None) -> None:
        check_view_bounds(view)
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


# Event fields that name cards only their seat may know: a drawn card, the card
# given back to the deck for the Obelisk.
_PRIVATE_FIELDS = {"drew": "cards", "obelisk_taken": "gave"}


def events_for_seat(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The event log as `seat` may see it: other seats' drawn cards and the card an
    Obelisk exchange put back are withheld (counts kept). The full log is the referee's."""
    out = []
    for ev in events:
        field = _PRIVATE_FIELDS.get(ev.get("type", ""))
        if field and ev.get("seat") != seat and field in ev:
            ev = {k: v for k, v in ev.items() if k != field}
            ev["hidden"] = field
        out.append(ev)
    return out
