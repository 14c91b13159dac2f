"""Whose decision it is, what the options are, and what each decision does.

The rules are resolved by a small interpreter over a stack of plain-data tasks
(`Game.tasks`). A task either resolves by itself or asks one seat to choose among options;
because tasks are plain data, a state can stop in the middle of a turn (an owner's
protection choice, a Laboratory play, a Guesthouse escape) and be resumed by another
request: the service stays stateless.

Every function cites the clause it implements.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import rng as rngmod
from engine.architectura.catalog import GUESTHOUSE, Op
from engine.architectura.city import (
    breaks_three_in_a_row,
    current_value,
    destroy_now,
    eligible_cells,
    eligible_cells_lifted,
    is_protected,
    move_now,
    place,
    remove_from_city,
    restore_now,
    return_token,
    rotate_now,
    selected_tops,
    swap_now,
)
from engine.architectura.model import BLOCKS, Action, Entry, Game, Task, cell_event, cell_json
from engine.architectura.scoring import final_scores
from engine.errors import Problem
from engine.messages import msg

DECLINE: Action = ("decline",)
APPLY: Action = ("apply",)
PASS: Action = ("pass",)
MULLIGAN: Action = ("mulligan",)
# The two tasks of every turn, one dict per seat (A-1.1: 2 to 4 seats): a task is never
# changed in place (Game.copy shares them too), so every turn can use these.
TURN_TASKS: tuple[Task, ...] = tuple({"k": "turn", "seat": s} for s in range(4))
END_TURN_TASKS: tuple[Task, ...] = tuple({"k": "end_turn", "seat": s} for s in range(4))

# The events after which the game goes on from cards the deciding seat had not seen
# (engine.games.GameModule.CHANCE_EVENTS): every event that deals, draws, shuffles or reveals
# a card. Set-up deals and shuffles happen before any decision, with no event. Every
# other event moves cards the seat already sees (the city, graveyards, its own hand) or hides
# one (a Laboratory play, A-9, which another seat decides).
CHANCE_EVENTS: frozenset[str] = frozenset(
    {
        "mulligan",  # A-3.1b: the hand to the bottom of the deck in random order, as many drawn
        "obelisk_taken",  # A-3.1a / A-9 Obelisk: the deck shuffled after the exchange
        "drew",  # drawn from the deck up to the hand limit (the end of every turn)
    }
)


# -- A-3 the turn ------------------------------------------------------------------------


def cost_payable(g: Game, seat: int, iid: int, hand: list[int] | None = None) -> bool:
    """A-9 City Hall / Magic Academy: enough other cards to remove from the game."""
    card = g.inst.cdef[iid]
    if not card.cost_remove:
        return True
    hand = g.hands[seat] if hand is None else hand
    available = len(hand) - (1 if iid in hand else 0)
    if "graveyard" in card.cost_from:
        available += len(g.graves[seat])
    return available >= card.cost_remove


def remove_unpayable_cards(g: Game, seat: int) -> None:
    """A-3.1c (ruling): a card in hand whose play cost cannot be paid at the start of its
    owner's turn is removed from the game; repeated until every remaining card is payable."""
    cdef = g.inst.cdef
    for iid in g.hands[seat]:
        if cdef[iid].cost_remove:
            break
    else:
        return  # most hands hold no card with a play cost
    changed = True
    while changed:
        changed = False
        hand = g.hands[seat]
        for iid in hand:
            if not cost_payable(g, seat, iid):
                why = {"from": "hand", "reason": "cost_cannot_be_paid", "clause": "A-3.1c"}
                _remove_card(g, hand, seat, iid, why)
                changed = True
                break


def playable_cells(g: Game, seat: int) -> list[int]:
    """A-4.1 to A-4.3 for a play from the hand."""
    if g.n < 3:  # only binds 3-4 players
        return eligible_cells(g, seat)
    return [c for c in eligible_cells(g, seat) if not breaks_three_in_a_row(g, seat, c)]


def play_options(g: Game, seat: int) -> list[Action]:
    """A-3.2: one card from hand onto an eligible cell (Graveyard: outside the city)."""
    cdef = g.inst.cdef
    cells: list[int] | None = None
    out: list[Action] = []
    for iid in g.hands[seat]:
        card = cdef[iid]
        if card.outside:
            out.append(("play", iid, -1))
            continue
        if card.cost_remove and not cost_payable(g, seat, iid):
            continue
        if cells is None:
            cells = eligible_cells(g, seat) if g.n < 3 else playable_cells(g, seat)
        for c in cells:
            out.append(("play", iid, c))
    return out


def start_of_turn_options(g: Game, seat: int) -> list[Action]:
    """A-3.1a (Obelisk, before the very first turn) and A-3.1b (mulligan, once per game)."""
    hand = g.hands[seat]
    started = g.started[seat]
    if not hand or (started and g.mulligan[seat]):
        return []
    out: list[Action] = []
    if not started:
        cdef = g.inst.cdef
        for d in g.decks[seat]:
            if cdef[d].pregame == "obelisk":
                for h in hand:
                    out.append(("obelisk", h))
                break
    if not g.mulligan[seat]:
        out.append(MULLIGAN)
    return out


def has_legal_play(g: Game, seat: int) -> bool:
    """Whether `play_options` would offer anything, without listing the options."""
    cdef = g.inst.cdef
    payable = False
    for iid in g.hands[seat]:
        if cdef[iid].outside:
            return True
        payable = payable or cost_payable(g, seat, iid)
    return payable and bool(playable_cells(g, seat))


