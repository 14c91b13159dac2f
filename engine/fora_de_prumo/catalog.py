"""Fora de Prumo card catalogs (F-2.1, F-2.8): a strict loader for the JSON card format.

A catalog document is `{"format": "fora-de-prumo-catalog/1", "id", "name", "provenance"?,
"cards": [...]}`; each card carries the fields of F-2.1 for its type (and an optional
`printed` list naming which of its attributes the published text prints, F-10), its id no
word the decision notation writes alone (`pass`: F-2.7, NOTATION_WORDS). A malformed
document is refused with every problem listed by JSON pointer (CatalogError, clause F-2.8),
whatever JSON value it is, at a cost bounded by what a catalog can hold (MAX_CARDS cards, a
few fields each): a longer list is refused unread, problems beyond the first hundred and
unknown fields are only counted. An accepted one has a stable content hash that each state
records.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, get_args

import msgspec

from engine.canonical import digest
from engine.declared import Problems, convert
from engine.errors import (
    CatalogError,
    problem_count,
)
from engine.fora_de_prumo import schema
from engine.messages import msg
from engine.protocol import shipped_catalogs
from engine.text import is_line, is_text, line_rule, text_rule

FORMAT = "fora-de-prumo-catalog/1"
CLAUSE = "F-2.8"

SUITS = ("exteriores", "conforto", "circulacoes", "atividades")
SUIT_OF_CODE = {"G": "exteriores", "P": "conforto", "B": "circulacoes", "Y": "atividades"}
CODE_OF_SUIT = {s: c for c, s in SUIT_OF_CODE.items()}
SLOT_CHARS = frozenset("WDGPBY")
# the card types and person abilities, as the catalog's declaration names them (F-2.1)
TYPES: tuple[str, ...] = get_args(schema.CardType)
ABILITIES: tuple[str, ...] = get_args(schema.Ability)
# F-7.4: measure -> (parameter name or None, parameter required?)
MEASURES: dict[str, tuple[str | None, bool]] = {
    "spaces": ("suit", False),
    "space_suits": (None, False),
    "cards": ("type", True),
    "connections": (None, False),
    "qualified": ("suit", False),
    "qualified_types": (None, False),
    "street_doors": (None, False),
    "patio_cells": (None, False),
}

MAX_CARDS = 500
MAX_TEXT = 64
MAX_NUMBER = 1000
MAX_PROVENANCE = 10_000
ID_RE = re.compile(schema.CARD_ID)
CATALOG_ID_RE = re.compile(schema.CATALOG_ID)

COMMON_FIELDS = ("id", "type", "name", "gloss", "phase", "min_players", "printed")
TYPE_FIELDS = {
    "space": ("suits", "slots"),
    "material": ("suit", "value"),
    "person": ("ability",),
    "concept": ("objective", "points"),
    "project": ("value",),
}
DOC_FIELDS = ("format", "id", "name", "provenance", "cards")
# The declared catalog (schema.py) spells these out for the contract: the same values.
assert get_args(schema.Suit) == SUITS and get_args(schema.CardType) == TYPES
assert get_args(schema.Ability) == ABILITIES


@dataclass(frozen=True, slots=True)
class Card:
    """One card (F-2.1). Fields that do not apply to the card's type are empty/0/None."""

    id: str
    name: str
    gloss: str
    type: str
    phase: int
    min_players: int
    suits: frozenset[str] = frozenset()  # space: its suits (all four for a joker, F-2.2)
    slots: str = ""  # space: six slot characters in F-2.5 order
    suit: str | None = None  # material: the type of qualification it rewards
    value: int = 0  # material: per qualification; project: per space
    ability: str | None = None  # person (F-6)
    objective: dict[str, str] | None = field(default=None, hash=False)  # concept (F-7.4)
    points: int = 0  # concept: per connection (F-7.1)

    @property
    def is_joker(self) -> bool:
        return self.type == "space" and len(self.suits) == len(SUITS)


