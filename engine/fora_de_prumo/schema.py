"""The shape of a Fora de Prumo state document (F-2.7, docs/fora-de-prumo/state.md), declared
once as msgspec structs and read as engine/declared.py reads every document: in one typed
call when well formed, else node by node, every problem listed.

Fields whose check depends on the game (card ids, seats, list lengths bounded by the cards
in use) are `Any` or `list[Any]` here and checked by the reader (serialize.py). Missing
fields are reported in declared order, so the fields are declared in the document's order.
Their shape in the contract is declared beside them (`engine.shapes.shape`): openapi.yaml's
ForaDePrumoState and its parts are generated from these structs (app/contract.py).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from engine.declared import Doc
from engine.setup_fields import by_seats, first_seat_field, seats_field, seed_field
from engine.shapes import SEAT, Schema, const, counted, nullable, ref, shape, string
from engine.text import LINE, TEXT

COORD_LIMIT = 10_000  # far beyond any building of 500 cards; keeps numbers printable


def _int(lo: int, hi: int, clause: str, doc: str) -> Any:
    return msgspec.Meta(ge=lo, le=hi, extra={"clause": clause}, description=doc)


Card = Annotated[Any, shape(ref("ForaDePrumoCardId"))]
Seat = Annotated[Any, shape(SEAT)]


class FdpDoc(Doc, kw_only=True):
    """An object of a Fora de Prumo state: missing fields in declared order, none looked
    for in a value that is no object."""

    sort_missing: ClassVar[bool] = False
    missing_of_non_object: ClassVar[bool] = False


class CatalogRefDoc(FdpDoc, kw_only=True):
    """The catalog a state is played with (F-2.1): a built-in one or the one sent along."""

    id: Annotated[Any, shape(string())]
    hash: Annotated[Any, shape(string())]


class PlacementDoc(FdpDoc, kw_only=True):
    """A space of the building: the cell of its half A and its rotation (F-2.4, F-2.7)."""

    card: Card
    x: Annotated[int, _int(-COORD_LIMIT, COORD_LIMIT, "F-2.4", "column")]
    y: Annotated[int, _int(-COORD_LIMIT, COORD_LIMIT, "F-2.4", "row")]
    r: Annotated[int, _int(0, 3, "F-2.4", "quarter turns")]


class CloneDoc(FdpDoc, kw_only=True):
    """A clone card laid on a concept, project or material of the site (F-6.6)."""

    target: Card
    card: Card


class WorkDoc(FdpDoc, kw_only=True):
    """A work (F-2.7, F-4.1): the building (spaces in the order laid), converted spaces, the
    site (face-up cards, order laid), clone cards on their targets, spent designers."""

    building: list[PlacementDoc]
    converted: list[Card]
    site: list[Card]
    clones: list[CloneDoc]
    spent: list[Card]


class SeatDoc(FdpDoc, kw_only=True):
    """A seat: its hand and its work."""

    hand: list[Card]
    work: WorkDoc


class TurnDoc(FdpDoc, kw_only=True):
    """The turn under way (F-3): its seat, number and step, the deck cards seen (F-R19),
    the card bought (F-3.1)."""

    seat: Seat
    number: Annotated[int, _int(1, 10**9, "F-3", "turns counted from 1")]
    step: Annotated[
        Any, shape({"enum": ["buy", "lay", "final", None]}, "null once the game is over.")
    ]
    peeked: Annotated[
        list[Card],
        shape({"maxItems": 2}, "The deck cards seen with the coordenadora this turn (F-R19)."),
    ]
    bought: Annotated[Any, shape(nullable(ref("ForaDePrumoCardId")), "The card bought (F-R7).")]


class FinalRoundDoc(FdpDoc, kw_only=True):
    """The final round (F-8.1, F-R25): who triggered it, the seats still to play."""

    triggered_by: Seat
    remaining: Annotated[list[Seat], shape({"maxItems": 4})]


class StateDoc(FdpDoc, kw_only=True):
    """The whole Fora de Prumo game (docs/state.md). Send it back unchanged with the next request."""

    # A Fora de Prumo state, as `game_to_json` writes it.
    game: Annotated[Any, shape(const("fora-de-prumo"))]
    rules_version: Annotated[Any, shape(string())]
    catalog: CatalogRefDoc
    market_size: Annotated[int, _int(4, 6, "F-1.7", "cards of the market")]
    first_seat: Seat
    seats: Annotated[list[SeatDoc], counted({"minItems": 2, "maxItems": 4})]
    deck: Annotated[list[Card], shape({}, "Top first.")]
    market: Annotated[list[Card], shape({}, "In the order turned up (F-1.7).")]
    turn: TurnDoc
    passes: Annotated[
        Any, shape({"type": "integer", "minimum": 0, "maximum": 3}, "Complete passes (F-R27).")
    ]
    final_round: Annotated[
        FinalRoundDoc | None,
        shape({}, "F-8.1 / F-R25: null until the end is triggered (then who and who is left)."),
    ]
    pending: Annotated[Any, shape(nullable(ref("ForaDePrumoPending")))] = None
    rng: Annotated[Any, shape(string(pattern="^[0-9a-f]{16}$"), "The shuffles' generator (F-1.9).")]
    game_over: bool
    scores: Annotated[Any, shape(nullable(ref("ForaDePrumoScores")))] = None


STATE_FIELDS = StateDoc.__struct_fields__
WORK_FIELDS = WorkDoc.__struct_fields__
TURN_FIELDS = TurnDoc.__struct_fields__


# -- the catalog (F-2.1, F-2.8) ------------------------------------------------------------
# A catalog that converts in one call is well formed; what no declaration says (a space's one
# or four distinct suits and its door, `printed` naming the card's own fields, distinct card
# ids) is checked by catalog.py, which also lists every problem of one that does not convert.

Suit = Literal["exteriores", "conforto", "circulacoes", "atividades"]
CardType = Literal["space", "material", "person", "concept", "project"]
Ability = Literal[
    "coordenadora",
    "engenheiro",
    "designer_de_interiores",
    "paisagista",
    "equipe_de_obras",
    "teorica",
    "urbanista",
    "arquiteta",
    "estagiario",
]
# Their shapes in the contract: named components, written by hand (the scores name them too).
SuitName = Annotated[Suit, shape(ref("ForaDePrumoSuit"))]
AbilityName = Annotated[Ability, shape(ref("ForaDePrumoAbility"))]
CARD_ID = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\Z"
CATALOG_ID = r"^[a-z][a-z0-9_-]{0,63}\Z"
Text = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=LINE)]
Number = Annotated[int, msgspec.Meta(ge=0, le=1000)]


class Objective(msgspec.Struct, forbid_unknown_fields=True, tag_field="measure"):
    """A concept card's objective (F-7), the measure it compares between works."""


