"""Toy Match: a game written only for the tests (tests/toygame/rules.md), registered exactly as
a real game registers itself (engine.registry.register_game at the end of its package), from
outside engine/: `import toygame` registers it. tests/common/test_conformance.py runs the whole
conformance suite, the HTTP endpoints and a bot match over it, with every game of engine/.

Its rules (catalog, state, decisions, view and sampler, on the shared decision protocol of
engine/protocol.py) are in this one module, which is the game's interface itself."""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import canonical
from engine import rng as rngmod
from engine.errors import (
    CatalogError,
    IllegalDecision,
    InvalidState,
    Problem,
    ProblemList,
    SetupError,
    short_repr,
    unknown_keys,
)
from engine.protocol import DecisionProtocol, finish_view
from engine.registry import GameInfo, PositionFeatures, register_game
from engine.setup_fields import SetupClauses, check_shared_fields, is_int, setup_catalog

GAME_ID = "toy-match"
RULES_VERSION = "toy-match-rules/1"
CATALOG_CLAUSE = "TM-2"
SEATS_CLAUSE = "TM-1.1"
CATALOG_FORMAT = "toy-match-catalog/1"
HAND = 3  # TM-1.3
SETUP_KEYS: tuple[str, ...] = ("game", "seats", "seed", "first_seat", "catalog")
CLAUSES = SetupClauses(GAME_ID, "TM-1", seats="TM-1.1", seed="TM-1.2", first_seat="TM-1.4")
DECISION_FIELDS: dict[str, tuple[str, ...]] = {"play": ("card",), "draw": ()}
CHANCE_EVENTS = frozenset({"drew"})  # TM-3.2: the deck's top card, unseen until drawn
STATE_FIELDS = (
    "game",
    "rules_version",
    "catalog",
    "first_seat",
    "seats",
    "deck",
    "pile",
    "turn",
    "pending",
    "rng",
    "game_over",
    "scores",
)
Action = tuple[Any, ...]
JSON = dict[str, Any]


# -- TM-2 the catalog ------------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    suit: str
    number: int


class Catalog:
    def __init__(self, doc: JSON, cards: dict[str, Card]) -> None:
        self.doc = doc
        self.id: str = doc["id"]
        self.name: str = doc["name"]
        self.cards = cards
        self.hash = canonical.digest(doc)

    def to_json(self) -> JSON:
        return {**self.doc, "cards": [dict(c) for c in self.doc["cards"]]}

    def summary(self) -> JSON:
        return {"id": self.id, "name": self.name, "hash": self.hash, "cards": len(self.cards)}


def load_catalog(doc: Any) -> Catalog:
    """TM-2: `{format, id, name, cards: [{id, suit, number}]}`, every problem listed."""
    problems: list[Problem] = ProblemList()
    if not isinstance(doc, dict):
        raise CatalogError(
            [Problem("invalid_catalog", "A catalog is an object.", "", "TM-2")], "TM-2"
        )
    unknown_keys(problems, doc, ("format", "id", "name", "cards"), "", clause="TM-2")
    if doc.get("format") != CATALOG_FORMAT:
        problems.append(
            Problem("catalog_format", f"format must be {CATALOG_FORMAT!r}", "/format", "TM-2")
        )
    for key in ("id", "name"):
        if not isinstance(doc.get(key), str) or not doc.get(key):
            problems.append(Problem("catalog_value", f"{key} is a string", f"/{key}", "TM-2"))
    raw = doc.get("cards")
    cards: dict[str, Card] = {}
    if not isinstance(raw, list) or not 2 <= len(raw) <= 200:
        problems.append(Problem("catalog_value", "cards is an array of 2 to 200", "/cards", "TM-2"))
        raw = []
    for i, c in enumerate(raw):
        p = f"/cards/{i}"
        if not isinstance(c, dict) or set(c) != {"id", "suit", "number"}:
            problems.append(Problem("catalog_value", "a card is {id, suit, number}", p, "TM-2"))
            continue
        cid, suit, number = c["id"], c["suit"], c["number"]
        if not isinstance(cid, str) or not cid or len(cid) > 16 or cid in cards:
            problems.append(Problem("catalog_value", "a distinct short id", p + "/id", "TM-2"))
        elif not isinstance(suit, str) or not suit or not is_int(number) or not 0 < number < 100:
            problems.append(Problem("catalog_value", "a suit and a number 1..99", p, "TM-2"))
        else:
            cards[cid] = Card(suit, number)
    if problems:
        raise CatalogError(problems, "TM-2")
    return Catalog(dict(doc), cards)


