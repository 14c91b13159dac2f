"""The plain-JSON Fora de Prumo state and its strict reader.

`game_to_json` writes the state (canonical: the same game always gives the same bytes);
`game_from_json` checks shape and consistency and reports every problem at once with a JSON
pointer (InvalidState), never a silently fixed state and never a raw Python exception,
whatever JSON value it is given. Its cost is bounded by what the game can hold, not by the
input: a list longer than the game could hold (more entries than the catalog has cards in use,
more than two peeked cards...) is refused whole, unread (`too_long`); every other value is
looked at once, cards are found through dictionaries, the buildings are rebuilt placement by
placement; problems beyond the first hundred are only counted (ProblemList), unknown fields too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import rng as rngmod
from engine.canonical import same
from engine.declared import Problems, brief, convert, node, state_catalog
from engine.errors import InvalidState, Problem
from engine.fora_de_prumo.building import Building, Placement, building_errors
from engine.fora_de_prumo.catalog import Catalog, builtin_catalogs
from engine.fora_de_prumo.flow import (
    CLONE_TARGET_TYPES,
    SITE_TYPES,
    final_scores,
    options,
)
from engine.fora_de_prumo.model import BUY, FINAL, GAME_ID, LAY, RULES_VERSION, Action, Game
from engine.fora_de_prumo.schema import (
    CatalogRefDoc,
    CloneDoc,
    FinalRoundDoc,
    PlacementDoc,
    SeatDoc,
    StateDoc,
    TurnDoc,
    WorkDoc,
)
from engine.fora_de_prumo.setup import cards_in_use
from engine.fora_de_prumo.work import Work
from engine.messages import msg

# pending.kind, clause and prompt per turn step
STEP_INFO = {
    BUY: ("buy", "F-3.1", "buy one market card, look at the deck with the coordenadora, or skip"),
    LAY: (
        "lay",
        "F-3.3",
        "lay one hand card into your work, use a designer or teórica action, or pass",
    ),
    FINAL: (
        "final",
        "F-8.2",
        "final turn: lay one last card (a market or seen deck card only if laid at once), "
        "use a person's action, or pass",
    ),
}

# Each decision type and its fields (F-2.7 notation), besides "type" and "seat".
DECISION_FIELDS: dict[str, tuple[str, ...]] = {
    "buy": ("card",),
    "look": (),
    "skip": (),
    "lay": ("card", "x", "y", "r", "from"),
    "convert": ("designer", "target"),
    "clone": ("card", "target", "from"),
    "pass": (),
}
SOURCES = ("market", "deck")


# -- writing -----------------------------------------------------------------------------


def action_to_json(g: Game, seat: int, a: Action) -> dict[str, Any]:
    """An option as the decision object that `apply` accepts unchanged."""
    kind = a[0]
    d: dict[str, Any] = {"seat": seat, "type": kind}
    if kind == "buy":
        d["card"] = a[1]
    elif kind == "lay":
        d["card"] = a[1]
        if a[2] is not None:
            d["x"], d["y"], d["r"] = a[2], a[3], a[4]
        if a[5]:
            d["from"] = a[5]
    elif kind == "convert":
        d["designer"], d["target"] = a[1], a[2]
    elif kind == "clone":
        d["card"], d["target"] = a[1], a[2]
        if a[3]:
            d["from"] = a[3]
    return d


def pending_json(g: Game) -> dict[str, Any] | None:
    if g.over or g.step is None:
        return None
    kind, clause, prompt = STEP_INFO[g.step]
    return {
        "seat": g.seat,
        "kind": kind,
        "clause": clause,
        "prompt": prompt,
        "options": [action_to_json(g, g.seat, a) for a in options(g)],
    }


def work_json(w: Work) -> dict[str, Any]:
    """F-2.7: a work."""
    return {
        "building": [{"card": p.card, "x": p.x, "y": p.y, "r": p.r} for p in w.building],
        "converted": list(w.converted),
        "site": list(w.site),
        "clones": [{"target": t, "card": c} for t, c in w.clones],
        "spent": list(w.spent),
    }


def game_to_json(g: Game) -> dict[str, Any]:
    return {
        "game": GAME_ID,
        "rules_version": RULES_VERSION,
        "catalog": {"id": g.cat.id, "hash": g.cat.hash},
        "market_size": g.market_size,
        "first_seat": g.first_seat,
        "seats": [{"hand": list(g.hands[s]), "work": work_json(g.works[s])} for s in range(g.n)],
        "deck": list(g.deck),
        "market": list(g.market),
        "turn": {
            "seat": g.seat,
            "number": g.turn,
            "step": g.step,
            "peeked": list(g.peeked),
            "bought": g.bought,
        },
        "passes": g.passes,
        "final_round": None
        if g.final is None
        else {"triggered_by": g.final[0], "remaining": list(g.final[1])},
        "pending": pending_json(g),
        "rng": rngmod.to_hex(g.rng),
        "game_over": g.over,
        "scores": final_scores(g) if g.over else None,
    }


# -- reading -----------------------------------------------------------------------------


def resolve_catalog(r: Problems, ref: Any, custom: Catalog | None) -> Catalog | None:
    """The state's catalog: the one given with the request, or a built-in one (F-2.1)."""
    ref = node(r, ref, CatalogRefDoc, "/catalog")
    cid, chash = ref.id, ref.hash
    if not isinstance(cid, str) or not isinstance(chash, str):
        r.bad("wrong_type", msg("catalog must be {id, hash}, two strings"), "/catalog", "F-2.1")
        return None
    cat = state_catalog(chash, custom, builtin_catalogs().get(cid))
    if cat is None:
        r.unknown_catalog(cid, chash, "F-2.1", custom)
    return cat