class Catalog:
    """A checked catalog. `cache` holds tables derived from it by other modules (geometry)."""

    __slots__ = ("cache", "cards", "hash", "id", "name", "provenance", "raw")

    def __init__(
        self, cid: str, name: str, provenance: str, cards: dict[str, Card], raw: dict[str, Any]
    ) -> None:
        self.id = cid
        self.name = name
        self.provenance = provenance
        self.cards = cards
        self.raw = raw
        self.hash = digest(raw)
        self.cache: dict[str, Any] = {}

    def to_json(self) -> dict[str, Any]:
        """The catalog's document, a copy: a caller that changes it changes no built-in."""
        return copy.deepcopy(self.raw)

    def summary(self) -> dict[str, Any]:
        """What GET /v1/catalogs lists for this catalog."""
        return {"id": self.id, "name": self.name, "hash": self.hash, "cards": len(self.cards)}

    def card(self, cid: str) -> Card:
        return self.cards[cid]


def _text(r: Problems, d: dict[str, Any], key: str, path: str, limit: int = MAX_TEXT) -> str | None:
    v = d.get(key)
    if not isinstance(v, str) or not v or len(v) > limit or not is_line(v):
        r.bad("catalog_value", line_rule(key, limit), path + key)
        return None
    return v


def _integer(r: Problems, d: dict[str, Any], key: str, path: str, lo: int, hi: int) -> int | None:
    v = d.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        r.bad(
            "catalog_value",
            msg("{key} must be an integer {lo}..{hi}", key=key, lo=lo, hi=hi),
            path + key,
        )
        return None
    return int(v)


def _objective(r: Problems, v: Any, path: str) -> dict[str, str] | None:
    """F-2.1/F-7.4: {"measure": m} plus the measure's parameter, nothing misplaced."""
    if not isinstance(v, dict):
        r.bad("catalog_type", msg("objective must be an object"), path)
        return None
    measure = v.get("measure")
    if not isinstance(measure, str) or measure not in MEASURES:
        r.bad(
            "catalog_value",
            msg("measure must be one of {measures}", measures=sorted(MEASURES)),
            path + "/measure",
        )
        return None
    param, required = MEASURES[measure]
    before = problem_count(r.problems)
    r.unknown(
        v,
        ("measure", param or "measure"),
        path,
        "catalog_unknown_field",
        msg("measure {measure} ", measure=repr(measure)),
    )
    ok = problem_count(r.problems) == before
    out = {"measure": measure}
    if param is not None:
        if param not in v:
            if required:
                r.bad(
                    "catalog_value",
                    msg(
                        "measure {measure} needs {param} (F-7.4)",
                        measure=repr(measure),
                        param=repr(param),
                    ),
                    path,
                )
                ok = False
        else:
            allowed = SUITS if param == "suit" else TYPES
            pv = v[param]
            if not isinstance(pv, str) or pv not in allowed:
                r.bad(
                    "catalog_value",
                    msg("{param} must be one of {allowed}", param=param, allowed=list(allowed)),
                    f"{path}/{param}",
                )
                ok = False
            else:
                out[param] = pv
    return out if ok else None


def _space(r: Problems, d: dict[str, Any], p: str) -> dict[str, Any]:
    """F-2.2/F-2.3: one suit or all four; six slot characters with at least one door."""
    suits = d.get("suits")
    if (
        not isinstance(suits, list)
        or len(suits) not in (1, len(SUITS))  # first: a long list is refused unread
        or not all(isinstance(s, str) and s in SUITS for s in suits)
        or len(set(suits)) != len(suits)
    ):
        r.bad(
            "catalog_value",
            msg("suits must list one suit or all four (a joker) of {suits}", suits=list(SUITS)),
            p + "suits",
        )
        suits = []
    slots = d.get("slots")
    if not isinstance(slots, str) or len(slots) != 6 or not set(slots) <= SLOT_CHARS:
        r.bad("catalog_value", msg("slots must be six characters of W D G P B Y"), p + "slots")
    elif slots == "WWWWWW":
        r.bad("catalog_value", msg("a space has at least one door (F-2.3)"), p + "slots")
    return {"suits": frozenset(suits), "slots": slots}


def _material(r: Problems, d: dict[str, Any], p: str) -> dict[str, Any]:
    suit = d.get("suit")
    if not isinstance(suit, str) or suit not in SUITS:
        r.bad("catalog_value", msg("suit must be one of {suits}", suits=list(SUITS)), p + "suit")
    return {"suit": suit, "value": _integer(r, d, "value", p, 0, MAX_NUMBER)}