def can_still_play(g: Game, seat: int) -> bool:
    """A-3.7 / A-R4: a seat is still in the game while it has a legal play now, or will draw."""
    if len(g.hands[seat]) < g.limits[seat] and g.decks[seat]:
        return True
    return has_legal_play(g, seat)


def begin_turn(g: Game, seat: int) -> None:
    """A-3.1 then A-3.7: the game ends when no seat can play any more.

    The mover's plays are listed first: they settle A-3.7 at once in most turns, and they are
    the turn's options, kept in `g._opts` so that `settle` does not list them again."""
    g.seat = seat
    g.turn += 1
    if g.inst.costs:
        remove_unpayable_cards(g, seat)
    plays = play_options(g, seat)
    if not plays:
        for i in range(g.n):
            if can_still_play(g, (seat + i) % g.n):
                break
        else:
            end_game(g)
            return
    g.tasks.append(TURN_TASKS[seat])
    if plays:
        # most turns: no start-of-turn choice is left, the plays are the options
        no_choice_left = g.started[seat] and g.mulligan[seat]
        g._opts = plays if no_choice_left else turn_options(g, seat, plays)


def end_game(g: Game) -> None:
    """A-3.7 / A-8: no one can play; final scores are computed."""
    g.over = True
    g.tasks = []
    if g.log is not None:
        g.log.append({"type": "game_over", "scores": final_scores(g), "clause": "A-3.7"})


def draw_to_limit(g: Game, seat: int) -> None:
    """A-3.5: draw until the hand holds the hand limit; an empty deck draws nothing."""
    hand, deck = g.hands[seat], g.decks[seat]
    held = len(hand)
    missing = g.limits[seat] - held
    if missing <= 0 or not deck:
        return
    if missing == 1:  # the usual draw after a play: one card, cheaper than slicing
        hand.append(deck.pop(0))
    else:
        hand += deck[:missing]
        del deck[:missing]
    if g.log is not None:
        drawn = hand[held:]
        g.log.append(
            {
                "type": "drew",
                "seat": seat,
                "count": len(drawn),
                "cards": [g.name(i) for i in drawn],
                "clause": "A-3.5",
            }
        )


def mulligan(g: Game, seat: int) -> None:
    """A-3.1b: the whole hand to the bottom of the deck in random order, then draw as many."""
    hand = g.hands[seat]
    k = len(hand)
    cards = hand[:]
    g.rng = rngmod.shuffle(g.rng, cards)
    g.decks[seat].extend(cards)
    hand.clear()
    for _ in range(k):
        hand.append(g.decks[seat].pop(0))
    g.mulligan[seat] = True
    g.started[seat] = True
    if g.log is not None:
        g.log.append({"type": "mulligan", "seat": seat, "count": k, "clause": "A-3.1b"})
    remove_unpayable_cards(g, seat)


def obelisk_exchange(g: Game, seat: int, give: int) -> None:
    """A-3.1a / A-9 Obelisk: one card from hand to the bottom of the deck, Obelisk from the
    deck into the hand, then the deck is shuffled."""
    deck, hand = g.decks[seat], g.hands[seat]
    obelisk = next(d for d in deck if g.inst.cdef[d].pregame == "obelisk")
    hand.remove(give)
    deck.append(give)
    deck.remove(obelisk)
    hand.append(obelisk)
    g.rng = rngmod.shuffle(g.rng, deck)
    if g.log is not None:
        g.log.append(
            {
                "type": "obelisk_taken",
                "seat": seat,
                "card": g.name(obelisk),
                "gave": g.name(give),
                "clause": "A-3.1a",
            }
        )
    remove_unpayable_cards(g, seat)


def start_play(g: Game, seat: int, iid: int, cell: int) -> None:
    """A-3.2, then the play cost of A-9 (City Hall, Magic Academy) when the card has one."""
    g.hands[seat].remove(iid)
    card = g.inst.cdef[iid]
    if card.cost_remove:
        g.tasks.append(
            {"k": "pay", "seat": seat, "card": iid, "cell": cell, "left": card.cost_remove}
        )
    else:
        finish_play(g, seat, iid, cell)


def finish_play(g: Game, seat: int, iid: int, cell: int) -> None:
    """A-3.2 to A-3.4: the card enters the city, is compared (A-5), then its effect resolves."""
    card = g.inst.cdef[iid]
    if card.outside:
        g.outside[seat].append(iid)
        if g.log is not None:
            g.log.append(
                {"type": "played", "seat": seat, "card": g.name(iid), "cell": None, "clause": "A-9"}
            )
        if card.on_play:
            g.tasks.append({"k": "effect", "seat": seat, "src": iid, "def": card.id, "i": 0})
        return
    place(g, iid, cell, True)
    if g.log is not None:
        value = {"value": current_value(g, cell)}
        g.log.append(cell_event(g, "played", iid, cell, "A-3.2", value, seat))
    if card.on_play:
        g.tasks.append({"k": "effect", "seat": seat, "src": iid, "def": card.id, "i": 0})
    compare(g, seat, cell)


# -- A-5 comparison --------------------------------------------------------------------


def comparison_outcome(left: int, played: int) -> str:
    """A-5.1 to A-5.4."""
    if left == played:
        return "equal"
    if left < played:
        return "destroy" if 2 * left <= played else "lower"
    return "raise"


COMPARISON_CLAUSE = {"equal": "A-5.1", "destroy": "A-5.2", "lower": "A-5.3", "raise": "A-5.4"}