REFERENCE = load_catalog(
    {
        "format": CATALOG_FORMAT,
        "id": "reference",
        "name": "Toy Match reference catalog: two suits of nine",
        "cards": [
            {"id": f"{s[0].upper()}{k}", "suit": s, "number": k}
            for s in ("red", "blue")
            for k in range(1, 10)
        ],
    }
)


def builtin_catalogs() -> dict[str, Catalog]:
    return {"reference": REFERENCE}


# -- the in-memory game ----------------------------------------------------------------------


class Game:
    """A Toy Match game: hands, the deck (top first), the pile ((card, seat) bottom first; the
    starter's seat is None), whose turn, the generator."""

    def __init__(self, cat: Catalog, n: int, first_seat: int) -> None:
        self.cat, self.n, self.first_seat = cat, n, first_seat
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.deck: list[str] = []
        self.pile: list[tuple[str, int | None]] = []
        self.seat, self.turn, self.over, self.rng = first_seat, 1, False, 0
        self.log: list[JSON] | None = None

    def copy(self) -> Game:
        g = Game(self.cat, self.n, self.first_seat)
        g.hands = [h[:] for h in self.hands]
        g.deck, g.pile = self.deck[:], self.pile[:]
        g.seat, g.turn, g.over, g.rng = self.seat, self.turn, self.over, self.rng
        return g

    def emit(self, event: JSON) -> None:
        if self.log is not None:
            self.log.append(event)


def matches(g: Game, cid: str) -> bool:
    """TM-3.1: by suit or by number with the pile's top card."""
    top, card = g.cat.cards[g.pile[-1][0]], g.cat.cards[cid]
    return card.suit == top.suit or card.number == top.number


def legal_actions(g: Game) -> list[Action]:
    if g.over:
        return []
    out: list[Action] = [("play", c) for c in g.hands[g.seat] if matches(g, c)]
    out.append(("draw",))  # TM-3.2: the deck is never empty while the game goes on (TM-5)
    return out


def current_player(g: Game) -> int | None:
    return None if g.over else g.seat


def is_terminal(g: Game) -> bool:
    return g.over


def apply_action(g: Game, a: Action) -> None:
    """One legal action (trusted), its events logged."""
    s = g.seat
    if a[0] == "play":
        g.hands[s].remove(a[1])
        g.pile.append((a[1], s))
        g.emit({"type": "played", "seat": s, "card": a[1], "clause": "TM-3.1"})
    else:
        card = g.deck.pop(0)
        g.hands[s].append(card)
        g.emit({"type": "drew", "seat": s, "card": card, "clause": "TM-3.2"})
    if not g.hands[s] or not g.deck:  # TM-5.1, TM-5.2
        g.over = True
        g.emit({"type": "game_over", "scores": final_scores(g), "clause": "TM-5"})
        return
    g.seat = (s + 1) % g.n
    g.turn += 1