class _Cards:
    """Claims each card once (F-1.3): a card of the catalog, in use at this player count,
    standing in one place only."""

    def __init__(self, r: Problems, cat: Catalog, in_use: set[str]) -> None:
        self.r, self.cat, self.in_use = r, cat, in_use
        self.seen: dict[str, str] = {}

    def known(self, v: Any, p: str) -> str | None:
        """A card id of this game (not claimed: a reference to a card placed elsewhere)."""
        if not isinstance(v, str) or v not in self.cat.cards:
            self.r.bad(
                "unknown_card",
                msg("{card} is not a card of the catalog", card=brief(v)),
                p,
                "F-2.1",
            )
            return None
        if v not in self.in_use:
            self.r.bad(
                "card_not_in_use",
                msg(
                    "{card} needs {players} players and stays in the box",
                    card=v,
                    players=self.cat.cards[v].min_players,
                ),
                p,
                "F-1.3",
            )
            return None
        return v

    def claim(self, v: Any, p: str) -> str | None:
        cid = self.known(v, p)
        if cid is None:
            return None
        if cid in self.seen:
            self.r.bad(
                "duplicate_card",
                msg("{card} appears twice (also at {where})", card=cid, where=self.seen[cid]),
                p,
                "F-1.3",
            )
            return None
        self.seen[cid] = p
        return cid

    def bounded(self, v: Any, p: str) -> list[Any]:
        """A list of cards of this game (or of entries naming one each, distinct): at most
        as many entries as there are cards in use."""
        return self.r.lst(v, p, len(self.in_use), msg("one per card in use"), "F-1.3")

    def zone(self, v: Any, p: str) -> list[str]:
        out = []
        for j, x in enumerate(self.bounded(v, p)):
            cid = self.claim(x, f"{p}/{j}")
            if cid is not None:
                out.append(cid)
        return out

    def known_ones(self, v: Any, p: str) -> list[str]:
        """The cards of a list of references (each known, none claimed)."""
        return [
            cid
            for j, x in enumerate(self.bounded(v, p))
            if (cid := self.known(x, f"{p}/{j}")) is not None
        ]


