"""The vocabulary of the games' declared shapes (engine/<game>/shapes.py).

Each game declares, as data, the objects told apart by their `type` that it reads and writes:
its decisions (one per entry of its decision-type table) and its events. A field's shape is
written as a JSON Schema fragment, so the declaration is the contract itself: openapi.yaml's
per-game schemas are generated from these tables (app/contract.py, `bash scripts/contract.sh`)
and the tests check every decision and event the engines produce against them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

Schema = dict[str, Any]


def shape(schema: Schema, description: str | None = None) -> msgspec.Meta:
    """A declared struct field's shape in the contract: msgspec writes it into the field's JSON
    Schema (app/contract.py) and never checks it (the game's reader checks what depends on
    the game)."""
    return msgspec.Meta(extra_json_schema=schema, description=description)


def counted(schema: Schema, description: str | None = None) -> msgspec.Meta:
    """A list whose length the game's reader checks (its refusal names the rule): bounded by
    `schema`'s maxItems in the typed conversion as well, so that a 2 MB list fails there at
    once, before msgspec converts each of its entries, and the walk (engine/declared.py)
    leaves the count to the reader."""
    return msgspec.Meta(
        max_length=schema["maxItems"],
        extra_json_schema=schema,
        description=description,
        extra={"counted": True},
    )


def closed_object(properties: Schema) -> Schema:
    """An object with exactly these fields, all required."""
    return {
        "type": "object",
        "required": list(properties),
        "additionalProperties": False,
        "properties": properties,
    }


def ref(name: str) -> Schema:
    """A shape named in the contract's components (openapi.yaml)."""
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: Schema, description: str | None = None) -> Schema:
    """`schema` or null."""
    out: Schema = {"description": description} if description else {}
    out["oneOf"] = [schema, {"type": "null"}]
    return out


def const(value: Any) -> Schema:
    return {"const": value}


def integer(lo: int | None = None, hi: int | None = None, **more: Any) -> Schema:
    out: Schema = {"type": "integer"}
    if lo is not None:
        out["minimum"] = lo
    if hi is not None:
        out["maximum"] = hi
    return out | more


def string(**more: Any) -> Schema:
    return {"type": "string"} | more


SEAT = integer(0, 3)  # a seat index: at most four seats in either game


@dataclass(frozen=True)
class Kind:
    """One kind of object told apart by its `type`: what it means (its clause first), and
    its fields after `type` (and a decision's `seat`) in the order written, each with its
    shape; the fields in `optional` are written only when they apply. `extra`: more
    constraints on the object as a whole (e.g. dependentRequired)."""

    description: str
    fields: dict[str, Schema] = field(default_factory=dict)
    optional: tuple[str, ...] = ()
    extra: Schema = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = set(self.optional) - set(self.fields)
        if unknown:
            raise ValueError(f"optional fields not declared: {sorted(unknown)}")


@dataclass(frozen=True)
class View:
    """What a seat's view (a game's `player_view`) changes in its state's declared shape:
    top-level `fields` and each seat's `seat_fields`, replaced or added (all written)."""

    description: str
    fields: dict[str, Schema]
    seat_fields: dict[str, Schema]


# A msgspec struct named as a component of the contract: (component name, struct).
Declared = list[tuple[str, type]]


@dataclass(frozen=True)
class Contract:
    """What a game declares for the contract, as `CONTRACT` in its package's `shapes` module
    (app/contract.py finds it through the registry): the names of its components, its
    decisions (over its decision-type table) and events (`Kind`s, by type) and their unions'
    descriptions, the decision a state waits for; its state as msgspec structs (the
    top-level one first, each nested one named too; empty while written by hand), what a
    seat's view changes in it, and other documents declared as structs, by region."""

    prefix: str  # of its components' names
    decision_union: str
    decisions_description: str
    decisions: dict[str, Kind]
    event_union: str
    events_description: str
    events: dict[str, Kind]
    pending_name: str
    pending: Schema
    state: Declared = field(default_factory=list)
    view: View | None = None
    documents: dict[str, Declared] = field(default_factory=dict)