class SpacesObjective(Objective, tag="spaces"):
    suit: SuitName | msgspec.UnsetType = msgspec.UNSET


class SpaceSuitsObjective(Objective, tag="space_suits"):
    pass


class CardsObjective(Objective, tag="cards"):
    type: CardType


class ConnectionsObjective(Objective, tag="connections"):
    pass


class QualifiedObjective(Objective, tag="qualified"):
    suit: SuitName | msgspec.UnsetType = msgspec.UNSET


class QualifiedTypesObjective(Objective, tag="qualified_types"):
    pass


class StreetDoorsObjective(Objective, tag="street_doors"):
    pass


class PatioCellsObjective(Objective, tag="patio_cells"):
    pass


AnyObjective = (
    SpacesObjective
    | SpaceSuitsObjective
    | CardsObjective
    | ConnectionsObjective
    | QualifiedObjective
    | QualifiedTypesObjective
    | StreetDoorsObjective
    | PatioCellsObjective
)


class CardDoc(msgspec.Struct, forbid_unknown_fields=True, tag_field="type", kw_only=True):
    """The fields of every card (F-2.1); its `type` says which others it has."""

    id: Annotated[str, msgspec.Meta(pattern=CARD_ID), shape(ref("ForaDePrumoCardId"))]
    name: Text
    gloss: Text
    phase: Annotated[int, msgspec.Meta(ge=1, le=3)]
    min_players: Annotated[int, msgspec.Meta(ge=1, le=4)]
    printed: Annotated[
        list[str],
        msgspec.Meta(max_length=16, description="The fields the published card prints (F-10)."),
    ] = []