def _read_building(r: Problems, cards: _Cards, entries: list[Any], p: str) -> list[Placement]:
    """F-2.4: each space of a building where it lies, claimed once."""
    building: list[Placement] = []
    for j, e in enumerate(cards.bounded(entries, p)):
        ep = f"{p}/{j}"
        e = node(r, e, PlacementDoc, ep)
        cid = cards.claim(e.card, f"{ep}/card")
        x, y, rot = e.x, e.y, e.r
        if cid is not None and cards.cat.cards[cid].type != "space":
            r.bad(
                "not_a_space",
                msg("{card} is not a space: it goes to the site", card=cid),
                f"{ep}/card",
                "F-3.5",
            )
            cid = None
        if cid is not None:
            building.append(Placement(cid, x, y, rot))
    return building


def _read_site(r: Problems, cards: _Cards, v: list[Any], p: str) -> list[str]:
    """F-3.5: the site holds the cards that are no space."""
    site: list[str] = []
    for j, x_ in enumerate(cards.bounded(v, p)):
        cid = cards.claim(x_, f"{p}/{j}")
        if cid is not None and cards.cat.cards[cid].type not in SITE_TYPES:
            r.bad(
                "not_a_site_card",
                msg("{card} is a space: it goes to the building", card=cid),
                f"{p}/{j}",
                "F-3.5",
            )
        elif cid is not None:
            site.append(cid)
    return site


def read_work(r: Problems, cards: _Cards, v: Any, p: str) -> Work:
    """F-2.7 / F-4.1: a work's five lists; each card of it claimed once."""
    d = node(r, v, WorkDoc, p)
    building = _read_building(r, cards, d.building, f"{p}/building")
    site = _read_site(r, cards, d.site, f"{p}/site")
    clones: list[tuple[str, str]] = []
    for j, c in enumerate(cards.bounded(d.clones, f"{p}/clones")):
        cp = f"{p}/clones/{j}"
        c = node(r, c, CloneDoc, cp)
        target = cards.known(c.target, f"{cp}/target")
        card = cards.claim(c.card, f"{cp}/card")
        if target is not None and card is not None:
            clones.append((target, card))
    converted = cards.known_ones(d.converted, f"{p}/converted")
    spent = cards.known_ones(d.spent, f"{p}/spent")
    return Work(building, converted, site, clones, spent)


def check_work(r: Problems, cat: Catalog, w: Work, p: str) -> Building:
    """F-4 / F-6.3 / F-6.6: the building is rebuilt placement by placement (every placement
    must have been legal when laid; the equipe and the conversions now in the work are
    assumed to have been there already, the most lenient order that could have happened:
    proposed ruling F-R44);
    conversions spend distinct designers (F-R20); clones lie on distinct face-up concepts,
    projects or materials of the site, with the teórica there (F-6.6, F-R22)."""
    cards = cat.cards
    in_building = {pl.card for pl in w.building}
    site = set(w.site)
    seen: set[str] = set()  # sets, not list slices: the lists may be forged to any length
    for j, cid in enumerate(w.converted):
        if cid not in in_building:
            r.bad(
                "convert_target",
                msg("{card} is not a space of this building", card=cid),
                f"{p}/converted/{j}",
                "F-R20",
            )
        elif cid in seen:
            r.bad(
                "already_converted",
                msg("{card} is converted twice", card=cid),
                f"{p}/converted/{j}",
                "F-R20",
            )
        seen.add(cid)
    seen = set()
    for j, cid in enumerate(w.spent):
        if cid not in site or cards[cid].ability != "designer_de_interiores":
            r.bad(
                "no_designer",
                msg("{card} is not a designer de interiores of this site", card=cid),
                f"{p}/spent/{j}",
                "F-R20",
            )
        elif cid in seen:
            r.bad(
                "designer_spent", msg("{card} is spent twice", card=cid), f"{p}/spent/{j}", "F-R20"
            )
        seen.add(cid)
    if len(w.converted) != len(w.spent):
        r.bad(
            "conversion_count",
            msg("each conversion spends one designer: converted and spent have the same length"),
            f"{p}/spent",
            "F-R20",
        )
    targets: set[str] = set()
    for j, (target, _) in enumerate(w.clones):
        tp = f"{p}/clones/{j}/target"
        if target not in site or cards[target].type not in CLONE_TARGET_TYPES:
            r.bad(
                "clone_target",
                msg("{card} is not a concept, project or material of this site", card=target),
                tp,
                "F-6.6",
            )
        elif target in targets:
            r.bad("already_cloned", msg("{card} carries two clone cards", card=target), tp, "F-6.6")
        targets.add(target)
    if w.clones and not w.has_ability(cat, "teorica"):
        r.bad(
            "no_teorica",
            msg("clone cards lie in a site without the teórica"),
            f"{p}/clones",
            "F-6.6",
        )
    equipe = w.has_ability(cat, "equipe_de_obras")
    converted = {c for c in w.converted if c in in_building}
    illegal = set()
    for j, code, clause, detail in building_errors(cat, w.building, converted, equipe):
        pl = w.building[j]
        r.bad(
            code, msg("{where}: {why}", where=pl.compact(), why=detail), f"{p}/building/{j}", clause
        )
        illegal.add(j)
    b = Building(cat, (pl for j, pl in enumerate(w.building) if j not in illegal), converted)
    return b