def final_scores(g: Game) -> JSON:
    """TM-6: the points of the cards each seat played; an empty hand wins outright."""
    totals = [0] * g.n
    for cid, s in g.pile:
        if s is not None:
            totals[s] += g.cat.cards[cid].number
    seats = [{"seat": s, "total": totals[s], "hand_count": len(g.hands[s])} for s in range(g.n)]
    empty = [s for s in range(g.n) if not g.hands[s]]
    if empty:
        return {"seats": seats, "winners": empty, "decided_by": "empty_hand", "clause": "TM-6.1"}
    best = max(totals)
    winners = [s for s in range(g.n) if totals[s] == best]
    how = "score" if len(winners) == 1 else "shared"
    return {"seats": seats, "winners": winners, "decided_by": how, "clause": "TM-6.2"}


tally = final_scores  # a search's tally (engine/games.py): nothing to leave out


def returns(g: Game) -> list[float]:
    return _PROTOCOL.returns(g)


FEATURE_NAMES = ("points", "hand", "to_move", "points*progress", "hand*progress")


def position_features(g: Game) -> list[list[float]]:
    """What the learned evaluation reads (ai/model.py): per seat, the points of its played
    cards and its hand's size (TM-6: an empty hand wins), whose turn it is, and both again
    weighed by the share of the deck drawn; all public."""
    progress = 1.0 - len(g.deck) / max(1, len(g.cat.cards))
    rows = []
    for s, sc in enumerate(final_scores(g)["seats"]):
        points, hand = float(sc["total"]), float(sc["hand_count"])
        rows.append([points, hand, 1.0 if g.seat == s else 0.0, points * progress, hand * progress])
    return rows


# -- TM-1 the set-up ---------------------------------------------------------------------------


def get_catalog(spec: Any) -> Catalog:
    cat: Catalog = _PROTOCOL.get_catalog(spec)
    return cat


def new_game_internal(setup: JSON) -> Game:
    if not isinstance(setup, dict):
        raise SetupError.listing([Problem("invalid_setup", "A set-up is an object.", "", "TM-1")])
    problems: list[Problem] = ProblemList()
    unknown_keys(problems, setup, SETUP_KEYS, "", clause="TM-1", what="set-up ")
    n = check_shared_fields(setup, problems, CLAUSES, "Toy Match is played by 2, 3 or 4 players")
    cat = setup_catalog(problems, setup, get_catalog)
    if problems or cat is None or n is None:
        raise SetupError.listing(problems)
    if len(cat.cards) < HAND * n + 2:
        short = f"{len(cat.cards)} cards: the deal needs {HAND * n + 2}"
        raise SetupError.listing([Problem("deck_too_short", short, "/catalog", "TM-1.3")])
    g = Game(cat, n, setup.get("first_seat", 0))
    cards = list(cat.cards)
    g.rng = rngmod.shuffle(rngmod.seed_to_state(setup["seed"]), cards)  # TM-1.2
    for s in range(n):  # TM-1.3
        g.hands[s] = cards[s * HAND : (s + 1) * HAND]
    g.pile = [(cards[n * HAND], None)]  # TM-1.4: the starter
    g.deck = cards[n * HAND + 1 :]
    return g


def tournament_setup(seed: int, seats: int, variant: str | None = None) -> JSON:
    return {"game": GAME_ID, "seats": seats, "seed": seed}


# -- the state's JSON ------------------------------------------------------------------------


def pending_json(g: Game) -> JSON | None:
    if g.over:
        return None
    s = g.seat
    return {
        "seat": s,
        "kind": "turn",
        "clause": "TM-3",
        "prompt": "play a card matching the pile's top by suit or number, or draw",
        "options": [action_to_json(g, s, a) for a in legal_actions(g)],
    }


def game_to_json(g: Game) -> JSON:
    return {
        "game": GAME_ID,
        "rules_version": RULES_VERSION,
        "catalog": {"id": g.cat.id, "hash": g.cat.hash},
        "first_seat": g.first_seat,
        "seats": [{"hand": h[:]} for h in g.hands],
        "deck": g.deck[:],
        "pile": [{"card": c, "seat": s} for c, s in g.pile],
        "turn": {"seat": g.seat, "number": g.turn},
        "pending": pending_json(g),
        "rng": rngmod.to_hex(g.rng),
        "game_over": g.over,
        "scores": final_scores(g) if g.over else None,
    }


