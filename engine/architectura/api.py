"""The public, JSON-in JSON-out face of the Architectura engine.

Every function takes and returns plain JSON-compatible data; the input is never mutated.
An illegal decision raises IllegalDecision naming the clause; a bad state raises
InvalidState listing every problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.architectura.catalog import CardDef, Catalog, builtin_catalogs, load_catalog
from engine.architectura.city import breaks_three_in_a_row, eligible_cells, protected_against
from engine.architectura.flow import OP_CLAUSE, cost_payable, deciding_seat, options, step
from engine.architectura.model import BLOCKS, Action, Game
from engine.architectura.scoring import final_scores
from engine.architectura.serialize import (
    DECISION_TYPES,
    game_from_json,
    game_from_sealed,
    game_to_json,
    parse_cell,
    pending_json,
)
from engine.architectura.setup import check_fields
from engine.architectura.setup import new_game as _new_game
from engine.declared import Problems, is_int
from engine.describe import brief
from engine.errors import (
    IllegalDecision,
    InvalidState,
    Problem,
    ProblemList,
    SetupError,
    pointer_token,
    short_repr,
)
from engine.guesses import closest, did_you_mean, unknown_card
from engine.messages import Msg, msg
from engine.protocol import DecisionProtocol
from engine.refusals import Row, first_refusal
from engine.setup_fields import seeded, setup_catalog


def new_game_internal(setup: dict[str, Any]) -> Game:
    """A-1: the game of a set-up, every problem of it listed (SetupError): an unknown field
    (as Fora de Prumo refuses one, F-1) first, then the fields' (game, seats, seed,
    first_seat, variant, colours, replacements);
    a custom catalog that is the set-up's only problem is refused with its own error (as
    beside a state), else its problems are listed under /catalog. Without a seed, one is
    chosen at random (engine.setup_fields.seeded)."""
    if not isinstance(setup, dict):
        raise SetupError("invalid_setup", msg("the set-up must be an object"), "A-1", "")
    setup = seeded(setup)
    problems = ProblemList()  # an object of 100,000 unknown fields costs a count
    n = check_fields(setup, problems)
    cat = setup_catalog(problems, setup, get_catalog)
    if cat is None:  # the colours and replacements need the catalog: not read
        raise SetupError.listing(problems)
    return _new_game(cat, setup, n, problems)


def validate(state: Any, catalog: Any = None) -> list[Problem]:
    """Every consistency problem of a state; an empty list means it is valid."""
    try:
        load(state, catalog)
    except InvalidState as e:
        return e.problems
    except SetupError as e:
        return [Problem(e.code, e.detail, e.pointer, e.clause)]
    return []


def require_decider(g: Game, seat: int | None = None, pointer: str = "/seat") -> int:
    """The seat that must decide now; raises when the game is over (A-3.7), or when `seat`
    is given and is not that seat (A-3: a turn's decisions are its player's, or the seat a
    card names)."""
    decider = deciding_seat(g)
    if g.over or decider is None:
        raise IllegalDecision(
            "game_over", msg("The game is over: no decision can be made."), "A-3.7", pointer
        )
    if seat is not None and (not is_int(seat) or seat != decider):  # 0.0 is no seat (as F-3)
        raise IllegalDecision(
            "not_your_decision",
            msg(
                "This decision belongs to seat {seat} ({colour}), not seat {other}.",
                seat=decider,
                colour=g.colours[decider],
                other=brief(seat),
            ),
            "A-3",
            pointer,
        )
    return decider


def parse_decision(g: Game, d: Any, pointer: str = "") -> Action:
    """A decision object to an engine action; malformed ones are refused with a reason."""
    decider = require_decider(g, None, pointer)
    if not isinstance(d, dict):
        raise IllegalDecision(
            "malformed_decision", msg("A decision must be an object."), None, pointer
        )
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in DECISION_TYPES:
        raise IllegalDecision(
            "unknown_decision_type",
            did_you_mean(
                msg("Unknown decision type {type}.", type=short_repr(kind)),
                closest(kind, DECISION_TYPES),
            ),
            None,
            pointer + "/type",
        )
    if "seat" in d:
        require_decider(g, d["seat"], pointer + "/seat")
    extra = set(d) - {"type", "seat", *DECISION_TYPES[kind]}
    if extra:
        first = min(extra, key=str)
        raise IllegalDecision(
            "malformed_decision",
            did_you_mean(
                msg(
                    "Unexpected field(s) {fields} for {kind}.",
                    fields=short_repr(sorted(extra)),
                    kind=kind,
                ),
                closest(first, [f for f in DECISION_TYPES[kind] if f not in d]),
            ),
            None,
            pointer + "/" + pointer_token(first),
        )
    out: list[Any] = [kind]
    for field in DECISION_TYPES[kind]:
        v = d.get(field)
        fp = f"{pointer}/{field}"
        if field in ("card", "target"):
            if not isinstance(v, str) or v not in g.inst.index:
                raise IllegalDecision(
                    "unknown_card", _not_a_card(g, field, v, decider), "A-1.3", fp
                )
            out.append(g.inst.index[v])
        elif field == "cell":
            if v is None and kind == "play":
                out.append(-1)
                continue
            r = Problems()
            cell = parse_cell(r, v, fp, g.n)
            if cell < 0:
                p = r.problems[0]
                raise IllegalDecision("invalid_cell", p.detail, "A-1.2", fp)
            out.append(cell)
        elif field == "steps":
            if not isinstance(v, int) or isinstance(v, bool):
                raise IllegalDecision(
                    "malformed_decision", msg("steps must be an integer."), "A-7.2", fp
                )
            out.append(v)
    return tuple(out)


def _not_a_card(g: Game, field: str, v: Any, decider: int) -> Msg:
    """A-1.3: `v` names no card instance of the game; the closest instance ids suggested,
    the deciding seat's own first ("palace": blue.palace when blue decides)."""
    inst = g.inst
    own = [name for name, seat in zip(inst.names, inst.owner, strict=True) if seat == decider]
    found = closest(v, own) or closest(v, inst.names)
    return unknown_card(field, v, short_repr(v), found)


