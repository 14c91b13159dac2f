"""Card catalogs (A-10): a strict loader for the documented JSON format.

The format is described in docs/catalog.md. A catalog is refused with every problem listed
(CatalogError); an accepted one has a stable content hash that each game state records.
"""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from engine.architectura import catalog_schema as cs
from engine.canonical import digest
from engine.declared import Problems, convert
from engine.errors import (
    CatalogError,
    Problem,
    problem_count,
    short_repr,
)
from engine.messages import msg
from engine.protocol import shipped_catalogs
from engine.text import is_line, is_text, line_rule, text_rule

FORMAT = "architectura-catalog/1"
ID_RE = re.compile(cs.ID)
FORMULA_RE = re.compile(cs.FORMULA)
OPS = {"rotate", "destroy", "restore", "move", "swap", "remove", "protect", "hand_limit", "special"}
TARGETED_OPS = {"rotate", "destroy", "restore", "move", "swap", "remove", "protect"}
SPECIALS = {"fountain", "laboratory", "manufactory", "smithy"}
# A-9 Guesthouse: its passive, the task that asks its owner, and that decision's type.
GUESTHOUSE = "guesthouse"
PASSIVES = {GUESTHOUSE, "graveyard"}
PREGAMES = {"obelisk"}
SCORES = {"per_match", "if_any", "per_graveyard_card"}
WHERES = {"adjacent", "street", "city"}
DEFAULT_COLOURS = tuple(cs.DEFAULT_COLOURS)
# Bounds on a custom catalog (the reference one: 26 cards, one operation and one modifier
# each, texts under 200 characters): every request that carries a catalog reads it whole,
# so its size, and what a game made with it costs, stay within these.
MAX_CARDS = 256
MAX_OPS = 8  # operations of one card's on_play, and end-of-game modifiers of one card
MAX_VALUE = 99  # side values 0..99 (formula offsets are -99..99 by their syntax)
MAX_NAME = 100  # characters of a name (catalog, card, translated card name)
MAX_TEXT = 2000  # characters of a card's text and of the catalog's provenance


def _one_of(v: Any, allowed: Any) -> bool:
    """`v in allowed` for any JSON value (a list or object is unhashable and never allowed)."""
    return isinstance(v, str) and v in allowed


def _text(v: Any, most: int, shown: Callable[[str], bool] = is_line) -> bool:
    """A non-empty string of at most `most` characters, each one a reader can show
    (engine/text.py: a name on one line, a longer text with `is_text`)."""
    return isinstance(v, str) and 0 < len(v) <= most and shown(v)


