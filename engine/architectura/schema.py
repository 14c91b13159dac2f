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

from typing import Annotated, Any, Literal

import msgspec

from engine.architectura.catalog_schema import CatalogDoc
from engine.architectura.model import BLOCKS, RULES_VERSION, TOKENS, VARIANTS
from engine.declared import Doc
from engine.shapes import SEAT, Schema, const, integer, nullable, ref, shape, string

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


_STREET = Annotated[list[list[EntryDoc]], shape({"minItems": BLOCKS, "maxItems": BLOCKS})]
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
    seats: Annotated[list[SeatDoc], shape({"minItems": 2, "maxItems": 4})]
    city: Annotated[
        list[_STREET],
        shape(
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
    """An Architectura set-up (A-1). One that converts has no problem in its own fields
    but perhaps `first_seat` (a seat of the game: A-1.4) and `seed` (below 2^64: msgspec
    bounds integers within 64 bits); its colours and replacements are checked against its
    catalog (setup.py). One that does not is read field by field."""

    game: Literal["architectura"] = "architectura"
    seats: Annotated[int, msgspec.Meta(ge=2, le=4, extra={"clause": "A-1.1"})]
    seed: Annotated[int, msgspec.Meta(ge=0, extra={"clause": "A-1.6"})] | msgspec.UnsetType = (
        msgspec.UNSET
    )
    """below 2^64 (msgspec bounds an integer within 64 bits); when absent, one is chosen at
    random and written in the set-up (engine.setup_fields.seeded)"""
    variant: Literal["basic", "advanced"] = "basic"
    first_seat: Annotated[int, msgspec.Meta(ge=0, le=3, extra={"clause": "A-1.4"})] = 0
    # bounded, so that a huge list costs no conversion: refused by setup.py unread
    colours: Annotated[list[str], msgspec.Meta(max_length=4)] | msgspec.UnsetType = msgspec.UNSET
    """the seats' colours, in seat order (A-1.1); the catalog's first ones by default"""
    replacements: Annotated[
        list[Annotated[dict[str, str], msgspec.Meta(max_length=12)]], msgspec.Meta(max_length=4)
    ] = []
    """per seat, {additional card: basic card it replaces} (A-1.5): at most one per basic
    card (a deck has 12, A-1.3)"""
    catalog: str | dict[str, Any] = "reference"
    """a built-in catalog's id, or a catalog document (A-10)"""


# Every untrusted document of the game, declared: for the contract (msgspec.json.schema).
DOCUMENTS: dict[str, type[msgspec.Struct]] = {
    "state": StateDoc,
    "setup": SetupDoc,
    "catalog": CatalogDoc,
}