def _person(r: Problems, d: dict[str, Any], p: str) -> dict[str, Any]:
    ability = d.get("ability")
    if not isinstance(ability, str) or ability not in ABILITIES:
        r.bad(
            "catalog_value",
            msg("ability must be one of {abilities}", abilities=list(ABILITIES)),
            p + "ability",
        )
    return {"ability": ability}


def _concept(r: Problems, d: dict[str, Any], p: str) -> dict[str, Any]:
    objective = _objective(r, d.get("objective"), p + "objective")
    return {"objective": objective, "points": _integer(r, d, "points", p, 0, MAX_NUMBER)}


def _project(r: Problems, d: dict[str, Any], p: str) -> dict[str, Any]:
    return {"value": _integer(r, d, "value", p, 0, MAX_NUMBER)}


# The fields of each card type (F-2.1), read after the common ones.
TYPE_READERS: dict[str, Callable[[Problems, dict[str, Any], str], dict[str, Any]]] = {
    "space": _space,
    "material": _material,
    "person": _person,
    "concept": _concept,
    "project": _project,
}


# The decisions the notation writes as a bare word (F-2.7): a card id spelled the same would
# be written, and read back, as that decision instead of its lay, so a catalog refuses it.
# Here, not in notation.py (which imports this module); notation.py checks it is its own.
NOTATION_WORDS = frozenset({"look", "pass", "skip"})


def _card_id(r: Problems, cid: Any, p: str) -> None:
    """A card's id (F-2.1): the id pattern, and not a word the notation writes alone."""
    if not isinstance(cid, str) or not ID_RE.fullmatch(cid):
        r.bad("catalog_value", msg("id must be 1 to 64 letters, digits, '_', '.' or '-'"), p + "id")
    elif cid in NOTATION_WORDS:
        r.bad(
            "catalog_value",
            msg(
                "id {id} reads as a decision in notation (F-2.7): give the card another id, "
                "such as {other}",
                id=repr(cid),
                other=repr(cid.upper()),
            ),
            p + "id",
        )


def _card_type(r: Problems, d: dict[str, Any], path: str) -> str | None:
    """The card's type, and its fields known for it (unknown ones listed)."""
    ctype = d.get("type")
    if not isinstance(ctype, str) or ctype not in TYPES:
        r.bad(
            "catalog_value", msg("type must be one of {types}", types=list(TYPES)), path + "/type"
        )
        return None
    r.unknown(d, COMMON_FIELDS + TYPE_FIELDS[ctype], path, "catalog_unknown_field")
    return ctype


def _card(r: Problems, d: Any, path: str) -> Card | None:
    """A card that did not convert, read field by field: None when it has any problem."""
    if not isinstance(d, dict):
        r.bad("catalog_type", msg("a card must be an object"), path)
        return None
    start = problem_count(r.problems)  # len() stops at the kept hundred
    p = path + "/"
    ctype = _card_type(r, d, path)
    cid = d.get("id")
    _card_id(r, cid, p)
    name, gloss = _text(r, d, "name", p), _text(r, d, "gloss", p)
    phase = _integer(r, d, "phase", p, 1, 3)
    min_players = _integer(r, d, "min_players", p, 1, 4)
    printed = d.get("printed", [])
    if (
        not isinstance(printed, list)
        or len(printed) > 16
        or not all(isinstance(x, str) and x in d for x in printed)
    ):
        r.bad("catalog_value", msg("printed lists fields of this card"), p + "printed")
    fields = TYPE_READERS[ctype](r, d, p) if ctype is not None else {}
    if problem_count(r.problems) > start or ctype is None:
        return None
    assert isinstance(cid, str) and name and gloss and phase and min_players
    return Card(cid, name, gloss, ctype, phase, min_players, **fields)


