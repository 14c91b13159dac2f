"""The public, JSON-in JSON-out face of the Architectura engine.

Every function takes and returns plain JSON-compatible data; the input is never mutated.
An illegal decision raises IllegalDecision naming the clause; a bad state raises
InvalidState listing every problem.
"""

from __future__ import annotations

from typing import Any

from engine.architectura.catalog import Catalog, builtin_catalogs, load_catalog
from engine.architectura.city import breaks_three_in_a_row, eligible_cells, protected_against
from engine.architectura.flow import OP_CLAUSE, cost_payable, deciding_seat, options, step
from engine.architectura.model import BLOCKS, Action, Game
from engine.architectura.schema import _Reader
from engine.architectura.scoring import final_scores
from engine.architectura.serialize import (
    DECISION_TYPES,
    game_from_json,
    game_to_json,
    parse_cell,
    pending_json,
)
from engine.architectura.setup import SETUP_KEYS, check_fields
from engine.architectura.setup import new_game as _new_game
from engine.errors import (
    IllegalDecision,
    InvalidState,
    Problem,
    ProblemList,
    SetupError,
    pointer_token,
    short_repr,
    unknown_keys,
)
from engine.protocol import DecisionProtocol
from engine.setup_fields import setup_catalog


def new_game_internal(setup: dict[str, Any]) -> Game:
    """A-1: the game of a set-up, every problem of it listed (SetupError): an unknown field
    (as Fora de Prumo refuses one, F-1) first, then the fields' (game, seats, seed,
    first_seat, variant, colours, replacements);
    a custom catalog that is the set-up's only problem is refused with its own error (as
    beside a state), else its problems are listed under /catalog."""
    if not isinstance(setup, dict):
        raise SetupError("invalid_setup", "the set-up must be an object", "A-1", "")
    problems = ProblemList()  # an object of 100,000 unknown fields costs a count
    unknown_keys(problems, setup, SETUP_KEYS, "", "unknown_field", "set-up ", "A-1")
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
    is given and is not that seat (A-9: decisions belong to their seat)."""
    decider = deciding_seat(g)
    if g.over or decider is None:
        raise IllegalDecision(
            "game_over", "The game is over: no decision can be made.", "A-3.7", pointer
        )
    if seat is not None and seat != decider:
        raise IllegalDecision(
            "not_your_decision",
            f"This decision belongs to seat {decider} ({g.colours[decider]}), not seat {short_repr(seat)}.",
            "A-9",
            pointer,
        )
    return decider


def parse_decision(g: Game, d: Any, pointer: str = "") -> Action:
    """A decision object to an engine action; malformed ones are refused with a reason."""
    require_decider(g, None, pointer)
    if not isinstance(d, dict):
        raise IllegalDecision("malformed_decision", "A decision must be an object.", None, pointer)
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in DECISION_TYPES:
        raise IllegalDecision(
            "unknown_decision_type",
            f"Unknown decision type {short_repr(kind)}.",
            None,
            pointer + "/type",
        )
    if "seat" in d:
        require_decider(g, d["seat"], pointer + "/seat")
    extra = set(d) - {"type", "seat", *DECISION_TYPES[kind]}
    if extra:
        raise IllegalDecision(
            "malformed_decision",
            f"Unexpected field(s) {short_repr(sorted(extra))} for {kind}.",
            None,
            pointer + "/" + pointer_token(min(extra)),
        )
    out: list[Any] = [kind]
    for field in DECISION_TYPES[kind]:
        v = d.get(field)
        fp = f"{pointer}/{field}"
        if field in ("card", "target"):
            if not isinstance(v, str) or v not in g.inst.index:
                raise IllegalDecision(
                    "unknown_card", f"{short_repr(v)} is not a card of this game.", "A-1.3", fp
                )
            out.append(g.inst.index[v])
        elif field == "cell":
            if v is None and kind == "play":
                out.append(-1)
                continue
            r = _Reader()
            cell = parse_cell(r, v, fp, g.n)
            if cell < 0:
                p = r.problems[0]
                raise IllegalDecision("invalid_cell", p.detail, "A-1.2", fp)
            out.append(cell)
        elif field == "steps":
            if not isinstance(v, int) or isinstance(v, bool):
                raise IllegalDecision(
                    "malformed_decision", "steps must be an integer.", "A-7.2", fp
                )
            out.append(v)
    return tuple(out)


def diagnose(g: Game, a: Action, pointer: str) -> IllegalDecision:
    """Why an action is not among the options: the most specific rule it breaks."""
    t = g.tasks[-1]
    seat = t["seat"]
    opts = options(g)
    kinds = sorted({o[0] for o in opts})
    kind = a[0]
    if kind not in kinds:
        return IllegalDecision(
            "wrong_decision_type",
            f"The pending decision accepts {', '.join(kinds)}, not {kind}.",
            "A-3",
            pointer + "/type",
        )
    if kind == "play" and t["k"] == "turn":
        iid, cell = a[1], a[2]
        card = g.card(iid)
        if iid not in g.hands[seat]:
            return IllegalDecision(
                "card_not_in_hand",
                f"{g.name(iid)} is not in your hand.",
                "A-3.2",
                pointer + "/card",
            )
        if card.outside and cell >= 0:
            return IllegalDecision(
                "played_outside_city",
                f"{card.name} is played outside the city (cell null).",
                "A-9",
                pointer + "/cell",
            )
        if not card.outside and cell < 0:
            return IllegalDecision(
                "cell_required",
                f"{card.name} must be played onto a cell.",
                "A-3.2",
                pointer + "/cell",
            )
        if not cost_payable(g, seat, iid):
            return IllegalDecision(
                "cost_cannot_be_paid",
                f"{card.name}'s play cost cannot be paid.",
                "A-3.1c",
                pointer + "/card",
            )
        f = g.fountain[cell]
        if f >= 0 and f != seat:
            return IllegalDecision(
                "fountain_cell",
                "An opponent's Fountain token lies on that cell.",
                "A-4.3",
                pointer + "/cell",
            )
        if cell not in eligible_cells(g, seat):
            return IllegalDecision(
                "cell_not_eligible", _why_not_eligible(g, cell), "A-4.1", pointer + "/cell"
            )
        if breaks_three_in_a_row(g, seat, cell):
            return IllegalDecision(
                "three_in_a_row",
                "With 3 or 4 players you may not play a third consecutive face-up card of your colour in a street.",
                "A-4.2",
                pointer + "/cell",
            )
    if kind in ("rotate", "destroy", "restore", "move", "swap", "remove", "protect"):
        cell = g.locate(a[1])
        if cell >= 0 and g.city[cell][-1][2] and protected_against(g, g.city[cell][-1], seat):
            return IllegalDecision(
                "target_protected",
                f"{g.name(a[1])} is protected against you.",
                "A-6.2",
                pointer + "/target",
            )
        clause = OP_CLAUSE[kind]
        return IllegalDecision(
            "illegal_target",
            f"{g.name(a[1])} is not a legal target of this {kind} "
            "(see the pending decision's options).",
            clause,
            pointer + "/target",
        )
    return IllegalDecision(
        "illegal_decision",
        f"That decision is not among the legal options of the pending {t['k']} decision.",
        "A-3",
        pointer,
    )


def _why_not_eligible(g: Game, cell: int) -> str:
    stack = g.city[cell]
    where = f"[{cell // BLOCKS + 1}, {cell % BLOCKS + 1}]"
    if stack and stack[-1][2]:
        return f"Cell {where} holds a face-up card; only empty or face-down cells are eligible."
    if cell % BLOCKS == 0:
        return f"Cell {where} is block 1 of a street that is not the first street without cards."
    return f"Cell {where} is empty and the cell to its left is empty."


def apply_internal(g: Game, d: Any, pointer: str = "") -> None:
    a = parse_decision(g, d, pointer)
    if a not in options(g):
        raise diagnose(g, a, pointer)
    step(g, a)


_PROTOCOL: DecisionProtocol[Game] = DecisionProtocol(
    catalog_type=Catalog,
    load_catalog=load_catalog,
    builtin_catalogs=builtin_catalogs,
    unknown_catalog_clause="A-10",
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