@dataclass(frozen=True)
class _Asked:
    """A decision that is not among the options, as the refusal rows read it."""

    g: Game
    a: Action
    seat: int  # the deciding seat
    task: str  # the pending task's kind
    kinds: list[str]  # the decision types the pending decision accepts

    @property
    def card(self) -> CardDef:
        return self.g.card(self.a[1])

    @property
    def cell(self) -> int:
        return int(self.a[2])

    @property
    def target(self) -> str:
        return self.g.name(self.a[1])


Refused = IllegalDecision | None


def _wrong_decision_type(c: _Asked, pointer: str) -> Refused:
    """A-3: a decision of a type the pending decision takes."""
    if c.a[0] in c.kinds:
        return None
    detail = msg(
        "The pending decision accepts {accepted}, not {kind}.",
        accepted=", ".join(c.kinds),
        kind=c.a[0],
    )
    return IllegalDecision("wrong_decision_type", detail, "A-3", pointer + "/type")


def _card_not_in_hand(c: _Asked, pointer: str) -> Refused:
    """A-3.2: a card is played from the hand."""
    if c.a[1] in c.g.hands[c.seat]:
        return None
    detail = msg("{card} is not in your hand.", card=c.target)
    return IllegalDecision("card_not_in_hand", detail, "A-3.2", pointer + "/card")


def _played_outside_city(c: _Asked, pointer: str) -> Refused:
    """A-9 (Graveyard): a card made to be played outside the city takes no cell."""
    if not (c.card.outside and c.cell >= 0):
        return None
    detail = msg("{card} is played outside the city (cell null).", card=c.card.name)
    return IllegalDecision("played_outside_city", detail, "A-9", pointer + "/cell")


def _cell_required(c: _Asked, pointer: str) -> Refused:
    """A-3.2: any other card is played onto a cell."""
    if c.card.outside or c.cell >= 0:
        return None
    detail = msg("{card} must be played onto a cell.", card=c.card.name)
    return IllegalDecision("cell_required", detail, "A-3.2", pointer + "/cell")


def _cost_cannot_be_paid(c: _Asked, pointer: str) -> Refused:
    """A-3.1c: a card with a play cost is played only when the cost can be paid."""
    if cost_payable(c.g, c.seat, c.a[1]):
        return None
    detail = msg("{card}'s play cost cannot be paid.", card=c.card.name)
    return IllegalDecision("cost_cannot_be_paid", detail, "A-3.1c", pointer + "/card")


def _fountain_cell(c: _Asked, pointer: str) -> Refused:
    """A-4.3: no card is played onto a cell with an opponent's Fountain token."""
    f = c.g.fountain[c.cell]
    if f < 0 or f == c.seat:
        return None
    detail = msg("An opponent's Fountain token lies on that cell.")
    return IllegalDecision("fountain_cell", detail, "A-4.3", pointer + "/cell")


def _cell_not_eligible(c: _Asked, pointer: str) -> Refused:
    """A-4.1: a card is played onto an eligible cell."""
    if c.cell in eligible_cells(c.g, c.seat):
        return None
    return IllegalDecision(
        "cell_not_eligible", _why_not_eligible(c.g, c.cell), "A-4.1", pointer + "/cell"
    )


