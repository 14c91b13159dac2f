"""The public, JSON-in JSON-out face of the Fora de Prumo engine.

Every function takes and returns plain JSON-compatible data; the input is never mutated.
An illegal decision raises IllegalDecision naming the clause and a pointer; a bad state raises
InvalidState listing every problem; a bad set-up raises SetupError.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
    brief,
    game_from_json,
    game_to_json,
    is_int,
    pending_json,
)
from engine.fora_de_prumo.setup import check_setup
from engine.fora_de_prumo.setup import new_game as _new_game
from engine.fora_de_prumo.work import Work
from engine.protocol import DecisionProtocol
from engine.refusals import Refusal, Row, always, first_refusal
from engine.setup_fields import setup_catalog


def new_game_internal(setup: dict[str, Any]) -> Game:
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
            "game_over", "The game is over: no decision can be made.", "F-8.4", pointer
        )
    if seat is not None and (not is_int(seat) or seat != decider):
        raise IllegalDecision(
            "not_your_decision",
            f"This decision belongs to seat {decider}, not seat {brief(seat)}.",
            "F-3",
            pointer,
        )
    return decider


def _card(g: Game, v: Any, p: str) -> str:
    if not isinstance(v, str) or v not in g.cat.cards:
        raise IllegalDecision("unknown_card", f"{brief(v)} is not a card of this game.", "F-2.1", p)
    if g.cat.cards[v].min_players > g.n:
        raise IllegalDecision("unknown_card", f"{v} is not used with {g.n} players.", "F-1.3", p)
    return v


def parse_decision(g: Game, d: Any, pointer: str = "") -> Action:
    """A decision object to an engine action; malformed ones are refused with a reason."""
    require_decider(g, None, pointer)
    if not isinstance(d, dict):
        raise IllegalDecision("malformed_decision", "A decision must be an object.", "F-3", pointer)
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in DECISION_FIELDS:
        raise IllegalDecision(
            "malformed_decision",
            f"Unknown decision type {brief(kind)}; known: {', '.join(DECISION_FIELDS)}.",
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
            f"Unexpected field {brief(first)} for a {kind} decision.",
            "F-2.7",
            f"{pointer}/{pointer_token(first)}",
        )
    src = d.get("from", "")
    if "from" in d and src not in SOURCES:
        raise IllegalDecision(
            "malformed_decision", "from must be 'market' or 'deck'.", "F-8.2", pointer + "/from"
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
                    f"{k} must be an integer (a space's position, F-2.4), not {brief(v)}.",
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

    def has(self, ability: str) -> bool:
        return has(self.g, self.seat, ability)


Rule = Refusal[_Asked]  # a row of this game's refusal tables


def _takes(c: _Asked) -> bool:
    """F-3: the pending step takes a decision of this type (STEP_KINDS)."""
    assert c.g.step is not None
    return c.kind in STEP_KINDS[c.g.step]


def _placement(c: _Asked, pointer: str) -> IllegalDecision | None:
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


def _wrong_type_detail(c: _Asked) -> str:
    assert c.g.step is not None
    return f"The pending {c.g.step} step takes {', '.join(STEP_KINDS[c.g.step])}, not {c.kind}."


# A decision of a type the pending step does not take (F-3: buy, then lay), checked first.
WRONG_TYPE: tuple[Rule, ...] = (
    Rule(
        "wrong_decision_type",
        "F-8.2",
        "/from",
        lambda c: c.g.step == LAY and c.kind in ("lay", "clone") and bool(c.a[-1]),
        lambda c: "Only a final turn buys and lays a card in one decision (from).",
    ),
    Rule(
        "purchase_must_be_laid",
        "F-8.2",
        "/type",
        lambda c: not _takes(c) and c.kind == "buy" and c.g.step == FINAL,
        lambda c: (
            "In a final turn a card may be bought only to be laid at once: "
            "send a lay or clone decision with from 'market' or 'deck'."
        ),
    ),
    Rule(
        "already_bought",
        "F-R7",
        "/type",
        lambda c: not _takes(c) and c.kind == "buy" and c.g.bought is not None,
        lambda c: "At most one card is bought per turn.",
    ),
    Rule(
        "wrong_decision_type",
        "F-3.1",
        "/type",
        lambda c: not _takes(c) and c.g.step == BUY,
        _wrong_type_detail,
    ),
    Rule("wrong_decision_type", "F-3.3", "/type", lambda c: not _takes(c), _wrong_type_detail),
)
# The card must be where the decision says it is laid from (lay and clone).
SOURCE: tuple[Rule, ...] = (
    Rule(
        "card_not_in_hand",
        "F-3.3",
        "/card",
        lambda c: c.a[-1] == "" and c.a[1] not in c.g.hands[c.seat],
        lambda c: f"{c.a[1]} is not in your hand.",
    ),
    Rule(
        "card_not_in_market",
        "F-3.1",
        "/card",
        lambda c: c.a[-1] == "market" and c.a[1] not in c.g.market,
        lambda c: f"{c.a[1]} is not in the market.",
    ),
    Rule(
        "card_not_seen",
        "F-R19",
        "/card",
        lambda c: c.a[-1] == "deck" and c.a[1] not in c.g.peeked,
        lambda c: f"{c.a[1]} is not one of the deck cards seen with the coordenadora this turn.",
    ),
)
# Per decision type, its rules in order.
REFUSALS: dict[str, tuple[Row[_Asked], ...]] = {
    "look": (
        Rule(
            "already_looked",
            "F-R19",
            "",
            lambda c: bool(c.g.peeked),
            lambda c: "You have already looked at the deck this turn.",
        ),
        Rule(
            "no_coordenadora",
            "F-6.1",
            "/type",
            lambda c: not c.has("coordenadora"),
            lambda c: "Only the coordenadora in your work lets you look at the deck.",
        ),
        Rule(
            "deck_empty", "F-R19", "/type", lambda c: not c.g.deck, lambda c: "The deck is empty."
        ),
    ),
    "buy": (
        Rule(
            "card_not_in_market",
            "F-3.1",
            "/card",
            lambda c: c.a[1] not in c.g.market and c.a[1] not in c.g.peeked,
            lambda c: (
                f"{c.a[1]} is not in the market"
                + (" nor among the deck cards you saw." if c.g.peeked else ".")
            ),
        ),
    ),
    "lay": (
        *SOURCE,
        Rule(
            "not_a_space",
            "F-3.5",
            "/x",
            lambda c: c.card.type != "space" and c.a[2] is not None,
            lambda c: f"{c.a[1]} is a {c.card.type}: it goes to the site, without a position.",
        ),
        Rule(
            "position_required",
            "F-4.3",
            "/x",
            lambda c: c.card.type == "space" and c.a[2] is None,
            lambda c: f"{c.a[1]} is a space: give x, y and r.",
        ),
        _placement,
    ),
    "clone": (
        *SOURCE,
        Rule(
            "no_teorica",
            "F-6.6",
            "/type",
            lambda c: not c.has("teorica"),
            lambda c: "Cloning needs the teórica in your work.",
        ),
        Rule(
            "already_cloned",
            "F-6.6",
            "/target",
            lambda c: c.a[2] in {t for t, _ in c.w.clones},
            lambda c: f"{c.a[2]} already carries a clone card.",
        ),
        Rule(
            "clone_target",
            "F-6.6",
            "/target",
            lambda c: (
                c.a[2] not in c.w.site or c.g.cat.cards[c.a[2]].type not in CLONE_TARGET_TYPES
            ),
            lambda c: f"{c.a[2]} is not a face-up concept, project or material of your site.",
        ),
    ),
    "convert": (
        Rule(
            "already_converted",
            "F-R20",
            "/target",
            lambda c: c.a[2] in c.w.converted,
            lambda c: f"{c.a[2]} is already converted.",
        ),
        Rule(
            "convert_target",
            "F-R20",
            "/target",
            lambda c: c.a[2] not in {p.card for p in c.w.building},
            lambda c: f"{c.a[2]} is not a space of your building.",
        ),
        Rule(
            "no_designer",
            "F-6.3",
            "/designer",
            lambda c: c.a[1] not in c.w.site or c.card.ability != "designer_de_interiores",
            lambda c: f"{c.a[1]} is not a designer de interiores in your site.",
        ),
        Rule(
            "designer_spent",
            "F-R20",
            "/designer",
            lambda c: c.a[1] in c.w.spent,
            lambda c: f"{c.a[1]} has already converted a space.",
        ),
    ),
}
# The last refusal: a decision of the right type that breaks no rule above (F-3).
NOT_AN_OPTION: Rule = Rule(
    "illegal_decision",
    "F-3",
    "",
    always,
    lambda c: "That decision is not among the legal options of the pending decision.",
)


def diagnose(g: Game, a: Action, pointer: str) -> IllegalDecision:
    """Why an action is not among the options: the first row of its refusal table that it
    breaks (WRONG_TYPE, then REFUSALS of its type, then NOT_AN_OPTION)."""
    c = _Asked(g, a, g.seat, g.works[g.seat])
    rows: tuple[Row[_Asked], ...] = (*WRONG_TYPE, *REFUSALS.get(c.kind, ()), NOT_AN_OPTION)
    refusal = first_refusal(rows, c, pointer)
    assert refusal is not None  # NOT_AN_OPTION always refuses
    return refusal


def apply_internal(g: Game, d: Any, pointer: str = "") -> None:
    a = parse_decision(g, d, pointer)
    if a not in options(g):
        raise diagnose(g, a, pointer)
    step(g, a)


_PROTOCOL: DecisionProtocol[Game] = DecisionProtocol(
    catalog_type=Catalog,
    load_catalog=load_catalog,
    builtin_catalogs=builtin_catalogs,
    unknown_catalog_clause="F-2.1",
    read_state=game_from_json,
    write_state=game_to_json,
    pending_json=pending_json,
    new_game_internal=new_game_internal,
    apply_internal=apply_internal,
    final_scores=final_scores,
)
# The shared decision protocol (engine/protocol.py) gives the rest of the JSON face.
get_catalog = _PROTOCOL.get_catalog
load = _PROTOCOL.load
new_game = _PROTOCOL.new_game
legal_decisions = _PROTOCOL.legal_decisions
apply = _PROTOCOL.apply
apply_all = _PROTOCOL.apply_all
score = _PROTOCOL.score
replay = _PROTOCOL.replay
returns = _PROTOCOL.returns
