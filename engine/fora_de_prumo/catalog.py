"""Fora de Prumo card catalogs (F-2.1, F-2.8): a strict loader for the JSON card format.

A catalog document is `{"format": "fora-de-prumo-catalog/1", "id", "name", "provenance"?,
"cards": [...]}`; each card carries the fields of F-2.1 for its type (and an optional
`printed` list naming which of its attributes the published text prints, F-10). A malformed
document is refused with every problem listed by JSON pointer (CatalogError, clause F-2.8),
whatever JSON value it is, at a cost bounded by what a catalog can hold (MAX_CARDS cards, a
few fields each): a longer list is refused unread, problems beyond the first hundred and
unknown fields are only counted. An accepted one has a stable content hash that each state
records.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from engine.canonical import digest
from engine.errors import (
    CatalogError,
    Problem,
    ProblemList,
    problem_count,
    short_repr,
    unknown_keys,
)
from engine.messages import Msg, msg
from engine.protocol import shipped_catalogs

FORMAT = "fora-de-prumo-catalog/1"
CLAUSE = "F-2.8"

SUITS = ("exteriores", "conforto", "circulacoes", "atividades")
SUIT_OF_CODE = {"G": "exteriores", "P": "conforto", "B": "circulacoes", "Y": "atividades"}
CODE_OF_SUIT = {s: c for c, s in SUIT_OF_CODE.items()}
SLOT_CHARS = frozenset("WDGPBY")
TYPES = ("space", "material", "person", "concept", "project")
ABILITIES = (
    "coordenadora",
    "engenheiro",
    "designer_de_interiores",
    "paisagista",
    "equipe_de_obras",
    "teorica",
    "urbanista",
    "arquiteta",
    "estagiario",
)
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
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
CATALOG_ID_RE = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")

COMMON_FIELDS = ("id", "type", "name", "gloss", "phase", "min_players", "printed")
TYPE_FIELDS = {
    "space": ("suits", "slots"),
    "material": ("suit", "value"),
    "person": ("ability",),
    "concept": ("objective", "points"),
    "project": ("value",),
}
DOC_FIELDS = ("format", "id", "name", "provenance", "cards")


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
        return self.raw

    def summary(self) -> dict[str, Any]:
        """What GET /v1/catalogs lists for this catalog."""
        return {"id": self.id, "name": self.name, "hash": self.hash, "cards": len(self.cards)}

    def card(self, cid: str) -> Card:
        return self.cards[cid]


def unknown_fields(
    problems: ProblemList,
    d: dict[Any, Any],
    allowed: tuple[str, ...],
    path: str,
    code: str = "unknown_field",
    clause: str | None = None,
    what: str = "",
) -> None:
    """engine.errors.unknown_keys, each problem naming `clause`: the keys beyond the hundred
    kept are only counted, never sorted or written. Keys that are not strings (only a
    Python caller can send them) are named by their short repr: they do not sort with
    strings."""
    if not d.keys() - allowed:  # the usual case: nothing unknown, nothing to write
        return
    if not all(isinstance(k, str) for k in d):
        d = {k if isinstance(k, str) else short_repr(k): None for k in d}
    found = ProblemList(max(problems.limit - len(problems), 0))
    unknown_keys(found, d, allowed, path, code, what)
    problems.extend(replace(p, clause=clause) for p in found)
    problems.dropped += found.dropped


class _Checker:
    """Collects problems for one document; every check reports and never raises."""

    def __init__(self) -> None:
        self.problems = ProblemList()

    def add(self, code: str, detail: Msg, pointer: str) -> None:
        self.problems.append(Problem(code, detail, pointer, CLAUSE))

    def unknown_fields(
        self, d: dict[Any, Any], allowed: tuple[str, ...], path: str, what: str = ""
    ) -> None:
        unknown_fields(self.problems, d, allowed, path, "catalog_unknown_field", CLAUSE, what)

    def text(self, d: dict[str, Any], key: str, path: str, limit: int = MAX_TEXT) -> str | None:
        v = d.get(key)
        if not isinstance(v, str) or not v or len(v) > limit:
            self.add(
                "catalog_value",
                msg("{key} must be a string of 1 to {most} characters", key=key, most=limit),
                path + key,
            )
            return None
        return v

    def integer(self, d: dict[str, Any], key: str, path: str, lo: int, hi: int) -> int | None:
        v = d.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            self.add(
                "catalog_value",
                msg("{key} must be an integer {lo}..{hi}", key=key, lo=lo, hi=hi),
                path + key,
            )
            return None
        return int(v)

    def objective(self, v: Any, path: str) -> dict[str, str] | None:
        """F-2.1/F-7.4: {"measure": m} plus the measure's parameter, nothing misplaced."""
        if not isinstance(v, dict):
            self.add("catalog_type", msg("objective must be an object"), path)
            return None
        measure = v.get("measure")
        if not isinstance(measure, str) or measure not in MEASURES:
            self.add(
                "catalog_value",
                msg("measure must be one of {measures}", measures=sorted(MEASURES)),
                path + "/measure",
            )
            return None
        param, required = MEASURES[measure]
        before = problem_count(self.problems)
        self.unknown_fields(
            v,
            ("measure", param or "measure"),
            path,
            msg("measure {measure} ", measure=repr(measure)),
        )
        ok = problem_count(self.problems) == before
        out = {"measure": measure}
        if param is not None:
            if param not in v:
                if required:
                    self.add(
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
                    self.add(
                        "catalog_value",
                        msg("{param} must be one of {allowed}", param=param, allowed=list(allowed)),
                        f"{path}/{param}",
                    )
                    ok = False
                else:
                    out[param] = pv
        return out if ok else None

    def card(self, d: Any, path: str) -> Card | None:
        if not isinstance(d, dict):
            self.add("catalog_type", msg("a card must be an object"), path)
            return None
        start = problem_count(self.problems)  # len() stops at the kept hundred
        p = path + "/"
        ctype = d.get("type")
        if not isinstance(ctype, str) or ctype not in TYPES:
            self.add(
                "catalog_value", msg("type must be one of {types}", types=list(TYPES)), p + "type"
            )
            ctype = None
        if ctype is not None:
            self.unknown_fields(d, COMMON_FIELDS + TYPE_FIELDS[ctype], path)
        cid = d.get("id")
        if not isinstance(cid, str) or not ID_RE.match(cid):
            self.add(
                "catalog_value",
                msg("id must be 1 to 64 letters, digits, '_', '.' or '-'"),
                p + "id",
            )
        name = self.text(d, "name", p)
        gloss = self.text(d, "gloss", p)
        phase = self.integer(d, "phase", p, 1, 3)
        min_players = self.integer(d, "min_players", p, 1, 4)
        printed = d.get("printed", [])
        if (
            not isinstance(printed, list)
            or len(printed) > 16
            or not all(isinstance(x, str) and x in d for x in printed)
        ):
            self.add("catalog_value", msg("printed lists fields of this card"), p + "printed")
        fields: dict[str, Any] = {}
        if ctype == "space":
            fields.update(self.space_fields(d, p))
        elif ctype == "material":
            suit = d.get("suit")
            if not isinstance(suit, str) or suit not in SUITS:
                self.add(
                    "catalog_value",
                    msg("suit must be one of {suits}", suits=list(SUITS)),
                    p + "suit",
                )
            fields["suit"] = suit
            fields["value"] = self.integer(d, "value", p, 0, MAX_NUMBER)
        elif ctype == "person":
            ability = d.get("ability")
            if not isinstance(ability, str) or ability not in ABILITIES:
                self.add(
                    "catalog_value",
                    msg("ability must be one of {abilities}", abilities=list(ABILITIES)),
                    p + "ability",
                )
            fields["ability"] = ability
        elif ctype == "concept":
            fields["objective"] = self.objective(d.get("objective"), p + "objective")
            fields["points"] = self.integer(d, "points", p, 0, MAX_NUMBER)
        elif ctype == "project":
            fields["value"] = self.integer(d, "value", p, 0, MAX_NUMBER)
        if problem_count(self.problems) > start or ctype is None:
            return None
        assert isinstance(cid, str) and name and gloss and phase and min_players
        return Card(cid, name, gloss, ctype, phase, min_players, **fields)

    def space_fields(self, d: dict[str, Any], p: str) -> dict[str, Any]:
        """F-2.2/F-2.3: one suit or all four; six slot characters with at least one door."""
        suits = d.get("suits")
        if (
            not isinstance(suits, list)
            or len(suits) not in (1, len(SUITS))  # first: a long list is refused unread
            or not all(isinstance(s, str) and s in SUITS for s in suits)
            or len(set(suits)) != len(suits)
        ):
            self.add(
                "catalog_value",
                msg("suits must list one suit or all four (a joker) of {suits}", suits=list(SUITS)),
                p + "suits",
            )
            suits = []
        slots = d.get("slots")
        if not isinstance(slots, str) or len(slots) != 6 or not set(slots) <= SLOT_CHARS:
            self.add(
                "catalog_value", msg("slots must be six characters of W D G P B Y"), p + "slots"
            )
        elif slots == "WWWWWW":
            self.add("catalog_value", msg("a space has at least one door (F-2.3)"), p + "slots")
        return {"suits": frozenset(suits), "slots": slots}


def load_catalog(doc: Any) -> Catalog:
    """Check a catalog document and build it, or raise CatalogError listing every problem."""
    ck = _Checker()
    if not isinstance(doc, dict):
        ck.add("catalog_type", msg("a catalog must be a JSON object"), "")
        raise CatalogError(ck.problems, clause=CLAUSE)
    ck.unknown_fields(doc, DOC_FIELDS, "")
    if doc.get("format") != FORMAT:
        ck.add("catalog_format", msg("format must be {format}", format=repr(FORMAT)), "/format")
    cat_id = doc.get("id")
    if not isinstance(cat_id, str) or not CATALOG_ID_RE.match(cat_id):
        ck.add(
            "catalog_value", msg("id must match ^[a-z][a-z0-9_-]*$ (at most 64 characters)"), "/id"
        )
    name = ck.text(doc, "name", "/")
    provenance = doc.get("provenance", "")
    if not isinstance(provenance, str) or len(provenance) > MAX_PROVENANCE:
        ck.add(
            "catalog_value",
            msg("provenance must be a string of at most {most}", most=MAX_PROVENANCE),
            "/provenance",
        )
        provenance = ""
    raw_cards = doc.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards or len(raw_cards) > MAX_CARDS:
        ck.add("catalog_value", msg("cards must list 1 to {most} cards", most=MAX_CARDS), "/cards")
        raw_cards = []
    cards: dict[str, Card] = {}
    for i, rc in enumerate(raw_cards):
        card = ck.card(rc, f"/cards/{i}")
        if card is None:
            continue
        if card.id in cards:
            ck.add(
                "catalog_duplicate",
                msg("card id {id} appears twice", id=repr(card.id)),
                f"/cards/{i}/id",
            )
            continue
        cards[card.id] = card
    if ck.problems:
        raise CatalogError(ck.problems, clause=CLAUSE)
    assert isinstance(cat_id, str) and name is not None
    return Catalog(cat_id, name, provenance, cards, doc)


_BUILTIN: dict[str, Catalog] = {}


def builtin_catalogs() -> dict[str, Catalog]:
    """The catalogs shipped with the engine, by id (today: the F-10 reference catalog)."""
    return shipped_catalogs("engine.fora_de_prumo", load_catalog, _BUILTIN)
