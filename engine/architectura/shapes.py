"""The shapes of Architectura's decisions and events, declared as data (engine/shapes.py).

The decisions' fields are those of the decision-type table (serialize.DECISION_TYPES), each
with its shape here; the events are those that flow.py writes into the log. openapi.yaml's
schemas for them are generated from these tables (`bash scripts/contract.sh`), and the tests
play random games checking every option and every event against them.
"""

from __future__ import annotations

from typing import get_args

from engine.architectura import catalog_schema as catalog
from engine.architectura.schema import EntryDoc, SeatDoc, SetupDoc, StateDoc
from engine.architectura.serialize import DECISION_TYPES, KIND
from engine.shapes import (
    SEAT,
    Contract,
    Kind,
    Schema,
    View,
    const,
    integer,
    nullable,
    ref,
    string,
)

CARD = ref("CardName")
CELL = ref("Cell")

# The shape of each decision field, whatever its type (a decision's own shapes override).
_DECISION_FIELD: dict[str, Schema] = {
    "card": CARD,
    "target": CARD,
    "cell": CELL,
    "steps": integer(),
}

# What each decision type means (its clause first), and its fields' shapes where they differ.
_DECISIONS: dict[str, tuple[str, dict[str, Schema]]] = {
    "play": (
        "A-3.2: a card from the hand onto an eligible cell; `cell` null for a card played"
        " outside the city (A-9).",
        {"cell": nullable(CELL)},
    ),
    "play_face_down": ("A-9 Laboratory: a card from the hand face down onto a cell.", {}),
    "obelisk": ("A-3.1a: give this card back to the deck for the Obelisk.", {}),
    "pay": ("A-9: a card removed from the game to pay a play cost.", {}),
    "rotate": ("A-7.2: turn a card of the city by `steps` (+1 or -1).", {}),
    "move": ("A-7.5: move a card of the city onto a cell.", {}),
    "fountain": ("A-9 Fountain: put a Fountain token on a cell.", {}),
    "guesthouse": ("A-9 Guesthouse: the cell chosen.", {}),
    "mulligan": ("A-3.1b: the whole hand to the bottom of the deck, then draw as many.", {}),
    "pass": ("A-3.2: no play this turn.", {}),
    "apply": ("A-6.3: let one's own effect affect one's protected card.", {}),
    "decline": ("A-7 / A-6.3: do not use an optional effect, or keep the card protected.", {}),
    "destroy": ("A-7.3: destroy a card of the city.", {}),
    "restore": ("A-7.4: restore a face-down card.", {}),
    "swap": ("A-7.6: a card whose place to exchange.", {}),
    "remove": ("A-7.7: remove a card of the city from the game.", {}),
    "protect": ("A-6: put a protection token on a card.", {}),
    "manufactory": ("A-9 Manufactory: the card taken back into the hand.", {}),
    "smithy": ("A-9 Smithy: the card whose effect is copied.", {}),
}

# One per decision type, in the table's order: its fields are the table's.
DECISIONS: dict[str, Kind] = {
    t: Kind(
        _DECISIONS[t][0],
        {f: _DECISIONS[t][1].get(f, _DECISION_FIELD[f]) for f in fields},
    )
    for t, fields in DECISION_TYPES.items()
}

DECISIONS_DESCRIPTION = (
    "One Architectura decision; every option of /v1/legal-moves is one, accepted unchanged\n"
    "by /v1/resolve. One schema per `type` (engine/architectura/serialize.py DECISION_TYPES).\n"
)

EVENTS_DESCRIPTION = (
    "Something that happened in an Architectura game, citing its clause; `decision` is the\n"
    "index of the decision that caused it, `notation` that decision in notation (with\n"
    "`notation: true`). In a seat's copy (`events_for`, A-R20) another seat's drawn cards and\n"
    "the card an Obelisk exchange put back are left out and `hidden` names the field.\n"
)

_CARDS_2 = {"type": "array", "minItems": 2, "maxItems": 2, "items": CARD}