def compare(g: Game, seat: int, cell: int) -> None:
    """A-5: the played card against its left neighbour; A-5.6 protection applies."""
    if cell % BLOCKS == 0:
        return
    left_cell = cell - 1
    stack = g.city[left_cell]
    if not stack or not stack[-1][2]:
        return
    left = stack[-1]
    cdef = g.inst.cdef
    # current_value, read in place for the printed values of most cards
    left_card = cdef[left[0]]
    lv = left_card.values[left[1]] if left_card.formula is None else current_value(g, left_cell)
    played = g.city[cell][-1]
    played_card = cdef[played[0]]
    pv = played_card.values[played[1]] if played_card.formula is None else current_value(g, cell)
    assert lv is not None and pv is not None
    outcome = comparison_outcome(lv, pv)
    clause = COMPARISON_CLAUSE[outcome]
    if g.log is not None:
        g.log.append(
            {
                "type": "compared",
                "card": g.name(left[0]),
                "cell": cell_json(left_cell),
                "left_value": lv,
                "played_value": pv,
                "outcome": outcome,
                "clause": clause,
            }
        )
    if outcome == "equal":
        return
    if outcome != "destroy":
        new = left[1] + (1 if outcome == "raise" else -1)
        # already at its lowest/highest; a one-sided card (one value,
        # or none for a formula card) has no side `new` either
        if not 0 <= new < len(left_card.values):
            return
    protected = left[3] or g.inst.shielded[left[0]]  # is_protected, inlined
    if protected and g.inst.owner[left[0]] != seat:  # A-5.6 (protected_against)
        if g.log is not None:
            g.log.append(cell_event(g, "protected", left[0], left_cell, "A-5.6"))
        return
    if protected:
        g.tasks.append(
            {"k": "consent", "seat": seat, "target": left[0], "action": outcome, "clause": "A-5.6"}
        )
        return
    comparison_result(g, seat, left_cell, outcome, clause)


def comparison_result(g: Game, seat: int, cell: int, outcome: str, clause: str) -> None:
    if outcome == "destroy":
        request_destroy(g, cell, clause)
    else:
        rotate_now(g, cell, 1 if outcome == "raise" else -1, False, clause)


# -- A-7 effects -----------------------------------------------------------------------


def request_destroy(g: Game, cell: int, clause: str) -> None:
    """A-7.3, with the Guesthouse's owner asked first (A-9 Guesthouse)."""
    entry = g.city[cell][-1]
    if GUESTHOUSE in g.inst.cdef[entry[0]].passive and entry[2]:
        g.tasks.append(
            {"k": GUESTHOUSE, "seat": g.owner(entry[0]), "target": entry[0], "clause": clause}
        )
        return
    destroy_now(g, cell, clause)


OP_CLAUSE = {
    "rotate": "A-7.2",
    "destroy": "A-7.3",
    "restore": "A-7.4",
    "move": "A-7.5",
    "swap": "A-7.6",
    "remove": "A-7.7",
    "protect": "A-7.8",
}


def op_of(g: Game, t: Task) -> Op:
    return g.cat.cards[t["def"]].on_play[t["i"]]


def op_targets(g: Game, t: Task, op: Op) -> tuple[list[Action], bool]:
    """A-7: the legal targets of operation `op` (the task's, `op_of(g, t)`), and whether all
    of them are the actor's own protected cards (A-6.3: then the owner may refuse even a
    mandatory effect)."""
    seat = t["seat"]
    kind = op.op
    if kind == "protect" and g.tokens[seat] <= 0:
        return [], True  # no token left to lay
    sel = op.target
    lower_than_source = sel.lower_than_source
    # where the source card is matters to adjacent/street selectors, a swap and a comparison
    # with the source's value; a city-wide selector does without (no search then)
    near = sel.where != "city" or kind == "swap" or lower_than_source
    src_cell = g.locate(t["src"]) if near else -1
    src_value = current_value(g, src_cell) if lower_than_source and src_cell >= 0 else None
    face_up = sel.face == "up"
    done = t["done"]
    owner, cdef, shielded = g.inst.owner, g.inst.cdef, g.inst.shielded
    out: list[Action] = []
    all_own_protected = True
    eligible: list[int] | None = None  # a move's cells with nothing lifted, listed once
    for c, entry in selected_tops(g, sel, src_cell, seat):
        iid = entry[0]
        if op.per_owner:
            if done.count(owner[iid]) >= op.count:
                continue
        elif iid in done:
            continue
        own = owner[iid] == seat
        protected = False
        if face_up:
            if lower_than_source:
                v = current_value(g, c)
                if src_value is None or v is None or v >= src_value:
                    continue
            protected = entry[3] or shielded[iid]  # is_protected, inlined
            if protected and not own:
                continue
        # whether this target can still show that not all targets are own protected cards
        telling = all_own_protected and not (own and protected)
        before = len(out) if telling else 0
        if kind == "rotate":
            n = len(cdef[iid].values)
            if n < 2:
                continue
            out.append(("rotate", iid, op.steps))
            if (2 * op.steps) % n:
                out.append(("rotate", iid, -op.steps))
        elif kind == "move":
            if eligible is None:
                eligible = eligible_cells(g, seat)
            for d in eligible_cells_lifted(g, seat, c, eligible):
                if d != c:
                    out.append(("move", iid, d))
        elif kind == "swap":
            if c != src_cell:
                out.append(("swap", iid))
        elif kind == "protect":
            if own and not (entry[3] or shielded[iid]):
                out.append(("protect", iid))
        else:  # destroy, restore, remove
            out.append((kind, iid))
        if telling and len(out) > before:
            all_own_protected = False
    return out, all_own_protected