class SpaceCard(CardDoc, tag="space", kw_only=True):
    """A space card (F-2.2, F-2.3): one suit, or all four (a joker); six slots, at least one
    door."""

    suits: Annotated[
        list[SuitName], msgspec.Meta(min_length=1, max_length=4), shape({"uniqueItems": True})
    ]
    slots: Annotated[
        str,
        msgspec.Meta(
            pattern=r"^[WDGPBY]{6}\Z",
            description="F-2.5: the six slots (W wall, D door, G P B Y the suits' symbols).",
        ),
    ]


class MaterialCard(CardDoc, tag="material", kw_only=True):
    """A material card (F-2.1): its suit and value."""

    suit: SuitName
    value: Number


class PersonCard(CardDoc, tag="person", kw_only=True):
    """A person card (F-2.1): its ability (F-6)."""

    ability: AbilityName


class ConceptCard(CardDoc, tag="concept", kw_only=True):
    """A concept card (F-2.1): its objective (F-7) and points."""

    objective: AnyObjective
    points: Number


class ProjectCard(CardDoc, tag="project", kw_only=True):
    """A project card (F-2.1): its value."""

    value: Number


AnyCard = SpaceCard | MaterialCard | PersonCard | ConceptCard | ProjectCard


class CatalogDoc(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A Fora de Prumo catalog document (F-2.1, F-2.8, F-10; docs/catalog.md), checked strictly by the engine."""

    format: Literal["fora-de-prumo-catalog/1"]
    id: Annotated[str, msgspec.Meta(pattern=CATALOG_ID)]
    name: Text
    provenance: Annotated[
        str,
        msgspec.Meta(
            max_length=10_000,
            pattern=TEXT,
            description="What the published text prints and what is reconstructed (F-10).",
        ),
    ] = ""
    cards: Annotated[list[AnyCard], msgspec.Meta(min_length=1, max_length=500)]


class SetupDoc(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A Fora de Prumo set-up (F-1), read by its engine (`game` is required): `seats` left
    out is 422 `missing_field` (F-1.1); `seed` left out is chosen at random and written in
    the state's history (F-1.9); a bad value 422
    `invalid_seat_count` (F-1.1), `invalid_seed` (F-1.9), `invalid_first_seat` (F-R5),
    `invalid_market_size` (F-1.7), `unknown_catalog` (F-2.1) or `invalid_catalog`; an
    unknown field 422 `unknown_field` (F-1); more than 100 of them, 400 `invalid_request`
    (refused unread, as in every request)."""

    # One that converts has no problem in its own fields but perhaps `first_seat` (a seat of
    # the game: F-R5) and `seed` (below 2^64: msgspec bounds integers within 64 bits); its
    # catalog is read by the caller. One that does not is read field by field (setup.py).
    # In the contract `game` is required (it tells the games' set-ups apart: GameSetup), and
    # first_seat is below seats (F-R5).
    contract_extra: ClassVar[Schema] = {
        "required": ["game", "seats"],
        "allOf": [by_seats(n, {"properties": {"first_seat": {"maximum": n - 1}}}) for n in (2, 3)],
    }

    game: Literal["fora-de-prumo"] = "fora-de-prumo"
    seats: Annotated[int, seats_field("F-1.1")]
    # when absent, one is chosen at random and written in the set-up (engine.setup_fields.seeded)
    seed: Annotated[int, seed_field("F-1.9")] | msgspec.UnsetType = msgspec.UNSET
    first_seat: Annotated[int, first_seat_field("F-R5")] = 0
    market_size: Annotated[
        int,
        msgspec.Meta(
            ge=4,
            le=6,
            extra={"clause": "F-1.7"},
            description="F-1.7: the market variants (4 hard, 6 easy).",
        ),
    ] = 5
    # a built-in catalog's id, or a catalog document (F-2.1)
    catalog: Annotated[str | dict[str, Any], shape(ref("ForaDePrumoCatalogSpec"))] = "reference"


# Every untrusted document of the game, declared: for the contract (msgspec.json.schema).
DOCUMENTS: dict[str, type[msgspec.Struct]] = {
    "state": StateDoc,
    "setup": SetupDoc,
    "catalog": CatalogDoc,
}
