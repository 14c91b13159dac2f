"""openapi.yaml's per-game schemas, generated from what the code declares.

    bash scripts/contract.sh          # rewrite the generated regions of openapi.yaml
    bash scripts/contract.sh --check  # exit 1, with a diff, when they differ from the code

The rest of openapi.yaml (paths, common components, prose) is written by hand. Each generated
region lies between a line `# >>> generated: <region> ...` and a line `# <<< generated:
<region>` among the components' schemas, and holds the components that REGIONS builds:
- decisions: one schema per entry of the game's decision-type table, its fields' shapes and
  meaning from engine/<game>/shapes.py, and their discriminated union;
- events: one schema per event kind declared in engine/<game>/shapes.py, and their union;
- decisions also holds the decision a state waits for (engine/<game>/shapes.py PENDING);
- states: from the msgspec structs named in STATES, through `msgspec.json.schema_components`
  (a struct's docstring is its description), and a seat's view from them and the changes
  that engine/<game>/shapes.py VIEW declares;
- other documents declared as msgspec structs (DOCUMENTS; catalogs, set-ups): likewise.
"""

from __future__ import annotations

import copy
import difflib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import yaml

from engine.architectura import schema as arch_schema
from engine.architectura import shapes as arch_shapes
from engine.fora_de_prumo import shapes as fdp_shapes
from engine.shapes import SEAT, Kind, Schema, View, const, integer, ref

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "openapi.yaml"


@dataclass(frozen=True)
class Game:
    """How one game's components are named, and where its declarations are."""

    prefix: str  # of every component of the game
    shapes: ModuleType  # DECISIONS, EVENTS and their unions' descriptions
    decision_union: str
    event_union: str
    pending: str  # the component of shapes.PENDING, the decision a state waits for
    game: str


GAMES = {
    "architectura": Game(
        "Architectura", arch_shapes, "Decision", "Event", "Pending", "architectura"
    ),
    "fora-de-prumo": Game(
        "ForaDePrumo",
        fdp_shapes,
        "ForaDePrumoDecision",
        "ForaDePrumoEvent",
        "ForaDePrumoPending",
        "fora-de-prumo",
    ),
}

Declared = list[tuple[str, type[msgspec.Struct]]]  # (component name, struct)

# Each game's state declared as msgspec structs, the top-level one first; a struct nested in
# it must be listed too (it names the component). Fora de Prumo's is still written by hand in
# openapi.yaml: declaring it is a line here (and its hand-written schema made a region).
STATES: dict[str, Declared] = {
    "architectura": [
        ("ArchitecturaState", arch_schema.StateDoc),
        ("Seat", arch_schema.SeatDoc),
        ("CityEntry", arch_schema.EntryDoc),
    ],
}

# Other documents declared as msgspec structs, by region (e.g. a game's catalog or set-up, now
# written by hand): a line here and the region's two marker lines in openapi.yaml.
DOCUMENTS: dict[str, Declared] = {}

# What the service adds to every state it answers (app/seal.py, app/history.py, app/position):
# optional fields after `game`, refused by the engines' readers.
ENVELOPE: Schema = {
    "seal": ref("Seal"),
    "lineage": ref("Lineage"),
    "history": ref("History"),
    "composed": ref("Composed"),
}

# What every event has besides its own fields: the clause it cites, the index of the decision
# that caused it (engine/protocol.py), and that decision in notation when asked (app/notation.py).
EVENT_TAIL: Schema = {
    "clause": {"type": "string"},
    "decision": integer(0),
    "notation": ref("DecisionNotation"),
}


def _camel(word: str) -> str:
    return "".join(part.capitalize() for part in word.split("_"))


def _object(kind: Kind, head: Schema, tail: Schema | None = None) -> Schema:
    """One kind's schema: the `head` fields first (all required), then its own."""
    tail = tail or {}
    props = head | kind.fields | tail
    required = [f for f in props if f not in kind.optional and f != "notation"]
    out: Schema = {"type": "object", "description": kind.description, "required": required}
    out["additionalProperties"] = False
    return out | kind.extra | {"properties": props}


def _union(description: str, names: dict[str, str]) -> Schema:
    """The discriminated union of the components `names` (type -> component)."""
    return {
        "description": description,
        "oneOf": [ref(n) for n in names.values()],
        "discriminator": {
            "propertyName": "type",
            "mapping": {t: ref(n)["$ref"] for t, n in names.items()},
        },
    }


def decisions(g: Game) -> dict[str, Schema]:
    declared: dict[str, Kind] = g.shapes.DECISIONS
    names = {t: f"{g.prefix}{_camel(t)}" for t in declared}
    out = {g.decision_union: _union(g.shapes.DECISIONS_DESCRIPTION, names)}
    for t, kind in declared.items():
        out[names[t]] = _object(kind, {"seat": SEAT, "type": const(t)})
    out[g.pending] = g.shapes.PENDING
    return out


def events(g: Game) -> dict[str, Schema]:
    declared: dict[str, Kind] = g.shapes.EVENTS
    names = {t: f"{g.prefix}{_camel(t)}Event" for t in declared}
    out = {g.event_union: _union(g.shapes.EVENTS_DESCRIPTION, names)}
    for t, kind in declared.items():
        out[names[t]] = _object(kind, {"type": const(t)}, EVENT_TAIL)
    return out


_ORDER = ("type", "description", "required", "additionalProperties", "properties")


