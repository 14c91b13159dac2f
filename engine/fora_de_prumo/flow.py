"""F-3 and F-8.1 to F-8.3: whose decision it is, its options, and what each decision does.

A turn is three steps (F-3): buy, lay, refill. The state stops only where a seat decides:
the buy step (`BUY`), the lay step (`LAY`) and, in the final round, the single final-turn
decision (`FINAL`, F-R26) that merges a purchase with the lay of that same card. The refill,
the end check and the move to the next seat follow the lay at once (`end_turn`).

The option lists are the bots' hot path: they are built from the seats' buildings kept beside
the works, with each space's lays from the hand cached per building (`Game.pcache`).
"""

from __future__ import annotations

from typing import Any, Final

from engine.fora_de_prumo.building import HALF, SHIFT, legal_codes, placement
from engine.fora_de_prumo.model import BUY, FINAL, LAY, LOOK, PASS, SKIP, Action, Game
from engine.fora_de_prumo.scoring import standings

SITE_TYPES: Final = frozenset({"person", "concept", "project", "material"})  # F-3.5
CLONE_TARGET_TYPES: Final = frozenset({"concept", "project", "material"})  # F-6.6

# The events after which the game goes on from cards the deciding seat had not seen
# (engine.games.GameModule.CHANCE_EVENTS): every event that deals, draws, refills or reveals a
# card. The deal (F-1.5, F-R3) happens at set-up, before any decision, with no event. A deck
# purchase ("bought" from the deck, F-R19) takes a card the look has already shown; every other
# event moves cards the seat already sees (the market, the works, its own hand).
CHANCE_EVENTS: frozenset[str] = frozenset(
    {
        "looked",  # F-6.1 / F-R19: the top two (or one) deck cards shown to the seat
        "refilled",  # F-3.6: the deck's top card turned up into the market (a turn's end)
    }
)


# -- queries -----------------------------------------------------------------------------

EQUIPE: Final = "\x00"  # before a card id, the key of its lays with the equipe in Game.pcache


def has(g: Game, seat: int, ability: str) -> bool:
    """A person with this ability lies face up in the seat's site (see `abilities`)."""
    return g.works[seat].has_ability(g.cat, ability)


def hand_lays(g: Game, seat: int, cid: str, equipe: bool) -> list[Action]:
    """F-4.2/F-4.3: the lays of a space from the hand, one per legal placement, cached until
    the building changes (the action tuples are shared: options lists are never mutated)."""
    cache = g.pcache[seat]
    key = cid if not equipe else EQUIPE + cid
    out = cache.get(key)
    if out is None:
        out = []
        for v in legal_codes(g.buildings[seat], cid, equipe):
            k = v >> 2  # (building.key_cell, inline)
            x = (k + HALF) >> SHIFT
            out.append(("lay", cid, x, k - (x << SHIFT), v & 3, ""))
        cache[key] = out
    return out


def clone_targets(g: Game, seat: int) -> list[str]:
    """F-6.6: face-up concepts, projects and materials of the site that carry no clone card."""
    w = g.works[seat]
    taken = {t for t, _ in w.clones}
    cards = g.buildings[seat].geo.cards
    return [c for c in w.site if cards[c].type in CLONE_TARGET_TYPES and c not in taken]


def convert_targets(g: Game, seat: int) -> list[str]:
    """F-R20: the seat's spaces not yet converted (a printed joker may be)."""
    w = g.works[seat]
    done = set(w.converted)
    return [p.card for p in w.building if p.card not in done]


def free_designers(g: Game, seat: int) -> list[str]:
    """F-R20: designer cards of the site not yet spent."""
    w = g.works[seat]
    cards = g.buildings[seat].geo.cards
    return [c for c in w.site if cards[c].ability == "designer_de_interiores" and c not in w.spent]


# -- options -----------------------------------------------------------------------------


def add_card_lays(
    out: list[Action], g: Game, seat: int, cid: str, src: str, equipe: bool, targets: list[str]
) -> None:
    """F-3.3: one card laid (a site card, F-3.5; a space at each legal placement, F-4) or,
    with the teórica, laid as a clone card on each target (F-6.6, `targets` empty without),
    added to `out`."""
    if not g.buildings[seat].geo.cards[cid].space:
        out.append(("lay", cid, None, None, None, src))
    elif src == "":
        out.extend(hand_lays(g, seat, cid, equipe))
    else:
        out.extend(
            [("lay", cid, x, y, r, src) for _, _, x, y, r, _ in hand_lays(g, seat, cid, equipe)]
        )
    for t in targets:
        out.append(("clone", cid, t, src))


def abilities(g: Game, seat: int) -> set[str | None]:
    """The abilities of the people in the seat's site (one pass for all the option tests).
    F-R8 needs no check of its own: nothing enters a work before the lay, and the lay ends
    the turn's actions, so every person in the site was there when the turn began."""
    cards = g.buildings[seat].geo.cards
    return {cards[c].ability for c in g.works[seat].site}