def read_final(r: Problems, v: Any, n: int) -> tuple[int, list[int]] | None:
    if v is None:
        return None
    d = node(r, v, FinalRoundDoc, "/final_round")
    t = r.int_or_none(d.triggered_by, "/final_round/triggered_by", 0, n - 1, "F-R25")
    rem = [
        s
        for j, x in enumerate(
            r.lst(d.remaining, "/final_round/remaining", n, msg("one per seat"), "F-R25")
        )
        if (s := r.int_or_none(x, f"/final_round/remaining/{j}", 0, n - 1, "F-R25")) is not None
    ]
    if t is None:
        return None
    order = [(t + i) % n for i in range(1, n + 1)]
    if len(rem) > n or rem != order[n - len(rem) :]:
        r.bad(
            "invalid_final_round",
            msg(
                "remaining must be the seats still to play, in turn order, ending with the "
                "seat that triggered the end"
            ),
            "/final_round/remaining",
            "F-R25",
        )
    return t, rem


def _read_header(r: Problems, doc: StateDoc, custom: Catalog | None) -> tuple[Catalog, list[Any]]:
    """The state's game, rules version, catalog (F-2) and seats (F-1.1): without a catalog or
    a seat count nothing else can be read (InvalidState at once)."""
    wrong = msg("this is not a {game} state", game=GAME_ID)
    return r.header(
        doc,
        (GAME_ID, wrong),
        RULES_VERSION,
        lambda: resolve_catalog(r, doc.catalog, custom),
        "F-1.1",
    )


def _read_zones(
    r: Problems, cards: _Cards, doc: StateDoc, seats_raw: list[Any]
) -> tuple[list[list[str]], list[Work], list[str], list[str]]:
    """Every seat's hand and work, the deck and the market: each card in use in exactly one
    zone (F-1.3). (hands, works, deck, market)."""
    hands: list[list[str]] = []
    works: list[Work] = []
    for i, s in enumerate(seats_raw):
        p = f"/seats/{i}"
        sd = node(r, s, SeatDoc, p)
        hands.append(cards.zone(sd.hand, f"{p}/hand"))
        works.append(read_work(r, cards, sd.work, f"{p}/work"))
    deck = cards.zone(doc.deck, "/deck")
    market = cards.zone(doc.market, "/market")
    missing = [c for c in cards.in_use if c not in cards.seen]
    if missing and not r.unread:
        r.bad(
            "missing_cards",
            msg(
                "cards in use missing from every zone: {missing}",
                missing=", ".join(sorted(missing)),
            ),
            "",
            "F-1.3",
        )
    return hands, works, deck, market


