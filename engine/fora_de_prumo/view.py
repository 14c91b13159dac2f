"""What one seat may see (F-1.10, F-R6), and sampling full states consistent with it.

Hidden from a seat: the other hands, the deck order, the generator, the cards other seats saw
with the coordenadora (and a card they bought from the deck), and other seats' clone cards.
The view keeps the counts and lists the viewer's `unseen` cards, so `WorldSampler` can re-deal
exactly what the viewer cannot know; what it does know (its own peeked cards, on the deck top in
order) stays in place in every sampled world.
"""

from __future__ import annotations

import random
from typing import Any

from engine import canonical
from engine.declared import Problems, unknown_fields
from engine.errors import IllegalDecision, InvalidState, Problem
from engine.fora_de_prumo.catalog import Catalog
from engine.fora_de_prumo.model import Game
from engine.fora_de_prumo.schema import STATE_FIELDS, TURN_FIELDS
from engine.fora_de_prumo.serialize import (
    game_from_json,
    game_to_json,
    resolve_catalog,
)
from engine.messages import msg
from engine.protocol import finish_view, view_mismatch, with_nulls


def player_view(state: Any, seat: int, catalog: Any = None) -> dict[str, Any]:
    """The view of a JSON state (read through the strict reader)."""
    from engine.fora_de_prumo.api import load  # api builds on this module

    return game_view(load(state, catalog), seat)