def lay_options(g: Game, seat: int, final: bool = False) -> list[Action]:
    """F-3.3: lay a hand card, or use the designer's (F-6.3) or teórica's (F-6.6) action, or
    pass. In a final turn (F-8.2 / F-R26) also the look, and each market card (or seen deck
    card) bought and laid at once, as a site card, a space or a clone card; the look is a
    decision of its own that leaves the final turn open (proposed ruling F-R43)."""
    have = abilities(g, seat)
    equipe = "equipe_de_obras" in have
    targets = clone_targets(g, seat) if "teorica" in have else []
    out: list[Action] = []
    for cid in g.hands[seat]:
        add_card_lays(out, g, seat, cid, "", equipe, targets)
    if "designer_de_interiores" in have:
        designers = free_designers(g, seat)
        if designers:
            spaces = convert_targets(g, seat)
            out.extend(("convert", d, t) for d in designers for t in spaces)
    out.append(PASS)
    if final:
        if not g.peeked and g.deck and "coordenadora" in have:
            out.append(LOOK)
        for cid in g.market:
            add_card_lays(out, g, seat, cid, "market", equipe, targets)
        for cid in g.peeked:
            add_card_lays(out, g, seat, cid, "deck", equipe, targets)
    return out


def can_look(g: Game, seat: int) -> bool:
    """F-6.1 / F-R19: once per turn, with the coordenadora, while the deck has a card."""
    return not g.peeked and bool(g.deck) and has(g, seat, "coordenadora")


def buy_options(g: Game) -> list[Action]:
    """F-3.1 (one market card), F-6.1 (look; then one of the seen cards), or no purchase:
    declining is an explicit "skip", as declining the lay is "pass" (proposed ruling F-R40)."""
    out: list[Action] = [("buy", c) for c in g.market]
    if g.peeked:
        out.extend(("buy", c) for c in g.peeked)
    elif can_look(g, g.seat):
        out.append(LOOK)
    out.append(SKIP)
    return out


def compute_options(g: Game) -> list[Action]:
    if g.over:
        return []
    if g.step == BUY:
        return buy_options(g)
    return lay_options(g, g.seat, g.step == FINAL)


def options(g: Game) -> list[Action]:
    if g._opts is None:
        g._opts = compute_options(g)
    return g._opts


def deciding_seat(g: Game) -> int | None:
    return None if g.over else g.seat


# -- doing -------------------------------------------------------------------------------


def take(g: Game, cid: str, src: str) -> None:
    """Remove a card from where it is laid from: the hand, or (final turn) market or deck."""
    if src == "":
        g.hands[g.seat].remove(cid)
    elif src == "market":
        g.market.remove(cid)
        g.bought = cid
    else:
        g.deck.remove(cid)
        g.bought = cid


def buy(g: Game, cid: str) -> None:
    """F-3.1 / F-R7 (market) and F-R19 (one of the seen deck cards; the rest keep their order)."""
    seat = g.seat
    if cid in g.peeked:
        g.deck.remove(cid)
        src = "deck"
    else:
        g.market.remove(cid)
        src = "market"
    g.hands[seat].append(cid)
    g.bought = cid
    g.step = LAY
    if g.log is not None:  # (the events are built only when read: the bots' games keep none)
        g.emit(
            {
                "type": "bought",
                "seat": seat,
                "card": cid,
                "from": src,
                "clause": "F-3.1" if src == "market" else "F-6.1",
            }
        )


def look(g: Game) -> None:
    """F-6.1 / F-R19: the top two (or one) deck cards, seen by the player only."""
    g.peeked = g.deck[:2]
    g.emit(
        {
            "type": "looked",
            "seat": g.seat,
            "count": len(g.peeked),
            "cards": list(g.peeked),
            "clause": "F-6.1",
        }
    )


def lay(g: Game, a: Action) -> None:
    """F-3.3a / F-3.5: a site card into the site, a space into the building (F-4)."""
    _, cid, x, y, r, src = a
    seat = g.seat
    take(g, cid, src)
    w = g.own_work(seat)
    if x is None:
        w.site.append(cid)
    else:
        p = placement(cid, x, y, r)
        w.building.append(p)
        g.buildings[seat].add(p)
        g.pcache[seat] = {}  # a new building: new legal placements
    if g.log is not None:
        g.emit(laid_event(seat, a, len(w.building)))


def laid_event(seat: int, a: Action, spaces: int) -> dict[str, Any]:
    """The "laid" event of the lay `a`, `spaces` the building's spaces after it."""
    _, cid, x, y, r, src = a
    ev: dict[str, Any] = {"type": "laid", "seat": seat, "card": cid}
    if x is None:
        ev["clause"] = "F-3.5"
    else:
        ev.update(x=x, y=y, r=r, clause="F-4.3" if spaces > 1 else "F-R10")
    if src:
        ev["from"] = src
    return ev


def convert(g: Game, designer: str, target: str) -> None:
    """F-6.3 / F-R20: the target space's walls become plain doors; the designer is spent."""
    seat = g.seat
    w = g.own_work(seat)
    w.converted.append(target)
    w.spent.append(designer)
    g.buildings[seat].convert(target)
    g.pcache[seat] = {}
    g.emit(
        {
            "type": "converted",
            "seat": seat,
            "designer": designer,
            "target": target,
            "clause": "F-6.3",
        }
    )