def _tidy(schema: Any, names: dict[str, str]) -> Any:
    """msgspec's schema as the contract writes it: no titles, components by their names,
    the object's keywords first."""
    if isinstance(schema, list):
        return [_tidy(s, names) for s in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        target = schema["$ref"].rsplit("/", 1)[1]
        return ref(names.get(target, target))
    out = {k: _tidy(v, names) for k, v in schema.items() if k not in ("title", "properties")}
    if "properties" in schema:  # field names, not keywords
        out["properties"] = {k: _tidy(v, names) for k, v in schema["properties"].items()}
    return {k: out[k] for k in _ORDER if k in out} | out


def structs(declared: Declared, answered: bool = False) -> dict[str, Schema]:
    """The components of declared structs. In a document the engine answers (`answered`), a
    field whose default is None is one it always writes (null when it does not apply; its
    reader takes its absence as null): required here, as the contract describes answers."""
    _, components = msgspec.json.schema_components(
        [s for _, s in declared], ref_template="#/components/schemas/{name}"
    )
    names = {s.__name__: name for name, s in declared}
    unnamed = set(components) - set(names)
    if unnamed:
        raise ValueError(f"nested structs without a component name: {sorted(unnamed)}")
    out: dict[str, Schema] = {}
    for name, struct in declared:
        schema = components[struct.__name__]
        props = schema["properties"]
        required = schema.setdefault("required", [])
        for field, prop in props.items():
            if answered and prop.get("default", ...) is None:
                del prop["default"]
                required.append(field)
        required.sort(key=list(props).index)
        out[name] = _tidy(schema, names)
    return out


def state(game: str) -> dict[str, Schema]:
    """A game's state, and what the service adds to it (ENVELOPE) after `game`."""
    out = structs(STATES[game], answered=True)
    top = out[STATES[game][0][0]]
    first, *rest = top["properties"].items()
    top["properties"] = dict([first]) | ENVELOPE | dict(rest)
    return out


def view(g: Game) -> dict[str, Schema]:
    """A seat's view: the declared state without what the service adds, with the game's
    declared changes (shapes.VIEW) to it and to each seat."""
    declared: View = g.shapes.VIEW
    components = state(g.game)
    top = copy.deepcopy(components[STATES[g.game][0][0]])
    props = {k: v for k, v in top["properties"].items() if k not in ENVELOPE}
    seat_ref = props["seats"]["items"]["$ref"].rsplit("/", 1)[1]
    seat = copy.deepcopy(components[seat_ref])
    seat["properties"] |= declared.seat_fields
    seat["required"] = list(seat["properties"])
    props["seats"] = props["seats"] | {"items": seat}
    props |= declared.fields
    top |= {"description": declared.description, "required": list(props)}
    return {f"{g.prefix}PlayerView": top | {"properties": props}}


# Each region of openapi.yaml and what builds it.
REGIONS: dict[str, Callable[[], dict[str, Schema]]] = {
    "architectura decisions": lambda: decisions(GAMES["architectura"]),
    "architectura state": lambda: state("architectura"),
    "architectura view": lambda: view(GAMES["architectura"]),
    "architectura events": lambda: events(GAMES["architectura"]),
    "fora-de-prumo decisions": lambda: decisions(GAMES["fora-de-prumo"]),
    "fora-de-prumo events": lambda: events(GAMES["fora-de-prumo"]),
} | {region: (lambda d=declared: structs(d)) for region, declared in DOCUMENTS.items()}


class _Dumper(yaml.SafeDumper):
    """Block sequences indented under their key, as in the hand-written part; a shape used
    twice written twice (no anchors)."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _short(dumper: yaml.SafeDumper, value: Any) -> yaml.Node:
    """As in the hand-written part: a list of plain values on one line, and so any short
    collection; anything else one item a line."""
    if isinstance(value, list):
        flow = all(not isinstance(v, dict | list) for v in value) or len(str(value)) <= 90
        return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)
    flow = len(str(value)) <= 90
    return dumper.represent_mapping("tag:yaml.org,2002:map", value, flow_style=flow)


_Dumper.add_representer(str, _str)
_Dumper.add_representer(dict, _short)
_Dumper.add_representer(list, _short)


def render(components: dict[str, Schema], indent: str = "    ") -> str:
    """The components as YAML lines at the schemas' indentation (collections of plain values
    on one line, as in the hand-written part)."""
    text = yaml.dump(
        components,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=10**6,
    )
    return "".join(indent + line if line.strip() else line for line in text.splitlines(True))


def _marker(start: bool, region: str) -> str:
    if start:
        return f"    # >>> generated: {region} (scripts/contract.sh; edit the declarations)\n"
    return f"    # <<< generated: {region}\n"


def generate(text: str) -> str:
    """`text` (openapi.yaml) with every generated region built anew."""
    for region, build in REGIONS.items():
        start, end = _marker(True, region), _marker(False, region)
        pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
        found = list(pattern.finditer(text))
        if len(found) != 1:
            raise ValueError(f"openapi.yaml: no single region {region!r} (its marker lines)")
        a, b = found[0].span()
        text = text[:a] + start + render(build()) + end + text[b:]
    return text


def main(argv: list[str], spec: Path = SPEC) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print(__doc__, file=sys.stderr)
        return 2
    old = spec.read_text(encoding="utf-8")
    new = generate(old)
    if not check:
        if new != old:
            spec.write_text(new, encoding="utf-8")
        return 0
    if new == old:
        return 0
    diff = difflib.unified_diff(
        old.splitlines(True), new.splitlines(True), "openapi.yaml", "generated"
    )
    sys.stdout.writelines(diff)
    print("openapi.yaml differs from the declarations: run `bash scripts/contract.sh`")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
