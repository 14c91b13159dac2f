"""The public, JSON-in JSON-out face of the Fora de Prumo engine.

Every function takes and returns plain JSON-compatible data; the input is never mutated.
An illegal decision raises IllegalDecision naming the clause and a pointer; a bad state raises
InvalidState listing every problem; a bad set-up raises SetupError.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.declared import brief, is_int
from engine.errors import (
    CatalogError,
    IllegalDecision,
    InvalidState,
    Problem,
    SetupError,
    pointer_token,
)
from engine.fora_de_prumo.building import placement_error
from engine.fora_de_prumo.catalog import Card, Catalog, builtin_catalogs, load_catalog
from engine.fora_de_prumo.flow import (
    CLONE_TARGET_TYPES,
    deciding_seat,
    final_scores,
    has,
    options,
    step,
)
from engine.fora_de_prumo.model import BUY, FINAL, LAY, Action, Game
from engine.fora_de_prumo.serialize import (
    DECISION_FIELDS,
    SOURCES,
    game_from_json,
    game_from_sealed,
    game_to_json,
    pending_json,
)
from engine.fora_de_prumo.setup import check_setup
from engine.fora_de_prumo.setup import new_game as _new_game
from engine.fora_de_prumo.work import Work
from engine.guesses import closest, did_you_mean, unknown_card
from engine.messages import msg
from engine.protocol import DecisionProtocol
from engine.refusals import Row, first_refusal
from engine.setup_fields import seeded, setup_catalog


def new_game_internal(setup: dict[str, Any]) -> Game:
    """F-1: the game of a set-up, every problem of it listed (SetupError). Without a seed,
    one is chosen at random (engine.setup_fields.seeded)."""
    setup = seeded(setup)
    problems = check_setup(setup)
    cat = setup_catalog(problems, setup, get_catalog) if isinstance(setup, dict) else None
    if problems or cat is None:
        raise SetupError.listing(problems)
    return _new_game(cat, setup)


def tournament_setup(seed: int, seats: int, variant: str | None = None) -> dict[str, Any]:
    """A set-up for bot tournaments and benchmarks; `variant` names the market size (F-1.7):
    "4"/"hard", "6"/"easy", anything else the default 5."""
    k = {"4": 4, "hard": 4, "6": 6, "easy": 6}.get(variant or "", 5)
    return {"game": "fora-de-prumo", "seats": seats, "seed": seed, "market_size": k}


def validate(state: Any, catalog: Any = None) -> list[Problem]:
    """Every consistency problem of a state; an empty list means it is valid."""
    try:
        load(state, catalog)
    except InvalidState as e:
        return e.problems
    except (SetupError, CatalogError) as e:
        return e.problems or [Problem(e.code, e.detail, e.pointer, e.clause)]
    return []


def require_decider(g: Game, seat: int | None = None, pointer: str = "/seat") -> int:
    """The seat that must decide now (F-3: always the seat whose turn it is); raises when the
    game is over, or when `seat` is given and is not that seat."""
    decider = deciding_seat(g)
    if decider is None:
        raise IllegalDecision(
            "game_over", msg("The game is over: no decision can be made."), "F-8.4", pointer
        )
    if seat is not None and (not is_int(seat) or seat != decider):
        raise IllegalDecision(
            "not_your_decision",
            msg(
                "This decision belongs to seat {seat}, not seat {other}.",
                seat=decider,
                other=brief(seat),
            ),
            "F-3",
            pointer,
        )
    return decider


def _card(g: Game, v: Any, p: str) -> str:
    if not isinstance(v, str) or v not in g.cat.cards:
        found = closest(v, [c for c, card in g.cat.cards.items() if card.min_players <= g.n])
        detail = unknown_card(p.rsplit("/", 1)[-1], v, brief(v), found)
        raise IllegalDecision("unknown_card", detail, "F-2.1", p)
    if g.cat.cards[v].min_players > g.n:
        raise IllegalDecision(
            "unknown_card", msg("{card} is not used with {n} players.", card=v, n=g.n), "F-1.3", p
        )
    return v


def parse_decision(g: Game, d: Any, pointer: str = "") -> Action:
    """A decision object to an engine action; malformed ones are refused with a reason."""
    require_decider(g, None, pointer)
    if not isinstance(d, dict):
        raise IllegalDecision(
            "malformed_decision", msg("A decision must be an object."), "F-3", pointer
        )
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in DECISION_FIELDS:
        raise IllegalDecision(
            "malformed_decision",
            msg(
                "Unknown decision type {type}; known: {known}.",
                type=brief(kind),
                known=", ".join(DECISION_FIELDS),
            ),
            "F-3",
            pointer + "/type",
        )
    if "seat" in d:
        require_decider(g, d["seat"], pointer + "/seat")
    fields = DECISION_FIELDS[kind]
    extra = set(d).difference(fields, ("type", "seat"))
    if extra:
        first = min(extra)  # not sorted: a decision may hold 100,000 fields
        raise IllegalDecision(
            "malformed_decision",
            did_you_mean(
                msg(
                    "Unexpected field {field} for a {kind} decision.", field=brief(first), kind=kind
                ),
                closest(first, [f for f in fields if f not in d]),
            ),
            "F-2.7",
            f"{pointer}/{pointer_token(first)}",
        )
    src = d.get("from", "")
    if "from" in d and src not in SOURCES:
        raise IllegalDecision(
            "malformed_decision",
            msg("from must be 'market' or 'deck'."),
            "F-8.2",
            pointer + "/from",
        )
    if kind == "buy":
        return ("buy", _card(g, d.get("card"), pointer + "/card"))
    if kind == "lay":
        cid = _card(g, d.get("card"), pointer + "/card")
        pos = [d.get(k) for k in ("x", "y", "r")]
        if all(v is None for v in pos):
            return ("lay", cid, None, None, None, src)
        for k, v in zip(("x", "y", "r"), pos, strict=True):
            if not is_int(v) or not -(2**31) < v < 2**31:
                raise IllegalDecision(
                    "malformed_decision",
                    msg(
                        "{field} must be an integer (a space's position, F-2.4), not {value}.",
                        field=k,
                        value=brief(v),
                    ),
                    "F-2.4",
                    f"{pointer}/{k}",
                )
        return ("lay", cid, pos[0], pos[1], pos[2], src)
    if kind == "convert":
        return (
            "convert",
            _card(g, d.get("designer"), pointer + "/designer"),
            _card(g, d.get("target"), pointer + "/target"),
        )
    if kind == "clone":
        return (
            "clone",
            _card(g, d.get("card"), pointer + "/card"),
            _card(g, d.get("target"), pointer + "/target"),
            src,
        )
    return (kind,)


STEP_KINDS = {
    BUY: ("buy", "look", "skip"),
    LAY: ("lay", "convert", "clone", "pass"),
    FINAL: ("lay", "convert", "clone", "pass", "look"),
}


@dataclass(frozen=True)
class _Asked:
    """A decision that is not among the options, as the refusal rows read it."""

    g: Game
    a: Action
    seat: int  # the deciding seat
    w: Work  # its work

    @property
    def kind(self) -> str:
        return str(self.a[0])

    @property
    def card(self) -> Card:
        return self.g.cat.cards[self.a[1]]

    @property
    def takes(self) -> bool:
        """F-3: the pending step takes a decision of this type (STEP_KINDS)."""
        assert self.g.step is not None
        return self.kind in STEP_KINDS[self.g.step]

    def has(self, ability: str) -> bool:
        return has(self.g, self.seat, ability)


Refused = IllegalDecision | None

# -- the decision's type (F-3: buy, then lay) ---------------------------------------------


def _bought_and_laid(c: _Asked, pointer: str) -> Refused:
    """F-8.2: only a final turn buys and lays a card in one decision."""
    if not (c.g.step == LAY and c.kind in ("lay", "clone") and c.a[-1]):
        return None
    detail = msg("Only a final turn buys and lays a card in one decision (from).")
    return IllegalDecision("wrong_decision_type", detail, "F-8.2", pointer + "/from")


def _purchase_must_be_laid(c: _Asked, pointer: str) -> Refused:
    """F-8.2: in a final turn a card is bought only to be laid at once."""
    if c.takes or c.kind != "buy" or c.g.step != FINAL:
        return None
    detail = msg(
        "In a final turn a card may be bought only to be laid at once: send a lay or "
        "clone decision with from 'market' or 'deck'."
    )
    return IllegalDecision("purchase_must_be_laid", detail, "F-8.2", pointer + "/type")


def _already_bought(c: _Asked, pointer: str) -> Refused:
    """F-R7: at most one card is bought per turn."""
    if c.takes or c.kind != "buy" or c.g.bought is None:
        return None
    detail = msg("At most one card is bought per turn.")
    return IllegalDecision("already_bought", detail, "F-R7", pointer + "/type")


def _wrong_decision_type(c: _Asked, pointer: str) -> Refused:
    """F-3.1 (the buy step) / F-3.3 (the lay step): a type the pending step takes."""
    if c.takes:
        return None
    assert c.g.step is not None
    detail = msg(
        "The pending {step} step takes {allowed}, not {kind}.",
        step=c.g.step,
        allowed=", ".join(STEP_KINDS[c.g.step]),
        kind=c.kind,
    )
    clause = "F-3.1" if c.g.step == BUY else "F-3.3"
    return IllegalDecision("wrong_decision_type", detail, clause, pointer + "/type")


# -- where a card is laid from (lay, clone) -------------------------------------------------


def _card_not_in_hand(c: _Asked, pointer: str) -> Refused:
    """F-3.3: a card laid from the hand is in the hand."""
    if c.a[-1] != "" or c.a[1] in c.g.hands[c.seat]:
        return None
    detail = msg("{card} is not in your hand.", card=c.a[1])
    return IllegalDecision("card_not_in_hand", detail, "F-3.3", pointer + "/card")


def _card_not_in_market(c: _Asked, pointer: str) -> Refused:
    """F-3.1: a card bought from the market (to be laid, F-8.2) is in the market."""
    if c.a[-1] != "market" or c.a[1] in c.g.market:
        return None
    detail = msg("{card} is not in the market.", card=c.a[1])
    return IllegalDecision("card_not_in_market", detail, "F-3.1", pointer + "/card")


def _card_not_seen(c: _Asked, pointer: str) -> Refused:
    """F-R19: a card bought from the deck is one seen with the coordenadora this turn."""
    if c.a[-1] != "deck" or c.a[1] in c.g.peeked:
        return None
    detail = msg(
        "{card} is not one of the deck cards seen with the coordenadora this turn.", card=c.a[1]
    )
    return IllegalDecision("card_not_seen", detail, "F-R19", pointer + "/card")


# -- look --------------------------------------------------------------------------------


def _already_looked(c: _Asked, pointer: str) -> Refused:
    """F-R19: one look at the deck per turn."""
    if not c.g.peeked:
        return None
    detail = msg("You have already looked at the deck this turn.")
    return IllegalDecision("already_looked", detail, "F-R19", pointer)


def _no_coordenadora(c: _Asked, pointer: str) -> Refused:
    """F-6.1: only the coordenadora lets a player look at the deck."""
    if c.has("coordenadora"):
        return None
    detail = msg("Only the coordenadora in your work lets you look at the deck.")
    return IllegalDecision("no_coordenadora", detail, "F-6.1", pointer + "/type")


def _deck_empty(c: _Asked, pointer: str) -> Refused:
    """F-R19: there is a deck to look at."""
    if c.g.deck:
        return None
    return IllegalDecision("deck_empty", msg("The deck is empty."), "F-R19", pointer + "/type")


# -- buy ---------------------------------------------------------------------------------


def _not_for_sale(c: _Asked, pointer: str) -> Refused:
    """F-3.1: a card is bought from the market (or the deck cards seen, F-6.1)."""
    cid = c.a[1]
    if cid in c.g.market or cid in c.g.peeked:
        return None
    detail = (
        msg("{card} is not in the market nor among the deck cards you saw.", card=cid)
        if c.g.peeked
        else msg("{card} is not in the market.", card=cid)
    )
    return IllegalDecision("card_not_in_market", detail, "F-3.1", pointer + "/card")


# -- lay ---------------------------------------------------------------------------------


def _not_a_space(c: _Asked, pointer: str) -> Refused:
    """F-3.5: a card that is not a space goes to the site, without a position."""
    if c.card.type == "space" or c.a[2] is None:
        return None
    detail = msg(
        "{card} is a {card_type}: it goes to the site, without a position.",
        card=c.a[1],
        card_type=c.card.type,
    )
    return IllegalDecision("not_a_space", detail, "F-3.5", pointer + "/x")


def _position_required(c: _Asked, pointer: str) -> Refused:
    """F-4.3: a space is laid at a position."""
    if c.card.type != "space" or c.a[2] is not None:
        return None
    detail = msg("{card} is a space: give x, y and r.", card=c.a[1])
    return IllegalDecision("position_required", detail, "F-4.3", pointer + "/x")


def _placement(c: _Asked, pointer: str) -> Refused:
    """F-4: where a space may not be laid (building.placement_error gives the clause)."""
    if c.card.type != "space":
        return None
    _, _, x, y, r, _ = c.a
    perr = placement_error(c.g.buildings[c.seat], c.card, x, y, r, c.has("equipe_de_obras"))
    if perr is None:
        return None
    code, clause, detail = perr
    return IllegalDecision(
        code, detail, clause, pointer + ("/r" if code == "invalid_rotation" else "/x")
    )


# -- clone -------------------------------------------------------------------------------


def _no_teorica(c: _Asked, pointer: str) -> Refused:
    """F-6.6: cloning needs the teórica."""
    if c.has("teorica"):
        return None
    detail = msg("Cloning needs the teórica in your work.")
    return IllegalDecision("no_teorica", detail, "F-6.6", pointer + "/type")


def _already_cloned(c: _Asked, pointer: str) -> Refused:
    """F-6.6: a card carries one clone card at most."""
    if c.a[2] not in {t for t, _ in c.w.clones}:
        return None
    detail = msg("{card} already carries a clone card.", card=c.a[2])
    return IllegalDecision("already_cloned", detail, "F-6.6", pointer + "/target")


def _clone_target(c: _Asked, pointer: str) -> Refused:
    """F-6.6: a clone card lies on a face-up concept, project or material of the site."""
    target = c.a[2]
    if target in c.w.site and c.g.cat.cards[target].type in CLONE_TARGET_TYPES:
        return None
    detail = msg("{card} is not a face-up concept, project or material of your site.", card=target)
    return IllegalDecision("clone_target", detail, "F-6.6", pointer + "/target")


# -- convert -----------------------------------------------------------------------------


def _already_converted(c: _Asked, pointer: str) -> Refused:
    """F-R20: a space is converted once."""
    if c.a[2] not in c.w.converted:
        return None
    detail = msg("{card} is already converted.", card=c.a[2])
    return IllegalDecision("already_converted", detail, "F-R20", pointer + "/target")


def _convert_target(c: _Asked, pointer: str) -> Refused:
    """F-R20: a conversion is of a space of the building."""
    if c.a[2] in {p.card for p in c.w.building}:
        return None
    detail = msg("{card} is not a space of your building.", card=c.a[2])
    return IllegalDecision("convert_target", detail, "F-R20", pointer + "/target")


def _no_designer(c: _Asked, pointer: str) -> Refused:
    """F-6.3: a designer de interiores of the site converts."""
    if c.a[1] in c.w.site and c.card.ability == "designer_de_interiores":
        return None
    detail = msg("{card} is not a designer de interiores in your site.", card=c.a[1])
    return IllegalDecision("no_designer", detail, "F-6.3", pointer + "/designer")


def _designer_spent(c: _Asked, pointer: str) -> Refused:
    """F-R20: each designer converts one space."""
    if c.a[1] not in c.w.spent:
        return None
    detail = msg("{card} has already converted a space.", card=c.a[1])
    return IllegalDecision("designer_spent", detail, "F-R20", pointer + "/designer")


def _illegal_decision(c: _Asked, pointer: str) -> Refused:
    """F-3: the last refusal, a decision of the right type that breaks no rule above."""
    detail = msg("That decision is not among the legal options of the pending decision.")
    return IllegalDecision("illegal_decision", detail, "F-3", pointer)


# A decision of a type the pending step does not take, checked first.
WRONG_TYPE: tuple[Row[_Asked], ...] = (
    _bought_and_laid,
    _purchase_must_be_laid,
    _already_bought,
    _wrong_decision_type,
)
# The card must be where the decision says it is laid from (lay and clone).
SOURCE: tuple[Row[_Asked], ...] = (_card_not_in_hand, _card_not_in_market, _card_not_seen)
# Per decision type, its rules in order.
REFUSALS: dict[str, tuple[Row[_Asked], ...]] = {
    "look": (_already_looked, _no_coordenadora, _deck_empty),
    "buy": (_not_for_sale,),
    "lay": (*SOURCE, _not_a_space, _position_required, _placement),
    "clone": (*SOURCE, _no_teorica, _already_cloned, _clone_target),
    "convert": (_already_converted, _convert_target, _no_designer, _designer_spent),
}


def diagnose(g: Game, a: Action, pointer: str) -> IllegalDecision:
    """Why an action is not among the options: the first row of its refusal table that it
    breaks (WRONG_TYPE, then REFUSALS of its type, then _illegal_decision)."""
    c = _Asked(g, a, g.seat, g.works[g.seat])
    rows = (*WRONG_TYPE, *REFUSALS.get(c.kind, ()), _illegal_decision)
    refusal = first_refusal(rows, c, pointer)
    assert refusal is not None  # _illegal_decision always refuses
    return refusal


_PROTOCOL: DecisionProtocol[Game, Action] = DecisionProtocol(
    catalog_type=Catalog,
    load_catalog=load_catalog,
    builtin_catalogs=builtin_catalogs,
    unknown_catalog_clause="F-2.1",
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