def state_cards(state: Any) -> list[str]:
    """Every card of a state, once each: the hands, the deck and the pile (TM-1.3)."""
    out = [c for s in state["seats"] for c in s["hand"]]
    return out + list(state["deck"]) + [e["card"] for e in state["pile"]]


def _catalog_of(doc: Any, catalog: Catalog | None, problems: list[Problem]) -> Catalog | None:
    ref = doc.get("catalog")
    if not isinstance(ref, dict) or set(ref) != {"id", "hash"}:
        problems.append(Problem("invalid_catalog_ref", "catalog is {id, hash}", "/catalog", "TM-2"))
        return None
    cat = catalog if catalog is not None else builtin_catalogs().get(ref["id"])
    if cat is None or cat.hash != ref["hash"] or cat.id != ref["id"]:
        problems.append(
            Problem("catalog_mismatch", "the state's catalog is not this one", "/catalog", "TM-2")
        )
        return None
    return cat


def game_from_json(doc: Any, catalog: Catalog | None = None) -> Game:
    """The strict reader: every problem of a state listed with its pointer (InvalidState)."""
    if not isinstance(doc, dict):
        raise InvalidState([Problem("invalid_state", "A state is an object.", "", "TM-1")])
    problems: list[Problem] = ProblemList()
    unknown_keys(problems, doc, STATE_FIELDS, "", clause="TM-1")
    for key in STATE_FIELDS:
        if key not in doc:
            problems.append(Problem("missing_field", f"{key} is missing", f"/{key}", "TM-1"))
    if problems:
        raise InvalidState(problems)
    if doc["game"] != GAME_ID or doc["rules_version"] != RULES_VERSION:
        problems.append(Problem("wrong_game", f"not a {GAME_ID} state", "/game", "TM-1"))
    cat = _catalog_of(doc, catalog, problems)
    seats = doc["seats"]
    if not isinstance(seats, list) or not 2 <= len(seats) <= 4:
        problems.append(Problem("invalid_seat_count", "2 to 4 seats", "/seats", "TM-1.1"))
    if problems or cat is None:
        raise InvalidState(problems)
    n = len(seats)
    first = doc["first_seat"]
    if not is_int(first) or not 0 <= first < n:
        problems.append(Problem("invalid_first_seat", f"0..{n - 1}", "/first_seat", "TM-1.4"))
        first = 0
    g = Game(cat, n, first)
    seen: dict[str, str] = {}

    def card(v: Any, p: str) -> str | None:
        if not isinstance(v, str) or v not in cat.cards:
            problems.append(Problem("unknown_card", f"{short_repr(v)} is no card", p, "TM-2"))
            return None
        if v in seen:
            problems.append(Problem("duplicate_card", f"{v} also at {seen[v]}", p, "TM-1.3"))
            return None
        seen[v] = p
        return v

    def zone(v: Any, p: str) -> list[str]:
        if not isinstance(v, list) or len(v) > len(cat.cards):
            problems.append(Problem("wrong_type", "an array of cards", p, "TM-1.3"))
            return []
        return [c for j, x in enumerate(v) if (c := card(x, f"{p}/{j}")) is not None]

    for i, s in enumerate(seats):
        if not isinstance(s, dict) or set(s) != {"hand"}:
            problems.append(Problem("wrong_type", "a seat is {hand}", f"/seats/{i}", "TM-1.3"))
            continue
        g.hands[i] = zone(s["hand"], f"/seats/{i}/hand")
    g.deck = zone(doc["deck"], "/deck")
    pile = doc["pile"]
    if not isinstance(pile, list) or not 1 <= len(pile) <= len(cat.cards):
        problems.append(Problem("wrong_type", "the pile holds the starter on", "/pile", "TM-1.4"))
        pile = []
    for j, e in enumerate(pile):
        p = f"/pile/{j}"
        who = e.get("seat", -1) if isinstance(e, dict) else -1
        if not isinstance(e, dict) or set(e) != {"card", "seat"}:
            problems.append(Problem("wrong_type", "a pile entry is {card, seat}", p, "TM-3.1"))
        elif (j == 0) != (who is None) or not (who is None or (is_int(who) and 0 <= who < n)):
            problems.append(Problem("invalid_seat", "the starter's, else a seat", p, "TM-1.4"))
        elif (c := card(e["card"], p + "/card")) is not None:
            g.pile.append((c, who))
    missing = sorted(set(cat.cards) - set(seen))
    if missing and not problems:
        problems.append(Problem("missing_cards", ", ".join(missing), "", "TM-1.3"))
    turn = doc["turn"]
    if not isinstance(turn, dict) or set(turn) != {"seat", "number"}:
        problems.append(Problem("wrong_type", "turn is {seat, number}", "/turn", "TM-3"))
    else:
        if is_int(turn["seat"]) and 0 <= turn["seat"] < n:
            g.seat = turn["seat"]
        else:
            problems.append(Problem("invalid_seat", f"0..{n - 1}", "/turn/seat", "TM-3"))
        if is_int(turn["number"]) and 1 <= turn["number"] <= 10_000:
            g.turn = turn["number"]
        else:
            problems.append(Problem("wrong_type", "1..10000", "/turn/number", "TM-3"))
    try:
        g.rng = rngmod.from_hex(doc["rng"]) if isinstance(doc["rng"], str) else -1
        if g.rng < 0:
            raise ValueError
    except ValueError:
        problems.append(Problem("invalid_rng", "16 hexadecimal digits", "/rng", "TM-1.2"))
    if not isinstance(doc["game_over"], bool):
        problems.append(Problem("wrong_type", "a boolean", "/game_over", "TM-5"))
    if problems:
        raise InvalidState(problems)
    g.over = doc["game_over"]
    ended = not g.deck or any(not h for h in g.hands)
    if g.over != ended:
        problems.append(Problem("wrong_game_over", "TM-5 says otherwise", "/game_over", "TM-5"))
    for key in ("pending", "scores"):  # derived: as the rules give them
        if doc[key] != game_to_json(g)[key]:
            problems.append(Problem(f"wrong_{key}", "not what the rules give", f"/{key}", "TM-3"))
    if problems:
        raise InvalidState(problems)
    return g