def apply_op(g: Game, t: Task, a: Action) -> None:
    """Carry out one chosen target of an operation (A-7.2 to A-7.8)."""
    op = op_of(g, t)
    kind = a[0]
    clause = OP_CLAUSE[kind]
    iid = a[1]
    cell = g.locate(iid)
    n = t["n"] + 1
    done = [*t["done"], g.owner(iid) if op.per_owner else iid]
    g.tasks.pop()
    # per_owner (Library): the count is per owner, so the operation runs until every owner
    # has had its turn or the actor declines; otherwise `count` bounds the whole operation.
    if op.per_owner or not (op.count and n >= op.count):
        g.tasks.append({**t, "n": n, "done": done})
    if kind == "rotate":
        rotate_now(g, cell, a[2], True, clause)
    elif kind == "destroy":
        request_destroy(g, cell, clause)
    elif kind == "restore":
        restore_now(g, cell, clause)
    elif kind == "move":
        move_now(g, cell, a[2], clause)
    elif kind == "swap":
        swap_now(g, g.locate(t["src"]), cell, clause)
    elif kind == "remove":
        remove_from_city(g, cell, clause)
    elif kind == "protect":
        entry = g.city[cell][-1]
        g.city[cell][-1] = (entry[0], entry[1], entry[2], True)
        g.tokens[t["seat"]] -= 1
        if g.log is not None:
            g.log.append(cell_event(g, "protected", iid, cell, clause, {"seat": t["seat"]}))


def destroy_every_lower(g: Game, t: Task, op: Op) -> None:
    """A-9 Arsenal (an operation with count 'all'): the set of cards is fixed by their
    values when the effect starts (ruling), then each is destroyed left to right; opponents'
    protected cards are spared (A-6.2), the owner chooses for their own (A-6.3)."""
    seat = t["seat"]
    pseudo = {**t, "n": 0, "done": []}
    targets, _ = op_targets(g, pseudo, op)
    work: list[Task] = []
    for a in targets:
        iid = a[1]
        entry = g.city[g.locate(iid)][-1]
        if is_protected(g, entry):
            work.append(
                {
                    "k": "consent",
                    "seat": seat,
                    "target": iid,
                    "action": "destroy",
                    "clause": "A-6.3",
                }
            )
        else:
            work.append({"k": "destroy", "target": iid, "clause": "A-7.3"})
    g.tasks.extend(reversed(work))


def run_effect_step(g: Game, t: Task) -> None:
    """A-3.4: the effect's operations, in printed order."""
    ops = g.cat.cards[t["def"]].on_play
    i = t["i"]
    if i >= len(ops):
        g.tasks.pop()
        return
    g.tasks[-1] = {**t, "i": i + 1}
    op = ops[i]
    seat = t["seat"]
    if op.op == "hand_limit":
        if op.value > g.limits[seat]:
            g.limits[seat] = op.value
            if g.log is not None:
                g.log.append(
                    {"type": "hand_limit", "seat": seat, "limit": op.value, "clause": "A-7.9"}
                )
    elif op.op == "special":
        if op.name == "laboratory":
            order = [(seat + k) % g.n for k in range(1, g.n)]
            g.tasks.append({"k": "lab", "seat": order[0], "queue": order[1:], "by": seat})
        else:
            g.tasks.append({"k": op.name, "seat": seat, "src": t["src"], "def": t["def"], "i": i})
    elif op.count == 0:
        destroy_every_lower(g, t | {"i": i}, op)
    else:
        task = {
            "k": "op",
            "seat": seat,
            "src": t["src"],
            "def": t["def"],
            "i": i,
            "n": 0,
            "done": [],
        }
        # its options at once (what `settle` would list next): an operation without a
        # target is passed over here, as `settle` would push and pop it
        opts = _op_options(g, task)
        if opts:
            g.tasks.append(task)
            g._opts = opts


# -- special operations (A-9) ---------------------------------------------------------


def fountain_options(g: Game, t: Task) -> list[Action]:
    """A-9 Fountain: a token from supply onto an eligible empty cell."""
    seat = t["seat"]
    if g.tokens[seat] <= 0:
        return []
    return [("fountain", c) for c in eligible_cells(g, seat) if not g.city[c] and g.fountain[c] < 0]


def lab_options(g: Game, t: Task) -> list[Action]:
    """A-9 Laboratory: the opponent picks a card of their hand and an eligible cell."""
    seat = t["seat"]
    hand = g.hands[seat]
    if not hand:
        return []
    cells = eligible_cells(g, seat)
    return [("play_face_down", iid, c) for iid in hand for c in cells]


def manufactory_plays(
    g: Game, seat: int, cell: int, excluded: int, hand: list[int]
) -> list[Action]:
    """A-9 Manufactory: a different card from hand onto the freed cell, by the usual rules."""
    if breaks_three_in_a_row(g, seat, cell):
        return []
    out: list[Action] = []
    for iid in hand:
        if iid == excluded or g.inst.cdef[iid].outside:
            continue
        if cost_payable(g, seat, iid, hand):
            out.append(("play", iid, cell))
    return out


def manufactory_options(g: Game, t: Task) -> list[Action]:
    """A-9 Manufactory: a card may only be returned if a different card can then be played
    on its cell (no partial resolution)."""
    seat = t["seat"]
    out: list[Action] = []
    for c, stack in enumerate(g.city):
        if not stack:
            continue
        iid, _, face_up, _ = stack[-1]
        if not face_up or g.owner(iid) != seat:
            continue
        if manufactory_plays(g, seat, c, iid, [*g.hands[seat], iid]):
            out.append(("manufactory", iid))
    return [*out, DECLINE] if out else []


