"""The shapes of Fora de Prumo's decisions and events, declared as data (engine/shapes.py).

The decisions' fields are those of the decision-type table (serialize.DECISION_FIELDS), each
with its shape here; the events are those that flow.py emits. openapi.yaml's schemas for
them are generated from these tables (`bash scripts/contract.sh`), and the tests play random
games checking every option and every event against them.
"""

from __future__ import annotations

from typing import get_args

from engine.fora_de_prumo import schema
from engine.fora_de_prumo.serialize import DECISION_FIELDS, STEP_INFO
from engine.shapes import (
    SEAT,
    Contract,
    Kind,
    Schema,
    View,
    closed_object,
    const,
    integer,
    nullable,
    ref,
    string,
)

CARD = ref("ForaDePrumoCardId")
CARDS = ref("ForaDePrumoCards")
SOURCE = ref("ForaDePrumoSource")
_XYR = {"x": integer(), "y": integer(), "r": integer(0, 3)}  # a space's cell and rotation

# The shape of each decision field, whatever its type.
_DECISION_FIELD: dict[str, Schema] = {
    "card": CARD,
    "designer": CARD,
    "target": CARD,
    **_XYR,
    "from": SOURCE,
}

# What each decision type means (its clause first); its optional fields; more constraints.
_DECISIONS: dict[str, tuple[str, tuple[str, ...], Schema]] = {
    "buy": (
        "F-3.1 a market card, or (after a look, F-R19) one of the seen deck cards, into the hand.",
        (),
        {},
    ),
    "look": (
        "F-6.1 / F-R19: with the coordenadora, see the top two deck cards (then buy one of them"
        " or a market card).",
        (),
        {},
    ),
    "skip": ("F-3.1: no purchase this turn.", (), {}),
    "lay": (
        "F-3.3: a site card (no position, F-3.5) or a space at cell (x, y) with rotation r"
        " (quarter turns, F-2.4, F-4.3).",
        ("x", "y", "r", "from"),
        {"dependentRequired": {"x": ["y", "r"], "y": ["x", "r"], "r": ["x", "y"]}},
    ),
    "convert": (
        "F-6.3 / F-R20: a designer de interiores of the site turns the walls of one space of"
        " the building into doors (once per designer).",
        (),
        {},
    ),
    "clone": (
        "F-6.6 / F-R22: with the teórica, a card laid face down on a face-up concept, project"
        " or material of the site (it scores double).",
        ("from",),
        {},
    ),
    "pass": ("F-3.3: no lay and no action this turn.", (), {}),
}

# One per decision type, in the table's order: its fields are the table's.
DECISIONS: dict[str, Kind] = {
    t: Kind(
        _DECISIONS[t][0],
        {f: _DECISION_FIELD[f] for f in fields},
        optional=_DECISIONS[t][1],
        extra=_DECISIONS[t][2],
    )
    for t, fields in DECISION_FIELDS.items()
}

# The decision a state waits for (serialize.pending_json): `kind` names the step (STEP_INFO).
PENDING: Schema = {
    "type": "object",
    "description": "The decision the state waits for: the buy step (F-3.1), the lay step (F-3.3)"
    " or a final turn (F-8.2).",
    "required": ["seat", "kind", "clause", "prompt", "options"],
    "additionalProperties": False,
    "properties": {
        "seat": SEAT,
        "kind": string(enum=[kind for kind, _, _ in STEP_INFO.values()]),
        "clause": string(),
        "prompt": string(),
        "options": {"type": "array", "minItems": 1, "items": ref("ForaDePrumoDecision")},
    },
}

DECISIONS_DESCRIPTION = (
    "One Fora de Prumo decision; every option of /v1/legal-moves is one, accepted unchanged\n"
    "by /v1/resolve. Buy step (F-3.1): `buy`, `look` (coordenadora, F-6.1/F-R19), `skip`.\n"
    "Lay step (F-3.3): `lay` (a site card without position, F-3.5; a space with x, y, r,\n"
    "F-4), `convert` (designer, F-6.3/F-R20), `clone` (teórica, F-6.6/F-R22), `pass`.\n"
    "The final turn (F-8.2) takes the lay-step decisions and `look`, and `lay`/`clone`\n"
    "with `from`.\n"
)

EVENTS_DESCRIPTION = (
    "Something that happened, citing its clause; `decision` is the index of the decision\n"
    "that caused it. In a seat's copy (`events_for`), another seat's private card is left\n"
    "out and `hidden` names the field: the cards it saw (`looked`), a card it bought from\n"
    "the deck (`bought`), its clone card (`cloned`).\n"
)