# -- decisions -------------------------------------------------------------------------------


def action_to_json(g: Game, seat: int, a: Action) -> JSON:
    out: JSON = {"seat": seat, "type": a[0]}
    if a[0] == "play":
        out["card"] = a[1]
    return out


def require_decider(g: Game, seat: int | None = None, pointer: str = "/seat") -> int:
    if g.over:
        raise IllegalDecision("game_over", "The game is over.", "TM-5", pointer)
    if seat is not None and (not is_int(seat) or seat != g.seat):
        who = short_repr(seat)
        detail = f"This decision is seat {g.seat}'s, not seat {who}'s."
        raise IllegalDecision("not_your_decision", detail, "TM-3", pointer)
    return g.seat


def parse_decision(g: Game, d: Any, pointer: str = "") -> Action:
    require_decider(g, None, pointer)
    if not isinstance(d, dict):
        raise IllegalDecision("malformed_decision", "A decision is an object.", "TM-3", pointer)
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in DECISION_FIELDS:
        known = ", ".join(DECISION_FIELDS)
        detail = f"Unknown decision type {short_repr(kind)}; known: {known}."
        raise IllegalDecision("malformed_decision", detail, "TM-3", pointer + "/type")
    if "seat" in d:
        require_decider(g, d["seat"], pointer + "/seat")
    extra = set(d).difference(DECISION_FIELDS[kind], ("type", "seat"))
    if extra:
        first = min(map(str, extra))
        detail = f"Unexpected field {short_repr(first)} for a {kind} decision."
        raise IllegalDecision("malformed_decision", detail, "TM-3", f"{pointer}/{first}")
    if kind == "draw":
        return ("draw",)
    cid = d.get("card")
    if not isinstance(cid, str) or cid not in g.cat.cards:
        detail = f"{short_repr(cid)} is not a card of this game."
        raise IllegalDecision("unknown_card", detail, "TM-2", pointer + "/card")
    return ("play", cid)