def smithy_options(g: Game, t: Task) -> list[Action]:
    """A-9 Smithy: copy the on-play effect of any face-up card (not another Smithy: ruling)."""
    out: list[Action] = []
    for stack in g.city:
        if not stack or not stack[-1][2]:
            continue
        card = g.inst.cdef[stack[-1][0]]
        if card.on_play and not card.is_smithy:
            out.append(("smithy", stack[-1][0]))
    return [*out, DECLINE] if out else []


# -- the task table --------------------------------------------------------------------

OptionsFn = Callable[[Game, Task], list[Action]]
ApplyFn = Callable[[Game, Task, Action], None]
AutoFn = Callable[[Game, Task], None]


def turn_options(g: Game, seat: int, plays: list[Action]) -> list[Action]:
    """A-3.1 and A-3.2: the plays, then the start-of-turn choices (a pass when only those)."""
    if g.started[seat] and g.mulligan[seat]:
        return plays  # no start-of-turn choice is left to this seat
    extra = start_of_turn_options(g, seat)
    if not extra:
        return plays
    if not plays:
        extra.append(PASS)
    return plays + extra


def _turn_options(g: Game, t: Task) -> list[Action]:
    return turn_options(g, t["seat"], play_options(g, t["seat"]))


def _turn_empty(g: Game, t: Task) -> None:
    seat = t["seat"]
    g.tasks.pop()
    g.started[seat] = True
    if not g.hands[seat] and not g.decks[seat]:
        if g.log is not None:
            g.log.append({"type": "skipped", "seat": seat, "clause": "A-3.2"})
    else:
        if g.log is not None:
            g.log.append({"type": "passed", "seat": seat, "clause": "A-3.2"})
    g.tasks.append(END_TURN_TASKS[seat])


def _turn_apply(g: Game, t: Task, a: Action) -> None:
    seat = t["seat"]
    kind = a[0]
    if kind == "play":
        g.tasks[-1] = END_TURN_TASKS[seat]
        g.started[seat] = True
        start_play(g, seat, a[1], a[2])
    elif kind == "mulligan":
        mulligan(g, seat)
    elif kind == "obelisk":
        obelisk_exchange(g, seat, a[1])
    else:
        _turn_empty(g, t)


def _pay_options(g: Game, t: Task) -> list[Action]:
    seat = t["seat"]
    card = g.inst.cdef[t["card"]]
    out: list[Action] = [("pay", i) for i in g.hands[seat]]
    if "graveyard" in card.cost_from:
        out.extend(("pay", i) for i in g.graves[seat])
    return out


def _remove_card(g: Game, zone: list[int], seat: int, iid: int, why: dict[str, str]) -> None:
    """A seat's card leaves its hand or Graveyard (`zone`) and the game (A-3.1c, A-9): the
    event `removed` names the seat and the card, then `why` (where from, the reason, the
    clause)."""
    zone.remove(iid)
    g.removed[seat].append(iid)
    if g.log is not None:
        g.log.append({"type": "removed", "seat": seat, "card": g.name(iid), **why})


def _pay_apply(g: Game, t: Task, a: Action) -> None:
    seat, iid = t["seat"], a[1]
    zone = g.hands[seat] if iid in g.hands[seat] else g.graves[seat]
    why = {"reason": "play_cost", "for": g.name(t["card"]), "clause": "A-9"}
    _remove_card(g, zone, seat, iid, why)
    g.tasks.pop()
    if t["left"] > 1:
        g.tasks.append({**t, "left": t["left"] - 1})
    else:
        finish_play(g, seat, t["card"], t["cell"])


def _pay_empty(g: Game, t: Task) -> None:
    # Unreachable when options were offered correctly; kept so a state can never stall.
    g.tasks.pop()
    g.removed[t["seat"]].append(t["card"])
    if g.log is not None:
        g.log.append(
            {
                "type": "removed",
                "card": g.name(t["card"]),
                "reason": "cost_cannot_be_paid",
                "clause": "A-3.1c",
            }
        )


def _consent_options(g: Game, t: Task) -> list[Action]:
    cell = g.locate(t["target"])
    if cell < 0 or not g.city[cell][-1][2]:
        return []
    return [APPLY, DECLINE]


def _consent_apply(g: Game, t: Task, a: Action) -> None:
    """A-6.3: the owner chooses whether their own card affects their protected card."""
    g.tasks.pop()
    cell = g.locate(t["target"])
    if a[0] == "decline":
        if g.log is not None:
            g.log.append(
                {
                    "type": "protection_kept",
                    "card": g.name(t["target"]),
                    "cell": cell_json(cell),
                    "clause": "A-6.3",
                }
            )
        return
    comparison_result(g, t["seat"], cell, t["action"], t["clause"])


def _op_options(g: Game, t: Task) -> list[Action]:
    op = op_of(g, t)
    targets, all_own = op_targets(g, t, op)
    if not targets:
        return []
    # "may" lets the actor stop at any point (Greenhouse: 1 or 2); a mandatory operation
    # takes every target it can, unless only the actor's own protected cards are left (A-R5).
    if op.may or all_own:
        return [*targets, DECLINE]
    return targets


def _pop(g: Game, t: Task) -> None:
    g.tasks.pop()


def _decline_or(fn: ApplyFn) -> ApplyFn:
    def apply(g: Game, t: Task, a: Action) -> None:
        if a[0] == "decline":
            g.tasks.pop()
            if g.log is not None:
                g.log.append({"type": "declined", "seat": t["seat"], "clause": "A-7"})
        else:
            fn(g, t, a)

    return apply