# Every event flow.py writes, in the order of the rules; each also has `clause` and, once
# applied, `decision` (and `notation` when asked for): the contract adds them to every event.
EVENTS: dict[str, Kind] = {
    "played": Kind(
        "A-3.2: a card played onto a cell (`value` its value there), or outside the city"
        " (A-9: `cell` null).",
        {"seat": SEAT, "card": CARD, "cell": nullable(CELL), "value": integer()},
        optional=("value",),
    ),
    "played_face_down": Kind(
        "A-9 Laboratory: a card played face down.", {"seat": SEAT, "card": CARD, "cell": CELL}
    ),
    "compared": Kind(
        "A-5: the played card compared with the card to its left, and the outcome for that card.",
        {
            "card": CARD,
            "cell": CELL,
            "left_value": integer(),
            "played_value": integer(),
            "outcome": string(enum=["raise", "lower", "equal", "destroy"]),
        },
    ),
    "rotated": Kind(
        "A-7.2: a card turned by `steps`; `value` is its new value.",
        {"card": CARD, "cell": CELL, "steps": integer(), "value": integer()},
    ),
    "destroyed": Kind(
        "A-7.3: a card turned face down, or put beside its owner's Graveyard (`to`, A-9).",
        {"card": CARD, "cell": CELL, "to": const("graveyard")},
        optional=("to",),
    ),
    "restored": Kind("A-7.4: a face-down card turned face up.", {"card": CARD, "cell": CELL}),
    "removed": Kind(
        "A-7.7, A-3.1c, A-9: a card removed from the game: from the city (`cell`), from a hand"
        " or graveyard (`from`), to pay a cost (`reason` play_cost, `for` the card played) or"
        " as a cost that cannot be paid.",
        {
            "card": CARD,
            "seat": SEAT,
            "cell": CELL,
            "from": string(description="hand or graveyard."),
            "reason": string(description="play_cost or cost_cannot_be_paid."),
            "for": CARD,
        },
        optional=("seat", "cell", "from", "reason", "for"),
    ),
    "moved": Kind(
        "A-7.5: a card moved from one cell to another.", {"card": CARD, "from": CELL, "to": CELL}
    ),
    "swapped": Kind(
        "A-7.6: two top cards exchanged.",
        {"cards": _CARDS_2, "cells": _CARDS_2 | {"items": CELL}},
    ),
    "protected": Kind(
        "A-6: a protection token put on a card (`seat` its owner), or a card's protection"
        " stopping an effect (A-5.6).",
        {"card": CARD, "cell": CELL, "seat": SEAT},
        optional=("seat",),
    ),
    "protection_kept": Kind(
        "A-6.3: the owner kept their card protected from their own effect.",
        {"card": CARD, "cell": CELL},
    ),
    "token_returned": Kind(
        "A-6.4 / A-9: a protection token (its card destroyed, removed or taken back) or a"
        " Fountain token back to its owner.",
        {
            "seat": SEAT,
            "reason": string(description="destroyed, removed, returned_to_hand or fountain."),
            "card": CARD,
            "cell": CELL,
        },
        optional=("card", "cell"),
    ),
    "drew": Kind(
        "A-3.5: cards drawn up to the hand limit (`cards` withheld from other seats: `hidden`).",
        {
            "seat": SEAT,
            "count": integer(1),
            "cards": {"type": "array", "items": CARD},
            "hidden": const("cards"),
        },
        optional=("cards", "hidden"),
    ),
    "mulligan": Kind(
        "A-3.1b: the hand put back and as many cards drawn.", {"seat": SEAT, "count": integer(0)}
    ),
    "obelisk_taken": Kind(
        "A-3.1a: the Obelisk taken from the deck for a card of the hand (`gave`, withheld from"
        " other seats: `hidden`).",
        {"seat": SEAT, "card": CARD, "gave": CARD, "hidden": const("gave")},
        optional=("gave", "hidden"),
    ),
    "hand_limit": Kind("A-7.9: a seat's hand limit changed.", {"seat": SEAT, "limit": integer(1)}),
    "fountain_placed": Kind(
        "A-9 Fountain: a Fountain token put on a cell.", {"seat": SEAT, "cell": CELL}
    ),
    "returned_to_hand": Kind(
        "A-9 Manufactory: a card of the city taken back into the hand.",
        {"seat": SEAT, "card": CARD, "cell": CELL},
    ),
    "copied": Kind(
        "A-9 Smithy: a card's effect copied (`by` the Smithy).",
        {"seat": SEAT, "card": CARD, "by": CARD},
    ),
    "declined": Kind("A-7: an optional effect not used.", {"seat": SEAT}),
    "skipped": Kind(
        "A-3.2 / A-9: a seat with no possible play skips it (`reason` when a Laboratory finds"
        " no card or cell).",
        {"seat": SEAT, "reason": string()},
        optional=("reason",),
    ),
    "passed": Kind("A-3.2: the seat passed.", {"seat": SEAT}),
    "game_over": Kind(
        "A-3.7: the game is over; the final scores (A-8).", {"scores": ref("Scores")}
    ),
}