def diagnose(g: Game, a: Action, pointer: str) -> IllegalDecision:
    """Why a play is not among the options (a draw always is, TM-3.2)."""
    if a[1] not in g.hands[g.seat]:
        detail = f"{a[1]} is not in your hand."
        return IllegalDecision("card_not_in_hand", detail, "TM-3.1", pointer + "/card")
    detail = f"{a[1]} matches the pile's top card neither by suit nor by number."
    return IllegalDecision("no_match", detail, "TM-3.1", pointer + "/card")


_PROTOCOL: DecisionProtocol[Game, Action] = DecisionProtocol(
    catalog_type=Catalog,
    load_catalog=load_catalog,
    builtin_catalogs=builtin_catalogs,
    unknown_catalog_clause="TM-2",
    read_state=game_from_json,
    write_state=game_to_json,
    pending_json=pending_json,
    new_game_internal=new_game_internal,
    parse_decision=parse_decision,
    options=legal_actions,
    diagnose=diagnose,
    step=apply_action,
    final_scores=final_scores,
)
apply_internal = _PROTOCOL.apply_internal
load = _PROTOCOL.load
new_game = _PROTOCOL.new_game
legal_decisions = _PROTOCOL.legal_decisions
apply = _PROTOCOL.apply
apply_all = _PROTOCOL.apply_all
score = _PROTOCOL.score
replay = _PROTOCOL.replay


def validate(state: Any, catalog: Any = None) -> list[Problem]:
    try:
        load(state, catalog)
    except InvalidState as e:
        return e.problems
    except (SetupError, CatalogError) as e:
        return e.problems or [Problem(e.code, e.detail, e.pointer, e.clause)]
    return []


# -- TM-4 what a seat sees -------------------------------------------------------------------


def game_view(g: Game, seat: int) -> JSON:
    """TM-4: other hands and the deck hidden (their counts kept), their cards `unseen`."""
    if not is_int(seat) or not 0 <= seat < g.n:
        raise IllegalDecision("unknown_seat", f"seat must be 0..{g.n - 1}", "TM-1.1", "/seat")
    view = game_to_json(g)
    unseen = list(g.deck)
    for j, s in enumerate(view["seats"]):
        s["hand_count"] = len(g.hands[j])
        if j != seat:
            unseen.extend(g.hands[j])
            s["hand"] = None
    view["deck"] = None
    view["deck_count"] = len(g.deck)
    view["unseen"] = sorted(unseen)
    return finish_view(view, seat)


def player_view(state: Any, seat: int, catalog: Any = None) -> JSON:
    return game_view(load(state, catalog), seat)


def events_for_seat(events: list[JSON], seat: int) -> list[JSON]:
    """TM-4: another seat's drawn card is withheld (`hidden` names the field)."""
    out = []
    for ev in events:
        if ev.get("type") == "drew" and ev.get("seat") != seat and "card" in ev:
            ev = {k: v for k, v in ev.items() if k != "card"}
            ev["hidden"] = "card"
        out.append(ev)
    return out