def _read_turn(r: Problems, cards: _Cards, doc: StateDoc, n: int) -> tuple[Any, ...]:
    """The turn object: its seat (F-1.1), number and step (F-3), the deck cards seen
    (F-R19) and the card bought (F-3.1). (seat, number, step, peeked, bought)."""
    tv = node(r, doc.turn, TurnDoc, "/turn")
    seat = r.int_or_none(tv.seat, "/turn/seat", 0, n - 1, "F-1.1")
    number = tv.number
    step = tv.step
    if step not in (BUY, LAY, FINAL, None):
        r.bad(
            "wrong_type",
            msg("turn.step must be 'buy', 'lay', 'final' or null"),
            "/turn/step",
            "F-3",
        )
    peeked = [
        c
        for j, x in enumerate(
            r.lst(tv.peeked, "/turn/peeked", 2, msg("the deck's top two cards"), "F-R19")
        )
        if (c := cards.known(x, f"/turn/peeked/{j}")) is not None
    ]
    bought = None if tv.bought is None else cards.known(tv.bought, "/turn/bought")
    return seat, number, step, peeked, bought


def _read(r: Problems, data: dict[str, Any], custom: Catalog | None, sealed: bool = False) -> Game:
    """The state as read (InvalidState at the first problem of shape or card); each work's
    building rebuilt placement by placement (`check_work`), or at once when `sealed`."""
    doc = convert(data, StateDoc)
    if doc is None:  # not well formed: walked node by node to list every problem
        doc = node(r, data, StateDoc, "")
    cat, seats_raw = _read_header(r, doc, custom)
    n = len(seats_raw)
    cards = _Cards(r, cat, set(cards_in_use(cat, n)))
    k = doc.market_size
    first = r.int_or_none(doc.first_seat, "/first_seat", 0, n - 1, "F-R5")
    hands, works, deck, market = _read_zones(r, cards, doc, seats_raw)
    seat, number, step, peeked, bought = _read_turn(r, cards, doc, n)
    passes = r.int_or_none(doc.passes, "/passes", 0, n - 1, "F-R27")
    final = read_final(r, doc.final_round, n)
    over = doc.game_over
    rng_text = doc.rng
    if not rngmod.is_state_hex(rng_text):
        r.bad("invalid_rng", msg("rng must be 16 lowercase hexadecimal digits"), "/rng", "F-1.9")
    r.finish()
    if r.problems:
        raise InvalidState(r.problems)
    assert first is not None and seat is not None and passes is not None
    g = Game.__new__(Game)
    g.cat, g.n, g.market_size, g.first_seat = cat, n, k, first
    g.hands, g.works = hands, works
    g.buildings = [
        _sealed_building(cat, w) if sealed else check_work(r, cat, w, f"/seats/{i}/work")
        for i, w in enumerate(works)
    ]
    g.own = [True] * n
    g.pcache = [{} for _ in range(n)]
    g.deck, g.market = deck, market
    g.seat, g.turn, g.step = seat, number, step
    g.peeked, g.bought, g.passes, g.final = peeked, bought, passes, final
    g.rng, g.over = rngmod.from_hex(rng_text), over
    g.log = None
    g._opts = None
    return g


def game_from_json(data: Any, custom_catalog: Catalog | None = None) -> Game:
    """Read and check a state from outside; raise InvalidState listing every problem: its
    header, zones and turn as read, then the works rebuilt (F-4, F-6), the turn's
    bookkeeping (check_turn) and what follows from the rest (check_derived)."""
    r = Problems(named=True)
    if not isinstance(data, dict):
        raise InvalidState([Problem("wrong_type", msg("the state must be a JSON object"), "")])
    g = _read(r, data, custom_catalog)
    check_turn(r, g)
    if r.problems:
        raise InvalidState(r.problems)
    check_derived(r, g, data)
    if r.problems:
        raise InvalidState(r.problems)
    return g


def game_from_sealed(data: Any, custom_catalog: Catalog | None = None) -> Game:
    """A state whose seal proved this service wrote it (docs/trust.md): read as
    `game_from_json` reads it (its shape, catalog, rules version and cards), without the
    consistency checks the service already made when it wrote it: each building rebuilt and
    every placement checked (`check_work`), the turn's bookkeeping (`check_turn`), the pending
    decision and the scores (`check_derived`)."""
    if not isinstance(data, dict):
        raise InvalidState([Problem("wrong_type", msg("the state must be a JSON object"), "")])
    return _read(Problems(named=True), data, custom_catalog, sealed=True)


