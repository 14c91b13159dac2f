"""The shape of a state document (docs/state.md), declared once as msgspec structs.

A well-formed state converts in one call (`msgspec.convert`, in C): objects, unknown and
missing fields, booleans and fixed ranges are checked there. Only when that fails is the
document walked node by node against the same declarations (engine/declared.py), listing
every problem with its pointer and putting a safe stand-in for each bad value, so the
reader's checks of meaning (serialize.py) run on the same typed nodes either way.

Fields whose check depends on the game (cards, cells, seats, lengths bounded by the number
of cards) are `Any` or `list[Any]` here and checked by the reader. Their shape in the contract
is declared beside them (`engine.shapes.shape`: JSON Schema that msgspec only writes, never checks), and
openapi.yaml's ArchitecturaState, Seat and CityEntry are generated from these structs
(app/contract.py); a docstring is its struct's description there.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from engine.architectura.catalog_schema import CatalogDoc
from engine.architectura.model import BLOCKS, RULES_VERSION, TOKENS, VARIANTS
from engine.declared import Doc
from engine.setup_fields import by_seats, first_seat_field, seats_field, seed_field
from engine.shapes import SEAT, Schema, const, counted, integer, nullable, ref, shape, string

GAME = "architectura"


Card = Annotated[Any, shape(ref("CardName"))]
_OBJECT: Schema = {"type": "object", "additionalProperties": False}


class SeatDoc(Doc):
    absent = {"replacements": {}}
    colour: Annotated[Any, shape(string())]
    replacements: Annotated[Any, shape({"type": "object", "additionalProperties": string()})]
    deck: Annotated[list[Card], shape({}, "Top first.")]
    hand: list[Card]
    tokens: Annotated[int, msgspec.Meta(ge=0, le=TOKENS, extra={"clause": "A-6.1"})]
    hand_limit: Annotated[int, msgspec.Meta(ge=1, le=12, extra={"clause": "A-7.9"})]
    mulligan_used: bool
    first_turn_taken: bool
    outside: list[Card]
    graveyard: list[Card]
    removed: list[Card]


class EntryDoc(Doc):
    # A card in the city: every value is checked by the reader, once the card is known.
    report_missing = False
    card: Card
    orientation: Annotated[
        Any, shape(integer(0, 3), "Index into the card's ascending values (A-2.1).")
    ]
    face_up: Annotated[Any, shape({"type": "boolean"})]
    token: Annotated[
        Any, shape({"type": "boolean"}, "One of the owner's protection tokens lies on it (A-6).")
    ]
    # written on top cards; checked against the city when given
    value: Annotated[
        Any,
        shape(
            {"type": ["integer", "null"]},
            "The current value (top card only; null when face down, A-2).",
        ),
    ] = msgspec.UNSET


_STREET = Annotated[list[list[EntryDoc]], counted({"minItems": BLOCKS, "maxItems": BLOCKS})]
_FOUNTAIN = _OBJECT | {
    "required": ["cell", "seat"],
    "properties": {"cell": ref("Cell"), "seat": SEAT},
}


class StateDoc(Doc):
    """The whole Architectura game (docs/state.md). Send it back unchanged with the next request."""

    # The top level; what only the reader can check is read from the document itself.
    absent = {"game": GAME, "rules_version": RULES_VERSION, "fountains": []}
    game: Annotated[Any, shape(const(GAME))]
    rules_version: Annotated[Any, shape(string())]
    catalog: Annotated[
        Any,
        shape(
            _OBJECT | {"required": ["id", "hash"], "properties": {"id": string(), "hash": string()}}
        ),
    ]
    variant: Annotated[Any, shape(string(enum=list(VARIANTS)))]
    seats: Annotated[list[SeatDoc], counted({"minItems": 2, "maxItems": 4})]
    city: Annotated[
        list[_STREET],
        counted(
            {"minItems": 2, "maxItems": 4},
            f"One street per seat, {BLOCKS} cells per street, each cell a stack (bottom first).",
        ),
    ]
    fountains: Annotated[Any, shape({"type": "array", "items": _FOUNTAIN})]
    turn: Annotated[
        Any,
        shape(
            _OBJECT
            | {"required": ["seat", "number"], "properties": {"seat": SEAT, "number": integer(0)}}
        ),
    ]
    resolving: Annotated[
        Any,
        shape(
            {
                "type": "array",
                "items": {"type": "object", "required": ["k"], "properties": {"k": string()}},
            },
            "The rule steps still to run (last = current); copy them from the last response.",
        ),
    ]
    rng: Annotated[Any, shape(string(pattern="^[0-9a-f]{16}$"), "The shuffles' generator (A-1.6).")]
    game_over: bool
    pending: Annotated[Any, shape(nullable(ref("Pending")))] = None
    scores: Annotated[Any, shape(nullable(ref("Scores")))] = None


class SetupDoc(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """An Architectura set-up (A-1), read by its engine: `seats` left out is 422
    `missing_field` (A-1.1); `seed` left out is chosen at random and written in the state's
    history (A-1.6); a bad value 422 `invalid_seat_count` (A-1.1),
    `invalid_seed` (A-1.6), `invalid_first_seat` (A-1.4), `invalid_variant` (A-1.5),
    `invalid_colours` (A-1.1), `invalid_replacements` / `illegal_replacement` /
    `replacements_in_basic_game` (A-1.5), `unknown_catalog` (A-10) or `invalid_catalog`;
    an unknown field 422 `unknown_field` (A-1); more than 100 of them, 400
    `invalid_request` (refused unread, as in every request)."""

    # One that converts has no problem in its own fields but perhaps `first_seat` (a seat of
    # the game) and `seed` (below 2^64: msgspec bounds integers within 64 bits); its
    # colours and replacements are checked against its catalog (setup.py). One that does not
    # is read field by field. In the contract: first_seat below seats, one colour
    # and at most one replacement map per seat, and the basic game (the
    # default) replaces nothing.
    contract_extra: ClassVar[Schema] = {
        "allOf": [
            by_seats(
                2,
                {
                    "properties": {
                        "first_seat": {"maximum": 1},
                        "colours": {"maxItems": 2},
                        "replacements": {"maxItems": 2},
                    }
                },
            ),
            by_seats(
                3,
                {
                    "properties": {
                        "first_seat": {"maximum": 2},
                        "colours": {"minItems": 3, "maxItems": 3},
                        "replacements": {"maxItems": 3},
                    }
                },
            ),
            {
                "if": {
                    "not": {
                        "required": ["variant"],
                        "properties": {"variant": {"const": "advanced"}},
                    }
                },
                "then": {"properties": {"replacements": {"items": {"maxProperties": 0}}}},
            },
            by_seats(4, {"properties": {"colours": {"minItems": 4}}}),
        ]
    }

    game: Annotated[
        Literal["architectura"],
        msgspec.Meta(description="Optional; Architectura is the default game."),
    ] = "architectura"
    seats: Annotated[int, seats_field("A-1.1")]
    # when absent, one is chosen at random and written in the set-up (engine.setup_fields.seeded)
    seed: Annotated[int, seed_field("A-1.6")] | msgspec.UnsetType = msgspec.UNSET
    variant: Annotated[Literal["basic", "advanced"], msgspec.Meta(description="A-1.5")] = "basic"
    first_seat: Annotated[int, first_seat_field("A-1.4")] = 0
    # bounded, so that a huge list costs no conversion: refused by setup.py unread
    colours: (
        Annotated[
            list[str],
            msgspec.Meta(
                max_length=4,
                description="The seats' colours, one per seat, distinct, in seat order (default"
                " the catalog's first ones); each one of the catalog's four.",
                extra_json_schema={"minItems": 2, "uniqueItems": True},
            ),
        ]
        | msgspec.UnsetType
    ) = msgspec.UNSET
    # at most one replacement per basic card (a deck has 12, A-1.3)
    replacements: Annotated[
        list[Annotated[dict[str, str], msgspec.Meta(max_length=12)]],
        msgspec.Meta(
            max_length=4,
            description="Advanced game only, one object per seat mapping an additional card to"
            " the basic card it replaces (A-1.5).",
        ),
    ] = []
    # a built-in catalog's id, or a catalog document
    catalog: Annotated[str | dict[str, Any], shape(ref("CatalogSpec"))] = "reference"


# Every untrusted document of the game, declared: for the contract (msgspec.json.schema).
DOCUMENTS: dict[str, type[msgspec.Struct]] = {
    "state": StateDoc,
    "setup": SetupDoc,
    "catalog": CatalogDoc,
}