_CARDS: Schema = {"type": "array", "items": CARD}

# The decision a state waits for (serialize.pending_json): `kind` is one of those of the task
# kinds that ask (serialize.KIND); an effect's `operation`, `source` and `card` when it has them.
PENDING: Schema = {
    "type": "object",
    "description": "The decision an Architectura state waits for.",
    "required": ["seat", "colour", "kind", "clause", "prompt", "options"],
    "additionalProperties": False,
    "properties": {
        "seat": SEAT,
        "colour": string(),
        "kind": string(enum=list(dict.fromkeys(kind for kind, _, _ in KIND.values()))),
        "clause": string(),
        "prompt": string(),
        "operation": string(),
        "source": CARD,
        "card": CARD,
        "options": {"type": "array", "items": ref("Decision")},
    },
}

# What view.game_view and protocol.finish_view change in the state (StateDoc, SeatDoc).
VIEW = View(
    "An Architectura state as one seat sees it (A-R13): other hands and every deck order are\n"
    "null, with counts, and `unseen` lists each seat's cards the viewer cannot place; the\n"
    "generator is null (A-1.6), and so are the options of a decision of another seat.\n",
    fields={
        "rng": {"type": "null"},
        "pending": nullable(
            PENDING
            | {
                "description": "The decision the state waits for; `options` null when it is"
                " another seat's.",
                "properties": PENDING["properties"]
                | {"options": nullable({"type": "array", "items": ref("Decision")})},
            }
        ),
        "view_of": SEAT,
    },
    seat_fields={
        "deck": {"type": "null"},
        "hand": nullable(_CARDS),
        "deck_count": integer(0),
        "hand_count": integer(0),
        "unseen": _CARDS,
    },
)

CONTRACT = Contract(
    prefix="Architectura",
    decision_union="Decision",
    decisions_description=DECISIONS_DESCRIPTION,
    decisions=DECISIONS,
    event_union="Event",
    events_description=EVENTS_DESCRIPTION,
    events=EVENTS,
    pending_name="Pending",
    pending=PENDING,
    state=[("ArchitecturaState", StateDoc), ("Seat", SeatDoc), ("CityEntry", EntryDoc)],
    view=VIEW,
    documents={
        "architectura set-up": [("Setup", SetupDoc)],
        # the catalog and each struct it nests (a card kind, operation, modifier)
        "architectura catalog": [("ArchitecturaCatalogDocument", catalog.CatalogDoc)]
        + [
            (f"Architectura{s.__name__}", s)
            for s in (
                catalog.BasicCard,
                catalog.AdditionalCard,
                catalog.Cost,
                catalog.Selector,
                *get_args(catalog.AnyOp),
                *get_args(catalog.AnyScore),
            )
        ],
    },
)