def _sealed_building(cat: Catalog, w: Work) -> Building:
    """The building of a work this service wrote: what `check_work` builds from a work whose
    every placement is legal and every conversion targets one of its spaces."""
    return Building(cat, w.building, set(w.converted))


def turns_played(g: Game, seat: int) -> int:
    """Turns of `seat` finished so far: turns go round from first_seat (F-1.1), the current
    one is finished only once the game is over."""
    done = g.turn if g.over else g.turn - 1
    offset = (seat - g.first_seat) % g.n
    return 0 if done <= offset else (done - 1 - offset) // g.n + 1


def check_laid(r: Problems, g: Game) -> None:
    """F-3.3: one lay or one action per turn, so a work holds at most as many cards and
    conversions as its seat has had turns (proposed ruling F-R44)."""
    for s, w in enumerate(g.works):
        done = len(w.building) + len(w.site) + len(w.clones) + len(w.converted)
        if done > turns_played(g, s):
            r.bad(
                "too_many_cards_laid",
                msg(
                    "seat {seat} has laid or used {done} cards in {turns} turns",
                    seat=s,
                    done=done,
                    turns=turns_played(g, s),
                ),
                f"/seats/{s}/work",
                "F-3.3",
            )


def _check_finished(r: Problems, g: Game) -> None:
    """F-8.4 / F-R25: a finished game has no step, look or purchase, and ended after its final
    round; its market is not over size (F-1.7)."""
    if g.step is not None or g.peeked or g.bought is not None:
        r.bad(
            "inconsistent_turn",
            msg("a finished game has no step, look or purchase"),
            "/turn",
            "F-8.4",
        )
    if g.final is None or g.final[1]:
        r.bad(
            "inconsistent_turn",
            msg("a game ends after the final round: final_round with no seat remaining"),
            "/final_round",
            "F-R25",
        )
    if len(g.market) > g.market_size:
        r.bad(
            "market_size",
            msg("the market holds at most {most} cards", most=g.market_size),
            "/market",
            "F-1.7",
        )


def _check_step(r: Problems, g: Game) -> bool:
    """F-3 / F-8.2: a running game has a step, 'final' exactly during the final round. False
    when it has not (the turn's other checks then read nothing)."""
    if g.step is None:
        r.bad("inconsistent_turn", msg("a running game has a step"), "/turn/step", "F-3")
        return False
    if (g.step == FINAL) != (g.final is not None):
        r.bad(
            "inconsistent_turn",
            msg("the step is 'final' exactly during the final round"),
            "/turn/step",
            "F-8.2",
        )
        return False
    return True


def _check_final_round(r: Problems, g: Game) -> None:
    """F-R25 / F-R27: in the final round the seat to play is the first remaining one and no
    passes are counted; before it, the deck is not empty (F-8.1; F-R45: turn 1)."""
    if g.final is not None:
        if not g.final[1] or g.final[1][0] != g.seat:
            r.bad(
                "invalid_final_round",
                msg("the first remaining seat is the seat to play"),
                "/final_round/remaining",
                "F-R25",
            )
        if g.passes:
            r.bad(
                "inconsistent_turn",
                msg("passes are not counted in the final round"),
                "/passes",
                "F-R27",
            )
    elif not g.deck and not (g.turn == 1 or g.bought_from_deck()):  # F-R45: turn 1
        r.bad(
            "end_not_triggered",
            msg("the deck is empty but the final round has not begun"),
            "/final_round",
            "F-8.1",
        )


def _check_turn_order(r: Problems, g: Game) -> None:
    """F-1.1: turns go round from first_seat; F-R27: no more complete passes than turns."""
    if g.seat != (g.first_seat + g.turn - 1) % g.n:
        r.bad(
            "turn_order",
            msg("turn.seat must be the seat whose turn this is: turns go round from first_seat"),
            "/turn/seat",
            "F-1.1",
        )
    if g.passes >= g.turn:
        r.bad(
            "inconsistent_turn", msg("more complete passes than turns played"), "/passes", "F-R27"
        )