def clone(g: Game, cid: str, target: str, src: str) -> None:
    """F-6.6 / F-R22: a card laid face down across a concept, project or material."""
    seat = g.seat
    take(g, cid, src)
    w = g.own_work(seat)
    w.clones.append((target, cid))
    ev: dict[str, Any] = {
        "type": "cloned",
        "seat": seat,
        "target": target,
        "card": cid,
        "clause": "F-6.6",
    }
    if src:
        ev["from"] = src
    g.emit(ev)


def start_final_round(g: Game, reason: str, clause: str) -> list[int]:
    """F-8.1 / F-R25 / F-R27: one final turn each, from the next seat to the triggering one.
    Returns the seats still to play, in order."""
    seat = g.seat
    remaining = [(seat + i) % g.n for i in range(1, g.n + 1)]
    g.final = (seat, remaining)
    g.passes = 0
    g.emit({"type": "end_triggered", "seat": seat, "reason": reason, "clause": clause})
    g.emit({"type": "final_round", "seats": list(remaining), "clause": "F-R25"})
    return remaining


def end_game(g: Game) -> None:
    """F-8.4: after the final round every work is scored."""
    g.over = True
    g.step = None
    if g.log is not None:  # scoring is costly: only when someone reads the events
        g.emit({"type": "game_over", "scores": final_scores(g), "clause": "F-8.4"})


def longest_game(cards: int, seats: int) -> int:
    """The most decisions a game of `seats` seats with `cards` cards in use can take, however
    it is played (what a game's history must be able to hold, app/history.py).
    - A normal turn is at most 3 decisions: a look, a buy or skip (F-3.1, F-3.2), a lay
      (F-3.3); a final turn at most 2: a look, then its one decision (F-8.2, F-R26, F-R43).
    - A turn that buys or acts resets the count of complete passes (F-8.3), and the n-th pass
      in a row starts the final round (F-R27). So the normal turns are at most n for each
      turn that buys or acts, and n more.
    - Each purchase takes a market or deck card for good (F-3.1, F-3.6). Each lay or clone
      without a purchase lays a hand card for good (F-3.8). Each conversion spends a designer
      (F-R20). So turns that buy or act number at most 3 per card in use."""
    acting_turns = 3 * cards
    normal_turns = seats * acting_turns + seats
    return 3 * normal_turns + 2 * seats


def end_turn(g: Game, acted: bool) -> None:
    """F-3.6 refill, then F-3.9: the end check (not during the final round) and the next seat.
    The check reads the deck at every turn's end, the first one included: a set-up that leaves
    the deck empty ends after one turn's final round (proposed ruling F-R45)."""
    seat = g.seat
    if g.final is None and g.bought is not None and not g.bought_from_deck() and g.deck:
        card = g.deck.pop(0)
        g.market.append(card)
        if g.log is not None:
            g.emit({"type": "refilled", "card": card, "clause": "F-3.6"})
    if g.final is not None:
        remaining = g.final[1]
        remaining.pop(0)
        if not remaining:
            g.peeked, g.bought = [], None
            end_game(g)
            return
        nxt, step = remaining[0], FINAL
    else:
        g.passes = g.passes + 1 if (g.bought is None and not acted) else 0
        # (the seats are returned, not read back from g.final: mypy, and so the compiled
        # code, would still take g.final for the None it was tested to be above)
        final: list[int] | None = None
        if not g.deck:
            final = start_final_round(g, "deck_empty", "F-8.1")
        elif g.passes >= g.n:
            final = start_final_round(g, "passes", "F-R27")
        if final is not None:
            nxt, step = final[0], FINAL
        else:
            nxt, step = (seat + 1) % g.n, BUY
    g.seat, g.step = nxt, step
    g.turn += 1
    g.peeked, g.bought = [], None


def step(g: Game, a: Action) -> None:
    """Apply an action known to be among `options(g)` (callers check; bots pass options)."""
    kind: str = a[0]
    g._opts = None
    if kind == "buy":
        buy(g, a[1])
        return
    if kind == "look":
        look(g)
        return
    if kind == "skip":
        g.step = LAY
        if g.log is not None:
            g.emit({"type": "skipped", "seat": g.seat, "clause": "F-3.1"})
        return
    if kind == "lay":
        lay(g, a)
    elif kind == "convert":
        convert(g, a[1], a[2])
    elif kind == "clone":
        clone(g, a[1], a[2], a[3])
    elif g.log is not None:
        g.emit({"type": "passed", "seat": g.seat, "clause": "F-3.3"})
    end_turn(g, kind != "pass")


def final_scores(g: Game) -> dict[str, Any]:
    """F-8.4 to F-8.12 on the works as they stand (the final scores once the game is over)."""
    return standings(g.cat, g.works, g.buildings)


def tally(g: Game) -> dict[str, Any]:
    """`final_scores` without the breakdowns' details and measures: the same totals, parts
    and winners for what a search reads (playout ends, learned features)."""
    return standings(g.cat, g.works, g.buildings, explain=False)