def _guesthouse_options(g: Game, t: Task) -> list[Action]:
    cell = g.locate(t["target"])
    if cell < 0 or not g.city[cell][-1][2]:
        return []  # no longer a face-up card of the city: nothing left to escape
    dests = [(GUESTHOUSE, d) for d in eligible_cells(g, t["seat"], lifted=cell) if d != cell]
    return [*dests, DECLINE] if dests else []


def _guesthouse_apply(g: Game, t: Task, a: Action) -> None:
    """A-9 Guesthouse: its owner moves it instead of letting it be destroyed."""
    g.tasks.pop()
    cell = g.locate(t["target"])
    if a[0] == "decline":
        destroy_now(g, cell, t["clause"])
    else:
        move_now(g, cell, a[1], "A-9")


def _guesthouse_empty(g: Game, t: Task) -> None:
    g.tasks.pop()
    cell = g.locate(t["target"])
    if cell >= 0 and g.city[cell][-1][2]:
        destroy_now(g, cell, t["clause"])


def _fountain_apply(g: Game, t: Task, a: Action) -> None:
    seat = t["seat"]
    g.tasks.pop()
    g.fountain[a[1]] = seat
    g.tokens[seat] -= 1
    if g.log is not None:
        g.log.append(
            {"type": "fountain_placed", "seat": seat, "cell": cell_json(a[1]), "clause": "A-9"}
        )


def _lab_next(g: Game, t: Task) -> None:
    g.tasks.pop()
    if t["queue"]:
        g.tasks.append({**t, "seat": t["queue"][0], "queue": t["queue"][1:]})


def _lab_apply(g: Game, t: Task, a: Action) -> None:
    """A-9 Laboratory: played face down, counts as destroyed, stays in the city (ruling)."""
    seat, iid, cell = t["seat"], a[1], a[2]
    g.hands[seat].remove(iid)
    place(g, iid, cell, False)
    if g.log is not None:
        g.log.append(cell_event(g, "played_face_down", iid, cell, "A-9", None, seat))
    _lab_next(g, t)


def _lab_empty(g: Game, t: Task) -> None:
    if g.log is not None:
        g.log.append(
            {
                "type": "skipped",
                "seat": t["seat"],
                "reason": "laboratory_no_card_or_cell",
                "clause": "A-9",
            }
        )
    _lab_next(g, t)


def _manufactory_apply(g: Game, t: Task, a: Action) -> None:
    seat, iid = t["seat"], a[1]
    g.tasks.pop()
    cell = g.locate(iid)
    return_token(g, g.city[cell].pop(), "returned_to_hand")
    g.hands[seat].append(iid)
    if g.log is not None:
        g.log.append(
            {
                "type": "returned_to_hand",
                "seat": seat,
                "card": g.name(iid),
                "cell": cell_json(cell),
                "clause": "A-9",
            }
        )
    g.tasks.append({"k": "manuf_play", "seat": seat, "cell": cell, "excluded": iid})


def _manuf_play_options(g: Game, t: Task) -> list[Action]:
    return manufactory_plays(g, t["seat"], t["cell"], t["excluded"], g.hands[t["seat"]])


def _manuf_play_apply(g: Game, t: Task, a: Action) -> None:
    g.tasks.pop()
    start_play(g, t["seat"], a[1], a[2])


def _smithy_apply(g: Game, t: Task, a: Action) -> None:
    seat = t["seat"]
    g.tasks.pop()
    copied = g.inst.cdef[a[1]]
    if g.log is not None:
        g.log.append(
            {
                "type": "copied",
                "seat": seat,
                "card": g.name(a[1]),
                "by": g.name(t["src"]),
                "clause": "A-9",
            }
        )
    g.tasks.append({"k": "smithy_remove", "card": t["src"]})
    g.tasks.append({"k": "effect", "seat": seat, "src": t["src"], "def": copied.id, "i": 0})


def _smithy_remove(g: Game, t: Task) -> None:
    """A-9 Smithy / A-R8: removed from the game once the copied effect has resolved, from
    wherever it then is (a city stack, its owner's hand or graveyard)."""
    g.tasks.pop()
    iid = t["card"]
    cell = g.locate(iid)
    if cell >= 0:
        remove_from_city(g, cell, "A-9")
        return
    seat = g.owner(iid)
    for where, zone in (("hand", g.hands[seat]), ("graveyard", g.graves[seat])):
        if iid in zone:
            zone.remove(iid)
            g.removed[seat].append(iid)
            if g.log is not None:
                g.log.append(
                    {"type": "removed", "card": g.name(iid), "from": where, "clause": "A-9"}
                )
            return
    for c, stack in enumerate(g.city):
        for depth, entry in enumerate(stack):
            if entry[0] == iid:  # destroyed and covered meanwhile
                del stack[depth]
                g.removed[seat].append(iid)
                if g.log is not None:
                    g.log.append(cell_event(g, "removed", iid, c, "A-9"))
                return


def _destroy_auto(g: Game, t: Task) -> None:
    g.tasks.pop()
    cell = g.locate(t["target"])
    if cell >= 0 and g.city[cell][-1][2]:
        request_destroy(g, cell, t["clause"])


def _end_turn(g: Game, t: Task) -> None:
    g.tasks.pop()
    draw_to_limit(g, t["seat"])
    begin_turn(g, (t["seat"] + 1) % g.n)


# -- what a resumed task needs from the rest of the state ------------------------------
# The engine only ever writes tasks that satisfy these; a state read from outside is checked
# with them (serialize), each problem pointed at the field of the task (serialize puts the
# task's own pointer before it).
CheckFn = Callable[[Game, Task], list[Problem]]
OUTCOMES = ("destroy", "lower", "raise")  # what a protection choice applies