def _check_purchase(r: Problems, g: Game) -> None:
    """F-3.1: a card bought this turn was bought before the lay step and is in the hand."""
    if g.bought is None:
        return
    if g.step != LAY:
        r.bad(
            "inconsistent_turn",
            msg("a purchase is made only before the lay step"),
            "/turn/bought",
            "F-3.1",
        )
    elif g.bought not in g.hands[g.seat]:
        r.bad(
            "inconsistent_turn",
            msg("the card bought this turn is in the player's hand"),
            "/turn/bought",
            "F-3.1",
        )


def _check_look(r: Problems, g: Game) -> None:
    """F-6.1 / F-R19: the deck cards seen this turn (check_peeked)."""
    if g.peeked:
        check_peeked(r, g)


def _check_market(r: Problems, g: Game) -> None:
    """F-3.6: the market is refilled after each market purchase (not from an empty deck)."""
    k = g.market_size
    market_bought = g.bought is not None and not g.bought_from_deck()
    expected = k - (1 if market_bought else 0)
    if len(g.market) > expected or (g.final is None and g.deck and len(g.market) != expected):
        r.bad(
            "market_size",
            msg(
                "the market holds {expected} cards now ({size}, refilled after each market "
                "purchase)",
                expected=expected,
                size=k,
            ),
            "/market",
            "F-3.6",
        )


# A running game's turn bookkeeping, checked in this order once its step is one (_check_step).
RUNNING_TURN_CHECKS: tuple[Callable[[Problems, Game], None], ...] = (
    _check_final_round,
    _check_turn_order,
    _check_purchase,
    _check_look,
    _check_market,
)


def check_turn(r: Problems, g: Game) -> None:
    """The turn bookkeeping must be one the flow can reach (F-3, F-R19, F-8.1 to F-8.3)."""
    check_laid(r, g)
    if g.over:
        _check_finished(r, g)
    elif _check_step(r, g):
        for check in RUNNING_TURN_CHECKS:
            check(r, g)


def check_peeked(r: Problems, g: Game) -> None:
    """F-6.1 / F-R19: the seen cards are the deck's top two (or one), in order, less the one
    bought; the looker has the coordenadora."""
    if not g.works[g.seat].has_ability(g.cat, "coordenadora"):
        r.bad(
            "no_coordenadora",
            msg("only the coordenadora lets a player look at the deck"),
            "/turn/peeked",
            "F-6.1",
        )
    still = g.peeked_on_deck()
    deck_size = len(g.deck) + (1 if g.bought_from_deck() else 0)
    if (
        len(set(g.peeked)) != len(g.peeked)
        or len(g.peeked) != min(2, deck_size)
        or g.deck[: len(still)] != still
    ):
        r.bad(
            "inconsistent_peek",
            msg("peeked must be the top two (or one) cards of the deck, in order, as seen"),
            "/turn/peeked",
            "F-R19",
        )


def check_derived(r: Problems, g: Game, data: dict[str, Any]) -> None:
    """What follows from the rest: the pending decision and the final scores."""
    if g.over:
        if data.get("pending") is not None:
            r.bad(
                "inconsistent_pending",
                msg("a finished game has no pending decision"),
                "/pending",
                "F-8.4",
            )
        given_scores = data.get("scores")  # absent: recomputed
        if given_scores is not None and not same(given_scores, final_scores(g)):
            r.bad(
                "inconsistent_scores",
                msg("scores must be the final scores of these works"),
                "/scores",
                "F-8.4",
            )
        return
    given = data.get("pending")
    if given is not None and not same(given, pending_json(g)):
        r.bad(
            "inconsistent_pending",
            msg("pending does not match the decision this state asks for"),
            "/pending",
            STEP_INFO[g.step][1] if g.step else "F-3",
        )
    if data.get("scores") is not None:
        r.bad(
            "inconsistent_scores",
            msg("scores are only given once the game is over"),
            "/scores",
            "F-8.4",
        )