def game_view(g: Game, seat: int) -> dict[str, Any]:
    """F-R6. Built from the canonical JSON, so states that differ only in what `seat` cannot
    see give byte-identical views. A view is a function of the state, which remembers this
    turn's look and purchase only: a seat's knowledge from earlier turns (cards it saw on the
    deck, cards others took from the market) is not carried (proposed ruling F-R41)."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < g.n:
        raise IllegalDecision(
            "unknown_seat", msg("seat must be 0..{last}", last=g.n - 1), "F-1.1", "/seat"
        )
    view = game_to_json(g)
    looker = g.seat if g.peeked and not g.over else -1
    on_deck = g.peeked_on_deck() if looker == seat else []
    unseen: list[str] = list(g.deck[len(on_deck) :])
    public = market_purchase(g)  # everyone saw it leave the market for that hand
    for j, s in enumerate(view["seats"]):
        s["hand_count"] = len(g.hands[j])
        if j != seat:
            unseen.extend(c for c in g.hands[j] if c != public)
            s["hand"] = None
            clones = s["work"]["clones"]
            unseen.extend(c["card"] for c in clones)
            s["work"]["clones"] = [{"target": c["target"], "card": None} for c in clones]
    view["deck"] = None
    view["deck_count"] = len(g.deck)
    turn = view["turn"]
    turn["peeked_count"] = len(g.peeked)
    turn["bought_from"] = None if g.bought is None else "deck" if g.bought_from_deck() else "market"
    if looker != seat:
        turn["peeked"] = None
        if g.bought_from_deck():
            turn["bought"] = None
    view["unseen"] = sorted(unseen)
    return finish_view(view, seat)


def market_purchase(g: Game) -> str | None:
    """The card bought from the market this turn: public, and known to be in the buyer's hand
    (F-1.10: the market is public; proposed ruling F-R42)."""
    return None if g.bought is None or g.bought_from_deck() else g.bought


VIEW_ONLY_TURN = ("peeked_count", "bought_from")
VIEW_FIELDS = (*STATE_FIELDS, "view_of", "unseen", "deck_count")
VIEW_SEAT_FIELDS = ("hand", "work", "hand_count")
MAX_SEATS = 4  # F-1.1


def check_view_bounds(view: Any, catalog: Catalog | None) -> None:
    """What the sampler reads before the strict reader does, bounded by what the game can
    hold (the view's fields, at most four seats, at most the catalog's cards unseen or cloned,
    two peeked): refused (InvalidState) before a 2 MB view costs a 2 MB shuffle. Fields the
    sampler drops (hand_count, unseen...) are checked here, as the strict reader never sees
    them. Shapes it does not look at are left to the reader and the final comparison."""
    r = Problems(named=True)
    if not isinstance(view, dict):
        return  # not a view: the sampler's own check says so
    unknown_fields(r.problems, view, VIEW_FIELDS, "")
    cat = resolve_catalog(r, view.get("catalog"), catalog)
    seats = r.lst(view.get("seats"), "/seats", MAX_SEATS, msg("2 to 4 seats"), "F-1.1")
    turn = view.get("turn")
    if isinstance(turn, dict):
        unknown_fields(r.problems, turn, (*TURN_FIELDS, *VIEW_ONLY_TURN), "/turn")
        if turn.get("peeked") is not None:
            r.lst(turn["peeked"], "/turn/peeked", 2, msg("the deck's top two cards"), "F-R19")
    if cat is not None:
        most, what = len(cat.cards), "one per card of the catalog"
        r.lst(view.get("unseen"), "/unseen", most, what, "F-R6")
        for j, s in enumerate(seats):
            if isinstance(s, dict):
                unknown_fields(r.problems, s, VIEW_SEAT_FIELDS, f"/seats/{j}")
                work = s.get("work")
                if isinstance(work, dict):
                    r.lst(work.get("clones"), f"/seats/{j}/work/clones", most, what, "F-1.3")
    if r.problems:
        raise InvalidState(r.problems)


class WorldSampler:
    """Fast repeated determinization: the view is read and checked once (one sampled world
    through the strict reader), then each sample only re-deals the unseen cards."""

    def __init__(self, view: dict[str, Any], catalog: Catalog | None = None) -> None:
        check_view_bounds(view, catalog)
        try:
            self._read(view, catalog)
            expected = game_view(self.base, self.viewer)
            # its null fields may be left out (a serializer drops them), as a state's may
            view = with_nulls(view, expected)
            # `==` first: it stops at the first difference (a hostile view can hold 2 MB the
            # reader never looked at, under `pending`); canonical JSON then tells 1 from 1.0
            same = expected == view and canonical.dumps(expected) == canonical.dumps(view)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError):
            # the sampler reads the shape game_view writes: any other is no view
            raise InvalidState(
                [
                    Problem(
                        "invalid_view", msg("This is not a view written by game_view."), "", "F-R6"
                    )
                ]
            ) from None
        if not same:  # its first field that differs, named
            raise InvalidState(
                [
                    view_mismatch(view, expected, "F-R6")
                    or Problem(
                        "invalid_view", msg("This is not a view written by game_view."), "", "F-R6"
                    )
                ]
            )

    def _read(self, view: dict[str, Any], catalog: Catalog | None) -> None:
        self.viewer: int = view["view_of"]
        self.pool: list[str] = sorted(view["unseen"])
        self.hand_counts = [
            None if j == self.viewer else s["hand_count"] for j, s in enumerate(view["seats"])
        ]
        self.clone_counts = [
            0 if j == self.viewer else len(s["work"]["clones"]) for j, s in enumerate(view["seats"])
        ]
        turn = view["turn"]
        self.known_top: list[str] = []
        # a market purchase this turn is known to be in its buyer's hand (the hand's last card)
        self.known_hand: tuple[int, str] | None = None
        if turn["bought_from"] == "market" and turn["seat"] != self.viewer:
            self.known_hand = (turn["seat"], turn["bought"])
        self.peek_count = 0  # a look by another seat: its cards are re-dealt too
        self.bought_from_deck = False
        if turn["peeked_count"] and not view["game_over"]:
            if turn["peeked"] is not None:  # the viewer looked: they know these cards
                self.known_top = [c for c in turn["peeked"] if c != turn["bought"]]
            else:
                self.peek_count = turn["peeked_count"]
                self.bought_from_deck = turn["bought_from"] == "deck"
        self.base = self._state(view, random.Random(0), catalog)

    def _deal(
        self, rnd: random.Random
    ) -> tuple[list[list[str] | None], list[list[str]], list[str]]:
        cards = self.pool[:]
        rnd.shuffle(cards)
        i = 0
        hands: list[list[str] | None] = []
        for j, hc in enumerate(self.hand_counts):
            if hc is not None and self.known_hand is not None and self.known_hand[0] == j:
                hands.append([*cards[i : i + hc - 1], self.known_hand[1]])
                i += hc - 1
                continue
            hands.append(None if hc is None else cards[i : i + hc])
            i += hc or 0
        clones = []
        for cc in self.clone_counts:
            clones.append(cards[i : i + cc])
            i += cc
        return hands, clones, self.known_top + cards[i:]

    def _peek(
        self, hands: list[list[str] | None], deck: list[str], seat: int
    ) -> tuple[list[str], str | None]:
        """Another seat's look: the seen cards are the sampled deck top (with the card it
        bought from the deck, taken from its sampled hand, first)."""
        if not self.peek_count:
            return [], None
        if self.bought_from_deck:
            hand = hands[seat]
            bought = hand[-1] if hand else None
            if bought is not None:
                return [bought, *deck[: self.peek_count - 1]], bought
        return deck[: self.peek_count], None

    def _state(self, view: dict[str, Any], rnd: random.Random, catalog: Catalog | None) -> Game:
        hands, clones, deck = self._deal(rnd)
        state = {k: v for k, v in view.items() if k not in ("view_of", "unseen", "deck_count")}
        seats = []
        for j, s in enumerate(view["seats"]):
            work = dict(s["work"])
            if j != self.viewer:
                work["clones"] = [
                    {"target": c["target"], "card": clones[j][m]}
                    for m, c in enumerate(work["clones"])
                ]
            seats.append({"hand": s["hand"] if hands[j] is None else hands[j], "work": work})
        state["seats"] = seats
        state["deck"] = deck
        turn = {k: v for k, v in view["turn"].items() if k not in VIEW_ONLY_TURN}
        if turn["peeked"] is None:
            peeked, bought = self._peek(hands, deck, view["turn"]["seat"])
            turn["peeked"] = peeked
            if bought is not None:
                turn["bought"] = bought
        state["turn"] = turn
        state["rng"] = f"{rnd.getrandbits(64):016x}"
        state["pending"] = None  # recomputed
        return game_from_json(state, catalog)

    def sample(self, rnd: random.Random) -> Game:
        g = self.base.copy()
        hands, clones, deck = self._deal(rnd)
        for j, h in enumerate(hands):
            if h is not None:
                g.hands[j] = h
            if clones[j]:
                w = g.own_work(j)
                w.clones = [(t, c) for (t, _), c in zip(w.clones, clones[j], strict=True)]
        g.deck = deck
        if self.peek_count:
            g.peeked, bought = self._peek(hands, deck, g.seat)
            if bought is not None:
                g.bought = bought
        g.rng = rnd.getrandbits(64)
        g._opts = None
        return g


def sample_world(view: dict[str, Any], rnd: random.Random, catalog: Catalog | None = None) -> Game:
    """One full state consistent with `view` (see WorldSampler)."""
    return WorldSampler(view, catalog).sample(rnd)


# Event fields only their seat may know (F-R6): cards seen with the coordenadora, a card bought
# from the deck, a clone card.
def _private(ev: dict[str, Any]) -> str | None:
    kind = ev.get("type")
    if kind == "looked":
        return "cards"
    if kind == "bought" and ev.get("from") == "deck":
        return "card"
    if kind == "cloned":
        return "card"
    return None


def events_for_seat(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The event log as `seat` may see it: other seats' private cards withheld."""
    out = []
    for ev in events:
        field = _private(ev)
        if field and ev.get("seat") != seat and field in ev:
            ev = {k: v for k, v in ev.items() if k != field}
            ev["hidden"] = field
        out.append(ev)
    return out