class WorldSampler:
    """Full games consistent with a seat's view: its unseen cards re-dealt to the other hands
    and the deck (the generator re-seeded). A document that is not such a view is refused."""

    def __init__(self, view: JSON, catalog: Catalog | None = None) -> None:
        try:
            self.viewer: int = view["view_of"]
            self.pool: list[str] = sorted(view["unseen"])
            self.counts = [s["hand_count"] for s in view["seats"]]
            self.view = view
            self.base = self._state(random.Random(0), catalog)
            same = canonical.dumps(game_view(self.base, self.viewer)) == canonical.dumps(view)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            detail = f"This is not a view written by game_view ({type(e).__name__})."
            raise InvalidState([Problem("invalid_view", detail, "", "TM-4")]) from None
        if not same:
            raise InvalidState([Problem("invalid_view", "Not a view of a state.", "", "TM-4")])

    def _deal(self, rnd: random.Random) -> tuple[list[list[str] | None], list[str]]:
        cards = self.pool[:]
        rnd.shuffle(cards)
        hands: list[list[str] | None] = []
        for j, k in enumerate(self.counts):
            if j == self.viewer:
                hands.append(None)
            else:
                hands.append(cards[:k])
                del cards[:k]
        return hands, cards

    def _state(self, rnd: random.Random, catalog: Catalog | None) -> Game:
        """A full state with the view's public part and a deal of its unseen cards, read by
        the strict reader (the view's derived fields are compared after, in `__init__`)."""
        hands, deck = self._deal(rnd)
        v = self.view
        cat = catalog if catalog is not None else builtin_catalogs()[v["catalog"]["id"]]
        g = Game(cat, len(v["seats"]), v["first_seat"])
        seats = v["seats"]
        g.hands = [list(s["hand"]) if h is None else h for h, s in zip(hands, seats, strict=True)]
        g.deck = deck
        g.pile = [(e["card"], e["seat"]) for e in v["pile"]]
        g.seat, g.turn, g.over = v["turn"]["seat"], v["turn"]["number"], v["game_over"]
        g.rng = rnd.getrandbits(64)
        return game_from_json(game_to_json(g), catalog)

    def sample(self, rnd: random.Random) -> Game:
        g = self.base.copy()
        hands, deck = self._deal(rnd)
        for j, h in enumerate(hands):
            if h is not None:
                g.hands[j] = h
        g.deck = deck
        g.rng = rnd.getrandbits(64)
        return g


# -- TM-7 notation: `draw`, or the card played (`R3`) ----------------------------------------

_CARD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def decision_notation(d: dict[str, Any]) -> str | None:
    """A decision as one short string (its `seat` left out); None when it cannot be written."""
    kind = d.get("type")
    if kind == "draw":
        return "draw"
    card = d.get("card")
    if kind == "play" and isinstance(card, str) and card and set(card) <= _CARD_CHARS:
        return card if card != "draw" else None
    return None


def decision_from_notation(text: str, pointer: str = "") -> dict[str, Any]:
    if text == "draw":
        return {"type": "draw"}
    if isinstance(text, str) and 0 < len(text) <= 16 and set(text) <= _CARD_CHARS:
        return {"type": "play", "card": text}
    detail = f"{short_repr(text)} is not a decision in notation (draw, or a card: R3)."
    raise IllegalDecision("invalid_notation", detail, "TM-7", pointer)


INFO = GameInfo(
    id=GAME_ID,
    name="Toy Match",
    rules_version=RULES_VERSION,
    min_seats=2,  # TM-1.1
    max_seats=4,
    clause_prefix="TM",
    catalog_clause=CATALOG_CLAUSE,
    seats_clause=SEATS_CLAUSE,
    view_clause="TM-4",
    rule_documents=("tests/toygame/rules.md",),
    ruling_documents=(),
    play_decision="play",  # TM-3.1
    renderer="toygame.render",
    state_cards=state_cards,
    features=PositionFeatures(
        FEATURE_NAMES, position_features, Path(__file__).parent / "model.json"
    ),
)

register_game(INFO, sys.modules[__name__])