# Every event flow.py emits; each also has `clause` and, once applied, `decision` (and
# `notation` when asked for): the contract adds them to every event.
EVENTS: dict[str, Kind] = {
    "bought": Kind(
        "F-3.1 (from the market) or F-6.1 (from the deck after a look).",
        {"seat": SEAT, "card": CARD, "from": SOURCE, "hidden": const("card")},
        optional=("card", "hidden"),
    ),
    "looked": Kind(
        "F-6.1 / F-R19: the coordenadora's look at the top two (or one) deck cards.",
        {
            "seat": SEAT,
            "count": integer(1, 2),
            "cards": CARDS | {"maxItems": 2},
            "hidden": const("cards"),
        },
        optional=("cards", "hidden"),
    ),
    "skipped": Kind("No purchase (F-3.1).", {"seat": SEAT}),
    "passed": Kind("No lay and no action (F-3.3).", {"seat": SEAT}),
    "laid": Kind(
        "A site card laid (F-3.5), or a space at (x, y, r) in the building (F-4.3; the first at"
        " the origin, F-R10); `from` in a final turn.",
        {"seat": SEAT, "card": CARD, **_XYR, "from": SOURCE},
        optional=("x", "y", "r", "from"),
        extra={"dependentRequired": {"x": ["y", "r"]}},
    ),
    "converted": Kind("F-6.3 / F-R20.", {"seat": SEAT, "designer": CARD, "target": CARD}),
    "cloned": Kind(
        "F-6.6 / F-R22 (the clone card is face down).",
        {"seat": SEAT, "target": CARD, "card": CARD, "from": SOURCE, "hidden": const("card")},
        optional=("card", "from", "hidden"),
    ),
    "refilled": Kind("F-3.6: the deck's top card turned up into the market.", {"card": CARD}),
    "end_triggered": Kind(
        "The end of the game is triggered: the deck is empty (F-8.1) or every seat passed in"
        " turn (F-R27).",
        {"seat": SEAT, "reason": string(enum=["deck_empty", "passes"])},
    ),
    "final_round": Kind(
        "F-R25: the seats that play one final turn each, in order.",
        {"seats": {"type": "array", "minItems": 1, "maxItems": 4, "items": SEAT}},
    ),
    "game_over": Kind("F-8.4: every work is scored.", {"scores": ref("ForaDePrumoScores")}),
}


# What view.game_view and protocol.finish_view change in the state (StateDoc, SeatDoc): hands,
# the deck, the generator and what other seats saw or laid face down become null, with counts.
VIEW = View(
    "A Fora de Prumo state as one seat sees it (F-1.10, F-R6): other hands, the deck, the\n"
    "generator, cards other seats saw with the coordenadora (or bought from the deck) and\n"
    "other seats' clone cards are null, with counts; `unseen` lists every card the seat\n"
    "cannot place.\n",
    fields={
        "deck": {"type": "null"},
        "deck_count": integer(0),
        "turn": closed_object(
            {
                "seat": SEAT,
                "number": integer(1),
                "step": {"enum": ["buy", "lay", "final", None]},
                "peeked": nullable(CARDS | {"maxItems": 2}, "Only for the seat that looked."),
                "peeked_count": integer(0, 2),
                "bought": nullable(
                    CARD,
                    "null when nothing was bought, or another seat bought a card it saw on the"
                    " deck.",
                ),
                "bought_from": {"enum": ["market", "deck", None]},
            }
        ),
        "rng": {"type": "null"},
        "pending": nullable(
            PENDING
            | {
                "properties": PENDING["properties"]
                | {
                    "options": nullable(
                        {"type": "array", "items": ref("ForaDePrumoDecision")},
                        "null when the decision belongs to another seat.",
                    )
                },
            }
        ),
        "unseen": CARDS,
        "view_of": SEAT,
    },
    seat_fields={
        "hand": nullable(CARDS),
        "hand_count": integer(0),
        "work": closed_object(
            {
                "building": {"type": "array", "items": ref("ForaDePrumoPlacement")},
                "converted": CARDS,
                "site": CARDS,
                "clones": {
                    "type": "array",
                    "items": closed_object(
                        {
                            "target": CARD,
                            "card": nullable(
                                CARD, "null for another seat's clone card (face down)."
                            ),
                        }
                    ),
                },
                "spent": CARDS,
            }
        ),
    },
)


# Its state, catalogs and set-ups are generated from their declarations (schema.py), its
# view from the state's and VIEW.
CONTRACT = Contract(
    prefix="ForaDePrumo",
    decision_union="ForaDePrumoDecision",
    decisions_description=DECISIONS_DESCRIPTION,
    decisions=DECISIONS,
    event_union="ForaDePrumoEvent",
    events_description=EVENTS_DESCRIPTION,
    events=EVENTS,
    pending_name="ForaDePrumoPending",
    pending=PENDING,
    view=VIEW,
    state=[
        ("ForaDePrumoState", schema.StateDoc),
        ("ForaDePrumoCatalogRef", schema.CatalogRefDoc),
        ("ForaDePrumoSeat", schema.SeatDoc),
        ("ForaDePrumoWork", schema.WorkDoc),
        ("ForaDePrumoPlacement", schema.PlacementDoc),
        ("ForaDePrumoCloneCard", schema.CloneDoc),
        ("ForaDePrumoTurn", schema.TurnDoc),
        ("ForaDePrumoFinalRound", schema.FinalRoundDoc),
    ],
    documents={
        "fora-de-prumo set-up": [("ForaDePrumoSetup", schema.SetupDoc)],
        # the catalog and each struct it nests (a card type, an objective)
        "fora-de-prumo catalog": [("ForaDePrumoCatalogDocument", schema.CatalogDoc)]
        + [
            (f"ForaDePrumo{s.__name__}", s)
            for s in (*get_args(schema.AnyCard), *get_args(schema.AnyObjective))
        ],
    },
)