def top_face_up(g: Game, iid: int) -> Entry | None:
    """The card's entry when it is the face-up top card of its cell, else None."""
    cell = g.locate(iid)
    if cell < 0 or not g.city[cell][-1][2]:
        return None
    return g.city[cell][-1]


def _consistent(g: Game, t: Task) -> list[Problem]:
    return []


def _op_is_targeted(g: Game, t: Task) -> list[Problem]:
    """A-7.1: an operation step resolves a targeted operation, not one of all cards."""
    op = g.cat.cards[t["def"]].on_play[t["i"]]
    if op.op not in OP_CLAUSE or op.count == 0:
        detail = msg("operation {i} of {card} is not a targeted operation", i=t["i"], card=t["def"])
        return [Problem("inconsistent_resolving", detail, "/i")]
    return []


def _op_is_special(g: Game, t: Task) -> list[Problem]:
    """A-9: a Fountain, Manufactory or Smithy step resolves that special operation."""
    op = g.cat.cards[t["def"]].on_play[t["i"]]
    if op.op != "special" or op.name != t["k"]:
        detail = msg("operation {i} of {card} is not {kind}", i=t["i"], card=t["def"], kind=t["k"])
        return [Problem("inconsistent_resolving", detail, "/i")]
    return []


def _consent_consistent(g: Game, t: Task) -> list[Problem]:
    """A-6.3: a protection choice is about a face-up protected card of the deciding seat, and
    applies one of the comparison's OUTCOMES."""
    out: list[Problem] = []
    entry = top_face_up(g, t["target"])
    if entry is None or g.owner(entry[0]) != t["seat"] or not is_protected(g, entry):
        detail = msg("a protection choice is about a face-up protected card of the deciding seat")
        out.append(Problem("inconsistent_resolving", detail, "/target", "A-6.3"))
    if t["action"] not in OUTCOMES:
        detail = msg("action must be one of {outcomes}", outcomes=list(OUTCOMES))
        out.append(Problem("inconsistent_resolving", detail, "/action"))
    return out


def _guesthouse_consistent(g: Game, t: Task) -> list[Problem]:
    """A-9 Guesthouse: an escape is about the deciding seat's face-up Guesthouse."""
    entry = top_face_up(g, t["target"])
    if (
        entry is None
        or g.owner(entry[0]) != t["seat"]
        or GUESTHOUSE not in g.card(entry[0]).passive
    ):
        detail = msg("a Guesthouse escape is about the deciding seat's face-up Guesthouse")
        return [Problem("inconsistent_resolving", detail, "/target", "A-9")]
    return []


def _pay_consistent(g: Game, t: Task) -> list[Problem]:
    """A-9 (play costs): a payment is for a card with a play cost of the deciding seat, on a
    cell where it may be played (A-4.1), or outside the city for a card played there (A-3.2)."""
    out: list[Problem] = []
    card = g.card(t["card"])
    if (
        not card.cost_remove
        or g.owner(t["card"]) != t["seat"]
        or not 1 <= t["left"] <= card.cost_remove
    ):
        detail = msg("a payment step is for a card with a play cost of the deciding seat")
        out.append(Problem("inconsistent_resolving", detail, "/card", "A-9"))
    cell = t["cell"]
    if cell >= 0 and (
        (g.city[cell] and g.city[cell][-1][2]) or g.fountain[cell] not in (-1, t["seat"])
    ):
        detail = msg(
            "a card is played only onto an empty or face-down cell free of an opponent's "
            "Fountain token"
        )
        out.append(Problem("inconsistent_resolving", detail, "/cell", "A-4.1"))
    if (t["cell"] < 0) != card.outside:
        detail = msg("the payment step's cell does not fit where the card is played")
        out.append(Problem("inconsistent_resolving", detail, "/cell", "A-3.2"))
    return out


def _manuf_play_consistent(g: Game, t: Task) -> list[Problem]:
    """A-9 Manufactory: the returned card is in the seat's hand, the freed cell not face up."""
    out: list[Problem] = []
    if t["excluded"] not in g.hands[t["seat"]]:
        detail = msg("the Manufactory's returned card is in the deciding seat's hand")
        out.append(Problem("inconsistent_resolving", detail, "/excluded", "A-9"))
    if g.city[t["cell"]] and g.city[t["cell"]][-1][2]:
        detail = msg("the Manufactory's freed cell holds a face-up card")
        out.append(Problem("inconsistent_resolving", detail, "/cell", "A-9"))
    return out


def _lab_consistent(g: Game, t: Task) -> list[Problem]:
    """A-9 Laboratory: each opponent is asked once."""
    order = [t["seat"], *t["queue"]]
    if t["by"] in order or len(set(order)) != len(order):
        detail = msg("a Laboratory asks each opponent once")
        return [Problem("inconsistent_resolving", detail, "", "A-9")]
    return []


def _smithy_remove_consistent(g: Game, t: Task) -> list[Problem]:
    """A-9 Smithy: only a Smithy is removed after copying."""
    if not g.card(t["card"]).is_smithy:
        detail = msg("only a Smithy is removed after copying")
        return [Problem("inconsistent_resolving", detail, "/card", "A-9")]
    return []


# -- the task kinds ----------------------------------------------------------------------


