"""The shape of an Architectura card catalog (A-10, docs/catalog.md), declared once as
msgspec structs: card kinds, operations and end-of-game modifiers are tagged unions (by
`kind`, `op`, `score`). A catalog that converts in one call is well formed; what no
declaration says (values ascending, a face given one way only, distinct colours and cost
zones and passives, which face an operation targets, twelve basic cards, the cards a card
names) is checked by catalog.py, which also lists every problem of one that does not convert.

Kept out of catalog.py, which is compiled (scripts/compile.py): msgspec builds these classes
itself, in C.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from engine.text import LINE, TEXT

ID = r"^[a-z][a-z0-9_]{0,39}\Z"
FORMULA = r"^(X|No\.)([+-][0-9]{1,2})?\Z"
DEFAULT_COLOURS = ["blue", "green", "yellow", "red"]
Id = Annotated[str, msgspec.Meta(pattern=ID)]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=100, pattern=LINE)]
LongText = Annotated[str, msgspec.Meta(min_length=1, max_length=2000, pattern=TEXT)]
Value = Annotated[int, msgspec.Meta(ge=0, le=99)]
Unset = msgspec.UnsetType
UNSET = msgspec.UNSET


class Strict(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class Selector(Strict, kw_only=True):
    """Which top cards of the city an operation picks or a modifier counts (A-7.1)."""

    where: Literal["adjacent", "street", "city"] = "city"
    owner: Literal["any", "own"] = "any"
    face: Literal["up", "down"] = "up"
    value: Literal["lower_than_source"] | None = None
    card: Id | None = None


class Op(Strict, tag_field="op", kw_only=True):
    """One operation of an on-play effect (A-7)."""

    may: bool = False
    count: Annotated[int, msgspec.Meta(ge=0, le=8)] | Literal["all"] = 1
    steps: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1
    per_owner: bool = False


class TargetedOp(Op, kw_only=True):
    target: Selector = msgspec.field(default_factory=Selector)


class RotateOp(TargetedOp, tag="rotate", kw_only=True):
    pass


class DestroyOp(TargetedOp, tag="destroy", kw_only=True):
    pass


class RestoreOp(TargetedOp, tag="restore", kw_only=True):
    pass


class MoveOp(TargetedOp, tag="move", kw_only=True):
    pass


class SwapOp(TargetedOp, tag="swap", kw_only=True):
    pass


class RemoveOp(TargetedOp, tag="remove", kw_only=True):
    pass


class ProtectOp(TargetedOp, tag="protect", kw_only=True):
    pass


class HandLimitOp(Op, tag="hand_limit", kw_only=True):
    value: Annotated[int, msgspec.Meta(ge=1, le=12)]
    target: Any = None  # allowed, never read


class SpecialOp(Op, tag="special", kw_only=True):
    name: Literal["fountain", "laboratory", "manufactory", "smithy"]
    target: Any = None  # allowed, never read


AnyOp = (
    RotateOp
    | DestroyOp
    | RestoreOp
    | MoveOp
    | SwapOp
    | RemoveOp
    | ProtectOp
    | HandLimitOp
    | SpecialOp
)


class Score(Strict, tag_field="score", kw_only=True):
    """One end-of-game scoring modifier (A-7.10, A-8.1)."""

    points: Annotated[int, msgspec.Meta(ge=-20, le=20)]
    target: Selector = msgspec.field(default_factory=Selector)


class PerMatchScore(Score, tag="per_match", kw_only=True):
    pass


class IfAnyScore(Score, tag="if_any", kw_only=True):
    pass


class PerGraveyardCardScore(Score, tag="per_graveyard_card", kw_only=True):
    pass


AnyScore = PerMatchScore | IfAnyScore | PerGraveyardCardScore


class Cost(Strict, kw_only=True):
    """A-3.1c: cards removed from the hand or the graveyard to play the card."""

    remove: Annotated[int, msgspec.Meta(ge=1, le=3)]
    from_: Annotated[
        list[Literal["hand", "graveyard"]], msgspec.Meta(min_length=1, max_length=2)
    ] = msgspec.field(name="from")


class Card(Strict, tag_field="kind", kw_only=True):
    """A card (A-10): its face is `values` and `basic`, or a `formula` (A-2.1)."""

    id: Id
    name: Name
    names: dict[Literal["pt", "fr", "de"], Name] = {}
    values: Annotated[list[Value], msgspec.Meta(min_length=1, max_length=4)] | Unset = UNSET
    basic: Value | Unset = UNSET
    formula: Annotated[str, msgspec.Meta(pattern=FORMULA)] | Unset = UNSET
    shield: bool = False
    cost: Cost | Unset = UNSET
    placement: Literal["city", "outside"] = "city"
    on_play: Annotated[list[AnyOp], msgspec.Meta(max_length=8)] = []
    end_of_game: Annotated[list[AnyScore], msgspec.Meta(max_length=8)] = []
    passive: Annotated[list[Literal["guesthouse", "graveyard"]], msgspec.Meta(max_length=2)] = []
    pregame: Literal["obelisk"] | None = None
    text: Annotated[str, msgspec.Meta(max_length=2000, pattern=TEXT)] = ""


class BasicCard(Card, tag="basic", kw_only=True):
    """A basic card (A-1.3, A-10): its face is `values` and `basic`, or a `formula` (A-2.1)."""

    replaces: None = None


class AdditionalCard(Card, tag="additional", kw_only=True):
    """An additional card (A-1.5, A-10): its face is `values` and `basic`, or a `formula`
    (A-2.1)."""

    replaces: Annotated[
        str | None,
        msgspec.Meta(
            description="The basic card it replaces (A-1.5); without one, any of its basic value."
        ),
    ] = None


class CatalogDoc(Strict, kw_only=True):
    """An Architectura catalog document (A-10; docs/catalog.md); its cards are checked strictly by the engine (422 `invalid_catalog`)."""

    # In the contract a card is any object, as the hand-written contract had it: its shape is
    # ArchitecturaBasicCard / ArchitecturaAdditionalCard, but a request generated from it (the
    # schemathesis run) costs several times as much, for every operation that takes a catalog.
    contract_extra: ClassVar[dict[str, Any]] = {
        "properties": {
            "cards": {
                "type": "array",
                "description": "The cards (A-10), 12 of them basic; each an"
                " ArchitecturaBasicCard or ArchitecturaAdditionalCard (`kind`).",
                "minItems": 1,
                "maxItems": 256,
                "items": {"type": "object"},
            }
        }
    }

    format: Literal["architectura-catalog/1"]
    id: Id
    name: Name
    provenance: LongText
    colours: Annotated[
        list[Id],
        msgspec.Meta(
            min_length=4,
            max_length=4,
            description="The four seat colours (A-1.1), blue, green, yellow and red by default.",
            extra_json_schema={"uniqueItems": True},
        ),
    ] = msgspec.field(default_factory=lambda: list(DEFAULT_COLOURS))
    cards: Annotated[
        list[BasicCard | AdditionalCard],
        msgspec.Meta(
            min_length=1, max_length=256, description="The cards (A-10), 12 of them basic."
        ),
    ]