def _header(r: Problems, doc: dict[str, Any]) -> tuple[Any, Any, str]:
    """The catalog's own fields (F-2.1): (id, name, provenance)."""
    r.unknown(doc, DOC_FIELDS, "", "catalog_unknown_field")
    if doc.get("format") != FORMAT:
        r.bad("catalog_format", msg("format must be {format}", format=repr(FORMAT)), "/format")
    cat_id = doc.get("id")
    if not isinstance(cat_id, str) or not CATALOG_ID_RE.fullmatch(cat_id):
        r.bad(
            "catalog_value", msg("id must match ^[a-z][a-z0-9_-]*$ (at most 64 characters)"), "/id"
        )
    name = _text(r, doc, "name", "/")
    provenance = doc.get("provenance", "")
    if (
        not isinstance(provenance, str)
        or len(provenance) > MAX_PROVENANCE
        or not is_text(provenance)
    ):
        r.bad(
            "catalog_value",
            text_rule("provenance", MAX_PROVENANCE, required=False),
            "/provenance",
        )
        provenance = ""
    return cat_id, name, provenance


def _walked(doc: Any) -> Catalog:
    """A catalog read field by field, every problem listed (CatalogError) in reading order."""
    r = Problems(clause=CLAUSE)
    if not isinstance(doc, dict):
        r.bad("catalog_type", msg("a catalog must be a JSON object"), "")
        raise CatalogError(r.problems, clause=CLAUSE)
    cat_id, name, provenance = _header(r, doc)
    raw_cards = doc.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards or len(raw_cards) > MAX_CARDS:
        r.bad("catalog_value", msg("cards must list 1 to {most} cards", most=MAX_CARDS), "/cards")
        raw_cards = []
    cards: dict[str, Card] = {}
    for i, rc in enumerate(raw_cards):
        card = _card(r, rc, f"/cards/{i}")
        if card is None:
            continue
        if card.id in cards:
            r.duplicate_card(card.id, i)
            continue
        cards[card.id] = card
    if r.problems:
        raise CatalogError(r.problems, clause=CLAUSE)
    assert isinstance(cat_id, str) and name is not None
    return Catalog(cat_id, name, provenance, cards, doc)


def _typed_card(c: schema.AnyCard) -> Card | None:
    """A card that converted, or None when a check of meaning refuses it."""
    present = {*c.__struct_fields__, "type"}
    if not all(x in present for x in c.printed) or c.id in NOTATION_WORDS:
        return None
    base = (c.id, c.name, c.gloss, c.__struct_config__.tag, c.phase, c.min_players)
    if isinstance(c, schema.SpaceCard):
        if len(c.suits) not in (1, len(SUITS)) or len(set(c.suits)) != len(c.suits):
            return None
        if c.slots == "WWWWWW":
            return None
        return Card(*base, suits=frozenset(c.suits), slots=c.slots)  # type: ignore[arg-type]
    if isinstance(c, schema.MaterialCard):
        return Card(*base, suit=c.suit, value=c.value)  # type: ignore[arg-type]
    if isinstance(c, schema.PersonCard):
        return Card(*base, ability=c.ability)  # type: ignore[arg-type]
    if isinstance(c, schema.ConceptCard):
        objective = msgspec.structs.asdict(c.objective)
        objective = {"measure": c.objective.__struct_config__.tag, **objective}
        objective = {k: v for k, v in objective.items() if v is not msgspec.UNSET}
        return Card(*base, objective=objective, points=c.points)  # type: ignore[arg-type]
    return Card(*base, value=c.value)  # type: ignore[arg-type]


def load_catalog(doc: Any) -> Catalog:
    """Check a catalog document and build it, or raise CatalogError listing every problem.
    A well-formed one converts in one call (schema.CatalogDoc) and is built from its typed
    cards; any other, or one a check of meaning refuses, is read field by field."""
    typed = convert(doc, schema.CatalogDoc)
    if typed is not None:
        cards: dict[str, Card] = {}
        for c in typed.cards:
            card = _typed_card(c)
            if card is None or card.id in cards:
                return _walked(doc)
            cards[card.id] = card
        return Catalog(typed.id, typed.name, typed.provenance, cards, doc)
    return _walked(doc)


_BUILTIN: dict[str, Catalog] = {}


def builtin_catalogs() -> dict[str, Catalog]:
    """The catalogs shipped with the engine, by id (today: the F-10 reference catalog)."""
    return shipped_catalogs("engine.fora_de_prumo", load_catalog, _BUILTIN)