def _int(v: Any, lo: int, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


@dataclass(frozen=True)
class Selector:
    """Which top cards of the city an operation may pick (A-7.1)."""

    where: str = "city"  # adjacent | street | city (relative to the source card)
    owner: str = "any"  # any | own
    face: str = "up"  # up | down
    lower_than_source: bool = False
    card: str | None = None  # only cards with this catalog id


@dataclass(frozen=True)
class Op:
    """One operation of an on-play effect (A-7)."""

    op: str
    may: bool = False
    count: int = 1  # maximum number of targets; 0 means "all" (A-7, Arsenal)
    steps: int = 1
    per_owner: bool = False  # at most one target per card owner (Library)
    value: int = 0  # hand_limit value
    name: str = ""  # special operation name
    target: Selector = field(default_factory=Selector)


@dataclass(frozen=True)
class Score:
    """One end-of-game scoring modifier (A-7.10, A-8.1)."""

    score: str
    points: int
    target: Selector = field(default_factory=Selector)


@dataclass(frozen=True)
class CardDef:
    id: str
    name: str
    kind: str  # basic | additional
    values: tuple[int, ...]  # ascending side values; empty for a formula card
    basic_index: int
    formula: str | None  # "X" or "No." base, with offset below
    offset: int
    shield: bool
    replaces: str | None
    cost_remove: int
    cost_from: tuple[str, ...]
    outside: bool
    on_play: tuple[Op, ...]
    end_of_game: tuple[Score, ...]
    passive: frozenset[str]
    pregame: str | None
    names: dict[str, str]
    text: str

    @property
    def is_smithy(self) -> bool:
        """Carries Smithy's copy operation (A-9 Smithy; A-R8: a Smithy copies no Smithy)."""
        return any(o.op == "special" and o.name == "smithy" for o in self.on_play)

    @property
    def shielded_in_city(self) -> bool:
        """A-6.1 shield; a card made to be played outside the city (Graveyard) keeps its
        protection only there: in the city it is an ordinary card (A-R7)."""
        return self.shield and not self.outside

    @property
    def rotatable(self) -> bool:
        """A-2.5: a card printed with one value only cannot be rotated."""
        return len(self.values) > 1

    @property
    def basic_value(self) -> int | None:
        return self.values[self.basic_index] if self.values else None


@dataclass(frozen=True)
class Catalog:
    id: str
    name: str
    provenance: str
    colours: tuple[str, ...]
    cards: dict[str, CardDef]
    basic_ids: tuple[str, ...]
    raw: dict[str, Any]
    hash: str
    # tables other modules derive from it (setup's instance tables): they live and die with
    # the catalog, so a catalog a request sent is not kept by a module-level table after it
    cache: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The catalog's document, a copy: a caller that changes it changes no built-in."""
        return copy.deepcopy(self.raw)

    def summary(self) -> dict[str, Any]:
        """What GET /v1/catalogs lists for this catalog."""
        return {
            "id": self.id,
            "name": self.name,
            "hash": self.hash,
            "colours": list(self.colours),
            "cards": len(self.cards),
        }


def _selector(d: Any, path: str, r: Problems) -> Selector:
    if not isinstance(d, dict):
        r.bad("catalog_type", msg("target must be an object"), path)
        return Selector()
    r.unknown(
        d,
        ("where", "owner", "face", "value", "card"),
        path,
        "catalog_unknown_field",
        msg("target "),
    )
    where = d.get("where", "city")
    owner = d.get("owner", "any")
    face = d.get("face", "up")
    value = d.get("value")
    card = d.get("card")
    if not _one_of(where, WHERES):
        r.bad(
            "catalog_value",
            msg("where must be one of {wheres}", wheres=sorted(WHERES)),
            f"{path}/where",
        )
        where = "city"
    if not _one_of(owner, ("any", "own")):
        r.bad("catalog_value", msg("owner must be 'any' or 'own'"), f"{path}/owner")
        owner = "any"
    if not _one_of(face, ("up", "down")):
        r.bad("catalog_value", msg("face must be 'up' or 'down'"), f"{path}/face")
        face = "up"
    if value is not None and value != "lower_than_source":
        r.bad("catalog_value", msg("value may only be 'lower_than_source'"), f"{path}/value")
    if card is not None and not (isinstance(card, str) and ID_RE.fullmatch(card)):
        r.bad("catalog_value", msg("card must be a card id"), f"{path}/card")
        card = None
    return Selector(where, owner, face, value == "lower_than_source", card)


def _op(d: Any, path: str, r: Problems) -> Op | None:
    if not isinstance(d, dict) or not isinstance(d.get("op"), str) or d["op"] not in OPS:
        r.bad("catalog_value", msg("op must be one of {ops}", ops=sorted(OPS)), f"{path}/op")
        return None
    kind = d["op"]
    allowed = ["op", "may", "count", "steps", "per_owner", "target"]
    allowed += ["value"] if kind == "hand_limit" else ["name"] if kind == "special" else []
    r.unknown(d, allowed, path, "catalog_unknown_field", msg("{kind} op ", kind=kind))
    may = d.get("may", False)
    if not isinstance(may, bool):
        r.bad("catalog_type", msg("may must be a boolean"), f"{path}/may")
        may = False
    count_raw = d.get("count", 1)
    count = 0 if count_raw == "all" else count_raw
    if not isinstance(count, int) or isinstance(count, bool) or count < 0 or count > 8:
        r.bad("catalog_value", msg("count must be 1..8 or 'all'"), f"{path}/count")
        count = 1
    if count == 0 and kind != "destroy":
        r.bad("catalog_value", msg("count 'all' is only defined for destroy"), f"{path}/count")
    steps = d.get("steps", 1)
    if not isinstance(steps, int) or isinstance(steps, bool) or not 1 <= steps <= 3:
        r.bad("catalog_value", msg("steps must be 1..3"), f"{path}/steps")
        steps = 1
    per_owner = d.get("per_owner", False)
    if not isinstance(per_owner, bool):
        r.bad("catalog_type", msg("per_owner must be a boolean"), f"{path}/per_owner")
        per_owner = False
    value = d.get("value", 0) if kind == "hand_limit" else 0
    name = d.get("name", "") if kind == "special" else ""
    target = Selector()
    if kind in TARGETED_OPS:
        target = _selector(d.get("target", {}), f"{path}/target", r)
        if kind == "restore" or kind == "remove":
            if target.face != "down":
                r.bad(
                    "catalog_value",
                    msg("{kind} targets face-down cards", kind=kind),
                    f"{path}/target/face",
                )
        elif target.face != "up":
            r.bad(
                "catalog_value",
                msg("{kind} targets face-up cards", kind=kind),
                f"{path}/target/face",
            )
    if kind == "hand_limit" and not _int(value, 1, 12):
        r.bad("catalog_value", msg("hand_limit value must be 1..12"), f"{path}/value")
        value = 3
    if kind == "special" and not _one_of(name, SPECIALS):
        r.bad(
            "catalog_value",
            msg("special name must be one of {specials}", specials=sorted(SPECIALS)),
            f"{path}/name",
        )
        name = ""
    return Op(kind, may, count, steps, per_owner, value, name, target)


def _score(d: Any, path: str, r: Problems) -> Score | None:
    if not isinstance(d, dict) or not _one_of(d.get("score"), SCORES):
        r.bad(
            "catalog_value",
            msg("score must be one of {scores}", scores=sorted(SCORES)),
            f"{path}/score",
        )
        return None
    r.unknown(d, ("score", "points", "target"), path, "catalog_unknown_field", "")
    pts = d.get("points")
    if not isinstance(pts, int) or isinstance(pts, bool) or not -20 <= pts <= 20:
        r.bad("catalog_value", msg("points must be an integer -20..20"), f"{path}/points")
        pts = 0
    target = _selector(d.get("target", {}), f"{path}/target", r)
    return Score(str(d["score"]), int(pts), target)


# A card or catalog field as a table row reads it: `read(d, path, r)` gives the
# field's value, each problem it finds appended (the card is refused if there is any).
Reader = Callable[[dict[str, Any], str, Problems], Any]


@dataclass(frozen=True)
class Check:
    """A field read as it is (`default` when the key is absent): unless `ok(value, document)`
    holds, it is refused with `refusal`, pointed at `<path>/<key>`."""

    key: str
    default: Any
    ok: Callable[[Any, dict[str, Any]], bool]
    refusal: Problem

    def __call__(self, d: dict[str, Any], path: str, r: Problems) -> Any:
        v = d.get(self.key, self.default)
        if not self.ok(v, d):
            r.problems.append(replace(self.refusal, pointer=f"{path}/{self.key}"))
        return v


@dataclass(frozen=True)
class Items:
    """A field listing at most MAX_OPS entries, each read by `item` (operations A-7,
    modifiers A-7.10); an entry that `item` refuses is left out. Not a list, or a longer
    one: `refusal`."""

    key: str
    item: Callable[[Any, str, Problems], Any]
    refusal: Problem

    def __call__(self, d: dict[str, Any], path: str, r: Problems) -> tuple[Any, ...]:
        raw = d.get(self.key, [])
        if not isinstance(raw, list) or len(raw) > MAX_OPS:
            r.problems.append(replace(self.refusal, pointer=f"{path}/{self.key}"))
            raw = []
        read = (self.item(x, f"{path}/{self.key}/{i}", r) for i, x in enumerate(raw))
        return tuple(x for x in read if x is not None)


def _face(d: dict[str, Any], path: str, r: Problems) -> tuple[Any, ...]:
    """A-2.1: printed side values (strictly ascending) and the basic one, or a formula (X or
    No., with an offset). (values, basic index, formula, offset)."""
    if "formula" in d:
        if "values" in d or "basic" in d:
            r.bad("catalog_value", msg("a card has values+basic or a formula, not both"), path)
        m = FORMULA_RE.fullmatch(d["formula"]) if isinstance(d["formula"], str) else None
        if not m:
            r.bad(
                "catalog_value", msg("formula must look like X, X+2, No., No.-1"), f"{path}/formula"
            )
            return (), 0, None, 0
        return (), 0, m.group(1), int(m.group(2) or 0)
    raw_values = d.get("values")
    if (
        not isinstance(raw_values, list)
        or not 1 <= len(raw_values) <= 4
        or not all(_int(v, 0, MAX_VALUE) for v in raw_values)
    ):
        r.bad(
            "catalog_value",
            msg("values must list 1 to 4 integers from 0 to {most}", most=MAX_VALUE),
            f"{path}/values",
        )
        return (), 0, None, 0
    if any(a >= b for a, b in itertools.pairwise(raw_values)):
        r.bad("catalog_value", msg("values must be strictly ascending (A-2.1)"), f"{path}/values")
        return (), 0, None, 0
    values = tuple(raw_values)
    basic = d.get("basic")
    if not _int(basic, 0, MAX_VALUE) or basic not in values:
        r.bad("catalog_value", msg("basic must be one of the card's values"), f"{path}/basic")
        return values, 0, None, 0
    return values, values.index(basic), None, 0


def _cost(d: dict[str, Any], path: str, r: Problems) -> tuple[Any, ...]:
    """A-3.1c: a play cost, cards removed from the hand or the graveyard. (remove, from)."""
    if "cost" not in d:
        return 0, ()
    c = d["cost"]
    if (
        not isinstance(c, dict)
        or set(c) != {"remove", "from"}
        or not _int(c["remove"], 1, 3)
        or not isinstance(c["from"], list)
        or not 1 <= len(c["from"]) <= 2
        or not all(_one_of(z, ("hand", "graveyard")) for z in c["from"])
        or len(set(c["from"])) != len(c["from"])
    ):
        r.bad(
            "catalog_value", msg("cost is {remove: 1..3, from: [hand|graveyard]}"), f"{path}/cost"
        )
        return 0, ()
    return c["remove"], tuple(c["from"])


def _names(v: Any, _: dict[str, Any]) -> bool:
    return isinstance(v, dict) and all(
        k in ("pt", "fr", "de") and _text(x, MAX_NAME) for k, x in v.items()
    )


def _passive(v: Any, _: dict[str, Any]) -> bool:
    return (
        isinstance(v, list)
        and len(v) <= len(PASSIVES)
        and all(_one_of(p, PASSIVES) for p in v)
        and len(set(v)) == len(v)
    )


def _colours(v: Any, _: dict[str, Any]) -> bool:
    return (
        isinstance(v, list)
        and len(v) == 4
        and all(isinstance(c, str) and ID_RE.fullmatch(c) is not None for c in v)
        and len(set(v)) == 4
    )


ID = Check(
    "id",
    None,
    lambda v, _: isinstance(v, str) and ID_RE.fullmatch(v) is not None,
    Problem("catalog_value", msg("id must match ^[a-z][a-z0-9_]*$")),
)
NAME = Check(
    "name",
    None,
    lambda v, _: _text(v, MAX_NAME),
    Problem("catalog_value", line_rule("name", MAX_NAME)),
)
# A card's fields in the order they are checked (docs/catalog.md, A-10): name -> reader.
CARD_READERS: tuple[tuple[str, Reader], ...] = (
    ("id", ID),
    ("name", NAME),
    (
        "names",
        Check(
            "names",
            {},
            _names,
            Problem(
                "catalog_value",
                msg(
                    "names maps pt/fr/de to names of 1 to {most} characters on one line, "
                    "without control characters",
                    most=MAX_NAME,
                ),
            ),
        ),
    ),
    (
        "kind",
        Check(
            "kind",
            None,
            lambda v, _: _one_of(v, ("basic", "additional")),
            Problem("catalog_value", msg("kind must be 'basic' or 'additional'")),
        ),
    ),
    ("face", _face),
    (
        "shield",
        Check(
            "shield",
            False,
            lambda v, _: isinstance(v, bool),
            Problem("catalog_type", msg("shield must be a boolean")),
        ),
    ),
    (
        "replaces",
        Check(
            "replaces",
            None,
            lambda v, d: v is None or (d.get("kind") == "additional" and isinstance(v, str)),
            Problem("catalog_value", msg("only an additional card may name the card it replaces")),
        ),
    ),
    ("cost", _cost),  # A-3.1c
    (
        "placement",  # A-9 (Graveyard)
        Check(
            "placement",
            "city",
            lambda v, _: _one_of(v, ("city", "outside")),
            Problem("catalog_value", msg("placement must be 'city' or 'outside'")),
        ),
    ),
    (
        "on_play",
        Items(
            "on_play",
            _op,
            Problem(
                "catalog_type", msg("on_play must list at most {most} operations", most=MAX_OPS)
            ),
        ),
    ),
    (
        "end_of_game",
        Items(
            "end_of_game",
            _score,
            Problem(
                "catalog_type", msg("end_of_game must list at most {most} modifiers", most=MAX_OPS)
            ),
        ),
    ),
    (
        "passive",  # A-9 (Guesthouse, Graveyard)
        Check(
            "passive",
            [],
            _passive,
            Problem(
                "catalog_value",
                msg("passive lists distinct entries of {passives}", passives=sorted(PASSIVES)),
            ),
        ),
    ),
    (
        "pregame",  # A-3.1a (Obelisk)
        Check(
            "pregame",
            None,
            lambda v, _: v is None or _one_of(v, PREGAMES),
            Problem(
                "catalog_value", msg("pregame must be one of {pregames}", pregames=sorted(PREGAMES))
            ),
        ),
    ),
    (
        "text",
        Check(
            "text",
            "",
            lambda v, _: isinstance(v, str) and len(v) <= MAX_TEXT and is_text(v),
            Problem(
                "catalog_type",
                text_rule("text", MAX_TEXT, required=False),
            ),
        ),
    ),
)
# The keys a card may have: its readers' (the face reads values, basic and formula).
CARD_FIELDS = {name for name, _ in CARD_READERS if name != "face"} | {"values", "basic", "formula"}


def _header(data: dict[str, Any], r: Problems) -> list[str]:
    """A-10: the catalog's own fields, checked before its cards: format, id, name and
    provenance, the seats' colours (A-1.1). Its colours."""
    if data.get("format") != FORMAT:
        r.bad("catalog_format", msg("format must be {format}", format=repr(FORMAT)), "/format")
    ID(data, "", r)
    if not _text(data.get("name"), MAX_NAME):
        r.bad("catalog_value", line_rule("name", MAX_NAME), "/name")
    if not _text(data.get("provenance"), MAX_TEXT, is_text):
        r.bad("catalog_value", text_rule("provenance", MAX_TEXT, required=True), "/provenance")
    colours = data.get("colours", list(DEFAULT_COLOURS))
    if not _colours(colours, data):
        r.bad("catalog_value", msg("colours must list 4 distinct colour ids (A-1.1)"), "/colours")
        colours = list(DEFAULT_COLOURS)
    return list(colours)


def _card(d: Any, path: str, r: Problems) -> CardDef | None:
    """A card of the catalog, each field read by its row of CARD_READERS; None when any
    problem was found (all of them listed)."""
    if not isinstance(d, dict):
        r.bad("catalog_type", msg("a card must be an object"), path)
        return None
    start = problem_count(r.problems)
    r.unknown(d, CARD_FIELDS, path, "catalog_unknown_field", msg("card "))
    f = {name: read(d, path, r) for name, read in CARD_READERS}
    if problem_count(r.problems) > start:
        return None
    values, basic_index, formula, offset = f["face"]
    cost_remove, cost_from = f["cost"]
    return CardDef(
        id=str(f["id"]),
        name=str(f["name"]),
        kind=str(f["kind"]),
        values=values,
        basic_index=basic_index,
        formula=formula,
        offset=offset,
        shield=f["shield"],
        replaces=f["replaces"],
        cost_remove=cost_remove,
        cost_from=cost_from,
        outside=f["placement"] == "outside",
        on_play=f["on_play"],
        end_of_game=f["end_of_game"],
        passive=frozenset(f["passive"]),
        pregame=f["pregame"],
        names=dict(f["names"]),
        text=f["text"],
    )


def _references(
    raw_cards: list[Any], cards: dict[str, CardDef], basics: list[CardDef], r: Problems
) -> None:
    """What a card names must be in the catalog: the basic card it replaces (A-1.5; without
    one, a basic card of its basic value), the cards its modifiers count (A-7.10)."""
    for i, rc in enumerate(raw_cards):
        if not isinstance(rc, dict) or not _one_of(rc.get("id"), cards):
            continue
        card = cards[rc["id"]]
        if card.replaces is not None:
            target = cards.get(card.replaces)
            if target is None or target.kind != "basic":
                r.bad(
                    "catalog_reference",
                    msg(
                        "replaces {replaces}, which is not a basic card",
                        replaces=short_repr(card.replaces),
                    ),
                    f"/cards/{i}/replaces",
                )
        elif card.kind == "additional" and not any(
            b.basic_value == card.basic_value for b in basics
        ):
            r.bad(
                "catalog_reference",
                msg(
                    "{card} replaces no basic card: no basic card has basic value {value} (A-1.5)",
                    card=repr(card.id),
                    value=card.basic_value,
                ),
                f"/cards/{i}",
            )
        for j, sc in enumerate(card.end_of_game):
            if sc.target.card is not None and sc.target.card not in cards:
                r.bad(
                    "catalog_reference",
                    msg("unknown card {card}", card=repr(sc.target.card)),
                    f"/cards/{i}/end_of_game/{j}/target/card",
                )


def _walked(data: Any) -> Catalog:
    """A catalog read field by field, every problem listed (CatalogError, A-10): its own
    fields (_header), each card (CARD_READERS), a deck of 12 basic cards (A-1.3), then what
    the cards name (_references)."""
    r = Problems()
    if not isinstance(data, dict):
        raise CatalogError([Problem("catalog_type", msg("a catalog must be a JSON object"), "")])
    r.unknown(
        data,
        ("format", "id", "name", "provenance", "colours", "cards"),
        "",
        "catalog_unknown_field",
        msg("catalog "),
    )
    colours = _header(data, r)
    raw_cards = data.get("cards")
    cards: dict[str, CardDef] = {}
    if not isinstance(raw_cards, list) or not 1 <= len(raw_cards) <= MAX_CARDS:
        r.bad("catalog_value", msg("cards must list 1 to {most} cards", most=MAX_CARDS), "/cards")
        raw_cards = []
    for i, rc in enumerate(raw_cards):
        card = _card(rc, f"/cards/{i}", r)
        if card is None:
            continue
        if card.id in cards:
            r.duplicate_card(card.id, i)
        cards[card.id] = card
    basics = [c for c in cards.values() if c.kind == "basic"]
    if raw_cards and len(basics) != 12 and not r.problems:
        r.bad(
            "catalog_value",
            msg("a deck has 12 basic cards (A-1.3); found {basics}", basics=len(basics)),
            "/cards",
        )
    _references(raw_cards, cards, basics, r)
    if r.problems:
        raise CatalogError(r.problems)
    return _catalog(data, tuple(colours), cards)


def _catalog(data: dict[str, Any], colours: tuple[str, ...], cards: dict[str, CardDef]) -> Catalog:
    return Catalog(
        id=str(data["id"]),
        name=str(data["name"]),
        provenance=str(data["provenance"]),
        colours=colours,
        cards=cards,
        basic_ids=tuple(c.id for c in cards.values() if c.kind == "basic"),
        raw=data,
        hash=digest(data),
    )


def _typed_selector(t: cs.Selector) -> Selector:
    return Selector(t.where, t.owner, t.face, t.value == "lower_than_source", t.card)


def _typed_op(t: Any) -> Op | None:
    """An operation that converted, or None when a check of meaning refuses it."""
    kind = t.__struct_config__.tag
    count = 0 if t.count == "all" else int(t.count)
    if count == 0 and kind != "destroy":
        return None
    target = Selector()
    if isinstance(t, cs.TargetedOp):
        target = _typed_selector(t.target)
        if target.face != ("down" if kind in ("restore", "remove") else "up"):
            return None
    value = t.value if isinstance(t, cs.HandLimitOp) else 0
    name = t.name if isinstance(t, cs.SpecialOp) else ""
    return Op(kind, t.may, count, t.steps, t.per_owner, value, name, target)


def _typed_face(t: Any) -> tuple[Any, ...] | None:
    """(values, basic index, formula, offset) of a card that converted, or None."""
    if t.formula is not cs.UNSET:
        m = FORMULA_RE.fullmatch(t.formula)
        if t.values is not cs.UNSET or t.basic is not cs.UNSET or m is None:
            return None
        return (), 0, m.group(1), int(m.group(2) or 0)
    if t.values is cs.UNSET or any(a >= b for a, b in itertools.pairwise(t.values)):
        return None
    if t.basic is cs.UNSET or t.basic not in t.values:
        return None
    return tuple(t.values), t.values.index(t.basic), None, 0


def _typed_card(t: Any) -> CardDef | None:
    """A card that converted, or None when a check of meaning refuses it."""
    face = _typed_face(t)
    cost_from = () if t.cost is cs.UNSET else tuple(t.cost.from_)
    if (
        face is None
        or len(set(cost_from)) != len(cost_from)
        or len(set(t.passive)) != len(t.passive)
    ):
        return None
    ops = [_typed_op(o) for o in t.on_play]
    if any(o is None for o in ops):
        return None
    values, basic_index, formula, offset = face
    return CardDef(
        id=t.id,
        name=t.name,
        kind=t.__struct_config__.tag,
        values=values,
        basic_index=basic_index,
        formula=formula,
        offset=offset,
        shield=t.shield,
        replaces=t.replaces,
        cost_remove=0 if t.cost is cs.UNSET else t.cost.remove,
        cost_from=cost_from,
        outside=t.placement == "outside",
        on_play=tuple(o for o in ops if o is not None),
        end_of_game=tuple(
            Score(s.__struct_config__.tag, s.points, _typed_selector(s.target))
            for s in t.end_of_game
        ),
        passive=frozenset(t.passive),
        pregame=t.pregame,
        names=dict(t.names),
        text=t.text,
    )


def _typed(data: dict[str, Any], doc: cs.CatalogDoc) -> Catalog | None:
    """The catalog of a document that converted, or None when a check of meaning refuses
    it (then read field by field, to list its problems as ever)."""
    if len(set(doc.colours)) != len(doc.colours):
        return None
    cards: dict[str, CardDef] = {}
    for t in doc.cards:
        card = _typed_card(t)
        if card is None or card.id in cards:
            return None
        cards[card.id] = card
    basics = [c for c in cards.values() if c.kind == "basic"]
    r = Problems()
    _references(data["cards"], cards, basics, r)
    if len(basics) != 12 or r.problems:
        return None
    return _catalog(data, tuple(doc.colours), cards)


def load_catalog(data: Any) -> Catalog:
    """Check a catalog document and build it, or raise CatalogError listing every problem
    (A-10). A well-formed one converts in one call (catalog_schema.CatalogDoc) and is built
    from its typed cards; any other, or one a check of meaning refuses, is read field by
    field (_walked)."""
    doc = convert(data, cs.CatalogDoc)
    built = _typed(data, doc) if doc is not None else None
    return built if built is not None else _walked(data)


def replaceable(catalog: Catalog, additional: str, basic: str) -> bool:
    """A-1.5: an additional card replaces a basic card of the same basic value, or the one it names."""
    a, b = catalog.cards.get(additional), catalog.cards.get(basic)
    if a is None or b is None or a.kind != "additional" or b.kind != "basic":
        return False
    if a.replaces is not None:
        return a.replaces == basic
    return a.basic_value is not None and a.basic_value == b.basic_value


_BUILTIN: dict[str, Catalog] = {}


def builtin_catalogs() -> dict[str, Catalog]:
    """The catalogs shipped with the engine, by id (today: the A-10 reference catalog)."""
    return shipped_catalogs("engine.architectura", load_catalog, _BUILTIN)