@dataclass(frozen=True)
class TaskKind:
    """One kind of resolving step, declared once: the fields a state writes for it (how
    serialize reads each: seat, card, cell, cell?, int, str, def, seats, list), what it does
    — asks (options, apply, what happens when there is nothing to choose) or resolves by
    itself (auto) —, the pending decision it shows when it asks (kind, clause, prompt), and
    what it needs from the rest of the state to be resumed (check)."""

    fields: dict[str, str]
    check: CheckFn = _consistent
    asks: tuple[OptionsFn, ApplyFn, AutoFn] | None = None
    pending: tuple[str, str, str] | None = None
    auto: AutoFn | None = None


_SPECIAL_FIELDS = {"seat": "seat", "src": "card", "def": "def", "i": "int"}
TASK_KINDS: dict[str, TaskKind] = {
    "turn": TaskKind(
        {"seat": "seat"},
        asks=(_turn_options, _turn_apply, _turn_empty),
        pending=(
            "play",
            "A-3",
            "play a card from your hand onto an eligible cell (or use a start-of-turn option)",
        ),
    ),
    "end_turn": TaskKind({"seat": "seat"}, auto=_end_turn),
    "pay": TaskKind(
        {"seat": "seat", "card": "card", "cell": "cell?", "left": "int"},
        _pay_consistent,
        asks=(_pay_options, _pay_apply, _pay_empty),
        pending=("pay_cost", "A-9", "choose a card to remove from the game to pay the play cost"),
    ),
    "consent": TaskKind(
        {"seat": "seat", "target": "card", "action": "str", "clause": "str"},
        _consent_consistent,
        asks=(_consent_options, _consent_apply, _pop),
        pending=(
            "protection_choice",
            "A-6.3",
            "your own card would affect your protected card: apply it or decline",
        ),
    ),
    "op": TaskKind(
        {"seat": "seat", "src": "card", "def": "def", "i": "int", "n": "int", "done": "list"},
        _op_is_targeted,
        asks=(_op_options, _decline_or(apply_op), _pop),
        pending=("effect", "A-7", "choose how to resolve the effect"),
    ),
    "effect": TaskKind(_SPECIAL_FIELDS, auto=run_effect_step),
    "destroy": TaskKind({"target": "card", "clause": "str"}, auto=_destroy_auto),
    GUESTHOUSE: TaskKind(
        {"seat": "seat", "target": "card", "clause": "str"},
        _guesthouse_consistent,
        asks=(_guesthouse_options, _guesthouse_apply, _guesthouse_empty),
        pending=(
            "guesthouse",
            "A-9",
            "your Guesthouse would be destroyed: move it to an eligible cell or decline",
        ),
    ),
    "fountain": TaskKind(
        _SPECIAL_FIELDS,
        _op_is_special,
        asks=(fountain_options, _fountain_apply, _pop),
        pending=("effect", "A-9", "put a protection token on an eligible empty cell (Fountain)"),
    ),
    "lab": TaskKind(
        {"seat": "seat", "queue": "seats", "by": "seat"},
        _lab_consistent,
        asks=(lab_options, _lab_apply, _lab_empty),
        pending=(
            "laboratory",
            "A-9",
            "play a card from your hand face down onto an eligible cell (Laboratory)",
        ),
    ),
    "manufactory": TaskKind(
        _SPECIAL_FIELDS,
        _op_is_special,
        asks=(manufactory_options, _decline_or(_manufactory_apply), _pop),
        pending=(
            "effect",
            "A-9",
            "you may return one of your face-up city cards to your hand (Manufactory)",
        ),
    ),
    "manuf_play": TaskKind(
        {"seat": "seat", "cell": "cell", "excluded": "card"},
        _manuf_play_consistent,
        asks=(_manuf_play_options, _manuf_play_apply, _pop),
        pending=(
            "manufactory_play",
            "A-9",
            "play a different card from your hand onto the freed cell (Manufactory)",
        ),
    ),
    "smithy": TaskKind(
        _SPECIAL_FIELDS,
        _op_is_special,
        asks=(smithy_options, _decline_or(_smithy_apply), _pop),
        pending=("effect", "A-9", "you may copy the on-play effect of a face-up card (Smithy)"),
    ),
    "smithy_remove": TaskKind({"card": "card"}, _smithy_remove_consistent, auto=_smithy_remove),
}
# What the interpreter looks up (settle, step), read from TASK_KINDS.
ASKING: dict[str, tuple[OptionsFn, ApplyFn, AutoFn]] = {
    k: kind.asks for k, kind in TASK_KINDS.items() if kind.asks is not None
}
AUTOMATIC: dict[str, AutoFn] = {
    k: kind.auto for k, kind in TASK_KINDS.items() if kind.auto is not None
}


def settle(g: Game) -> list[Action]:
    """Resolve everything that needs no choice; return the options of the next decision."""
    while not g.over and g.tasks:
        t = g.tasks[-1]
        auto = AUTOMATIC.get(t["k"])
        if auto is not None:
            auto(g, t)
            continue
        if g._opts is not None:  # listed by begin_turn for this very decision
            return g._opts
        options_fn, _, empty_fn = ASKING[t["k"]]
        opts = options_fn(g, t)
        if opts:
            g._opts = opts
            return opts
        empty_fn(g, t)
    g._opts = []
    return []


def options(g: Game) -> list[Action]:
    if g._opts is None:
        return settle(g)
    return g._opts


def step(g: Game, a: Action) -> None:
    """Apply an action known to be among `options(g)` (callers check; bots pass options)."""
    t = g.tasks[-1]
    ASKING[t["k"]][1](g, t, a)
    g._opts = None
    settle(g)


def deciding_seat(g: Game) -> int | None:
    if g.over or not g.tasks:
        return None
    return int(g.tasks[-1]["seat"])