def _three_in_a_row(c: _Asked, pointer: str) -> Refused:
    """A-4.2: with 3 or 4 players, no third consecutive face-up card of a colour in a street."""
    if not breaks_three_in_a_row(c.g, c.seat, c.cell):
        return None
    detail = msg(
        "With 3 or 4 players you may not play a third consecutive face-up card of "
        "your colour in a street."
    )
    return IllegalDecision("three_in_a_row", detail, "A-4.2", pointer + "/cell")


def _target_protected(c: _Asked, pointer: str) -> Refused:
    """A-6.2: an operation does not target a card protected against its seat."""
    g, cell = c.g, c.g.locate(c.a[1])
    if not (cell >= 0 and g.city[cell][-1][2] and protected_against(g, g.city[cell][-1], c.seat)):
        return None
    detail = msg("{card} is protected against you.", card=c.target)
    return IllegalDecision("target_protected", detail, "A-6.2", pointer + "/target")


def _illegal_target(c: _Asked, pointer: str) -> Refused:
    """A-7.2 to A-7.8: else the target is not one the operation may pick (its own clause)."""
    detail = msg(
        "{card} is not a legal target of this {kind} (see the pending decision's options).",
        card=c.target,
        kind=c.a[0],
    )
    return IllegalDecision("illegal_target", detail, OP_CLAUSE[c.a[0]], pointer + "/target")


def _illegal_decision(c: _Asked, pointer: str) -> Refused:
    """A-3: the last refusal, a decision of the right type that breaks no rule above."""
    detail = msg(
        "That decision is not among the legal options of the pending {kind} decision.", kind=c.task
    )
    return IllegalDecision("illegal_decision", detail, "A-3", pointer)


# A card played in a turn, in the order of its rules.
TURN_PLAY: tuple[Row[_Asked], ...] = (
    _card_not_in_hand,
    _played_outside_city,
    _cell_required,
    _cost_cannot_be_paid,
    _fountain_cell,
    _cell_not_eligible,
    _three_in_a_row,
)
# The target of an operation.
TARGET: tuple[Row[_Asked], ...] = (_target_protected, _illegal_target)


def diagnose(g: Game, a: Action, pointer: str) -> IllegalDecision:
    """Why an action is not among the options: the first row of its refusal table that it
    breaks (the type, then TURN_PLAY for a card played in a turn or TARGET for an operation's
    target, then _illegal_decision)."""
    t = g.tasks[-1]
    c = _Asked(g, a, t["seat"], t["k"], sorted({o[0] for o in options(g)}))
    kind = a[0]
    rows = TURN_PLAY if kind == "play" and c.task == "turn" else TARGET if kind in OP_CLAUSE else ()
    refusal = first_refusal((_wrong_decision_type, *rows, _illegal_decision), c, pointer)
    assert refusal is not None  # _illegal_decision always refuses
    return refusal


def _why_not_eligible(g: Game, cell: int) -> Msg:
    stack = g.city[cell]
    street, block = cell // BLOCKS + 1, cell % BLOCKS + 1
    if stack and stack[-1][2]:
        return msg(
            (
                "Cell [{street}, {block}] holds a face-up card; only empty or face-down "
                "cells are eligible."
            ),
            street=street,
            block=block,
        )
    if cell % BLOCKS == 0:
        return msg(
            (
                "Cell [{street}, {block}] is block 1 of a street that is not the first "
                "street without cards."
            ),
            street=street,
            block=block,
        )
    return msg(
        "Cell [{street}, {block}] is empty and the cell to its left is empty.",
        street=street,
        block=block,
    )


_PROTOCOL: DecisionProtocol[Game, Action] = DecisionProtocol(
    catalog_type=Catalog,
    load_catalog=load_catalog,
    builtin_catalogs=builtin_catalogs,
    unknown_catalog_clause="A-10",
    read_state=game_from_json,
    write_state=game_to_json,
    pending_json=pending_json,
    new_game_internal=new_game_internal,
    parse_decision=parse_decision,
    options=options,
    diagnose=diagnose,
    step=step,
    final_scores=final_scores,
    read_sealed=game_from_sealed,
)
# The shared decision protocol (engine/protocol.py) gives the rest of the JSON face.
apply_internal = _PROTOCOL.apply_internal
get_catalog = _PROTOCOL.get_catalog
load = _PROTOCOL.load
new_game = _PROTOCOL.new_game
legal_decisions = _PROTOCOL.legal_decisions
apply = _PROTOCOL.apply
apply_all = _PROTOCOL.apply_all
score = _PROTOCOL.score
replay = _PROTOCOL.replay
returns = _PROTOCOL.returns
