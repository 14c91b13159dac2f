"""The public, JSON-in JSON-out face of the Fora de Prumo engine.

Every function takes and returns plain JSON-compatible data; the input is never mutated.
An illegal decision raises IllegalDecision naming the clause and a pointer; a bad state raises
InvalidState listing every problem; a bad set-up raises SetupError.
"""

from __future__ import annotations

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
from engine.fora_de_prumo.catalog import Catalog, builtin_catalogs, load_catalog
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
from engine.protocol import DecisionProtocol
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


def _wrong_type(g: Game, a: Action, pointer: str) -> IllegalDecision | None:
    """A decision of a type the pending step does not take (F-3: buy, then lay)."""
    kind = a[0]
    assert g.step is not None
    if kind in STEP_KINDS[g.step]:
        if g.step == LAY and kind in ("lay", "clone") and a[-1]:
            return IllegalDecision(
                "wrong_decision_type",
                "Only a final turn buys and lays a card in one decision (from).",
                "F-8.2",
                pointer + "/from",
            )
        return None
    if kind == "buy" and g.step == FINAL:
        return IllegalDecision(
            "purchase_must_be_laid",
            "In a final turn a card may be bought only to be laid at once: "
            "send a lay or clone decision with from 'market' or 'deck'.",
            "F-8.2",
            pointer + "/type",
        )
    if kind == "buy" and g.bought is not None:
        return IllegalDecision(
            "already_bought", "At most one card is bought per turn.", "F-R7", pointer + "/type"
        )
    allowed = ", ".join(STEP_KINDS[g.step])
    return IllegalDecision(
        "wrong_decision_type",
        f"The pending {g.step} step takes {allowed}, not {kind}.",
        "F-3.1" if g.step == BUY else "F-3.3",
        pointer + "/type",
    )


def _source_error(g: Game, cid: str, src: str, pointer: str) -> IllegalDecision | None:
    """The card must be where the decision says it is laid from."""
    if src == "" and cid not in g.hands[g.seat]:
        return IllegalDecision(
            "card_not_in_hand", f"{cid} is not in your hand.", "F-3.3", pointer + "/card"
        )
    if src == "market" and cid not in g.market:
        return IllegalDecision(
            "card_not_in_market", f"{cid} is not in the market.", "F-3.1", pointer + "/card"
        )
    if src == "deck" and cid not in g.peeked:
        return IllegalDecision(
            "card_not_seen",
            f"{cid} is not one of the deck cards seen with the coordenadora this turn.",
            "F-R19",
            pointer + "/card",
        )
    return None


def diagnose(g: Game, a: Action, pointer: str) -> IllegalDecision:
    """Why an action is not among the options: the most specific rule it breaks."""
    err = _wrong_type(g, a, pointer)
    if err is not None:
        return err
    kind, seat = a[0], g.seat
    w = g.works[seat]
    cards = g.cat.cards
    if kind == "look":
        if g.peeked:
            return IllegalDecision(
                "already_looked", "You have already looked at the deck this turn.", "F-R19", pointer
            )
        if not has(g, seat, "coordenadora"):
            return IllegalDecision(
                "no_coordenadora",
                "Only the coordenadora in your work lets you look at the deck.",
                "F-6.1",
                pointer + "/type",
            )
        if not g.deck:
            return IllegalDecision("deck_empty", "The deck is empty.", "F-R19", pointer + "/type")
    elif kind == "buy":
        cid = a[1]
        if cid not in g.market and cid not in g.peeked:
            return IllegalDecision(
                "card_not_in_market",
                f"{cid} is not in the market"
                + (" nor among the deck cards you saw." if g.peeked else "."),
                "F-3.1",
                pointer + "/card",
            )
    elif kind == "lay":
        _, cid, x, y, r, src = a
        err = _source_error(g, cid, src, pointer)
        if err is not None:
            return err
        card = cards[cid]
        if card.type != "space" and x is not None:
            return IllegalDecision(
                "not_a_space",
                f"{cid} is a {card.type}: it goes to the site, without a position.",
                "F-3.5",
                pointer + "/x",
            )
        if card.type == "space":
            if x is None:
                return IllegalDecision(
                    "position_required",
                    f"{cid} is a space: give x, y and r.",
                    "F-4.3",
                    pointer + "/x",
                )
            perr = placement_error(
                g.buildings[seat], card, x, y, r, has(g, seat, "equipe_de_obras")
            )
            if perr is not None:
                code, clause, detail = perr
                return IllegalDecision(
                    code, detail, clause, pointer + ("/r" if code == "invalid_rotation" else "/x")
                )
    elif kind == "clone":
        _, cid, target, src = a
        err = _source_error(g, cid, src, pointer)
        if err is not None:
            return err
        if not has(g, seat, "teorica"):
            return IllegalDecision(
                "no_teorica", "Cloning needs the teórica in your work.", "F-6.6", pointer + "/type"
            )
        if target in {t for t, _ in w.clones}:
            return IllegalDecision(
                "already_cloned",
                f"{target} already carries a clone card.",
                "F-6.6",
                pointer + "/target",
            )
        if target not in w.site or cards[target].type not in CLONE_TARGET_TYPES:
            return IllegalDecision(
                "clone_target",
                f"{target} is not a face-up concept, project or material of your site.",
                "F-6.6",
                pointer + "/target",
            )
    elif kind == "convert":
        _, designer, target = a
        if target in w.converted:
            return IllegalDecision(
                "already_converted", f"{target} is already converted.", "F-R20", pointer + "/target"
            )
        if target not in {p.card for p in w.building}:
            return IllegalDecision(
                "convert_target",
                f"{target} is not a space of your building.",
                "F-R20",
                pointer + "/target",
            )
        if designer not in w.site or cards[designer].ability != "designer_de_interiores":
            return IllegalDecision(
                "no_designer",
                f"{designer} is not a designer de interiores in your site.",
                "F-6.3",
                pointer + "/designer",
            )
        if designer in w.spent:
            return IllegalDecision(
                "designer_spent",
                f"{designer} has already converted a space.",
                "F-R20",
                pointer + "/designer",
            )
    return IllegalDecision(
        "illegal_decision",
        "That decision is not among the legal options of the pending decision.",
        "F-3",
        pointer,
    )


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
