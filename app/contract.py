"""openapi.yaml's per-game schemas, generated from what the code declares.

    bash scripts/contract.sh          # rewrite the generated regions of openapi.yaml
    bash scripts/contract.sh --check  # exit 1, with a diff, when they differ from the code

The rest of openapi.yaml (paths, common components, prose) is written by hand. Each generated
region lies between a line `# >>> generated: <region> ...` and a line `# <<< generated:
<region>` among the components' schemas, and holds the components that `regions()` builds
from each registered game's declarations (`CONTRACT` in engine/<game>/shapes.py, reached
through the registry: nothing here names a game):
- decisions: one schema per entry of the game's decision-type table, its fields' shapes and
  meaning declared, their discriminated union, and the decision a state waits for;
- events: one schema per event kind declared, and their union;
- state: from the game's msgspec structs, through `msgspec.json.schema_components` (a
  struct's docstring is its description); view: from them and the declared changes;
- other documents declared as msgspec structs (catalogs, set-ups): likewise, by region.
"""

from __future__ import annotations

import copy
import difflib
import importlib
import inspect
import re
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import msgspec
import yaml

from engine.games import GAMES
from engine.registry import registered
from engine.shapes import SEAT, Contract, Declared, Kind, Schema, const, integer, ref

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "openapi.yaml"


def contracts() -> dict[str, Contract]:
    """Each registered game's declarations (`CONTRACT` of its package's `shapes` module),
    reached through the registry; a game without one (a test's toy game) has none here."""
    out = {}
    for game in GAMES:
        try:
            shapes = importlib.import_module(registered()[game].module.__name__ + ".shapes")
        except ModuleNotFoundError:
            continue
        out[game] = shapes.CONTRACT
    return out


# What the service adds to every state it answers (app/seal.py: seal, lineage; app/history.py:
# history, or composed for a state built from a position): optional fields after `game`.
ENVELOPE: Schema = {
    "seal": ref("Seal"),
    "lineage": ref("Lineage"),
    "history": ref("History"),
    "composed": ref("Composed"),
}

# What every event has besides its own fields: the clause it cites, the index of the decision
# that caused it (engine/protocol.py), and that decision in notation when asked (app/notation.py,
# the one optional field).
EVENT_TAIL = Kind(
    "",
    {"clause": {"type": "string"}, "decision": integer(0), "notation": ref("DecisionNotation")},
    optional=("notation",),
)


def _camel(word: str) -> str:
    return "".join(part.capitalize() for part in word.split("_"))


def _object(kind: Kind, head: Schema, tail: Kind | None = None) -> Schema:
    """One kind's schema: the `head` fields first (all required), then its own, then the
    `tail` fields that every kind of its union has."""
    tail = tail or Kind("")
    props = head | kind.fields | tail.fields
    required = [f for f in props if f not in kind.optional + tail.optional]
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


def decisions(c: Contract) -> dict[str, Schema]:
    names = {t: f"{c.prefix}{_camel(t)}" for t in c.decisions}
    out = {c.decision_union: _union(c.decisions_description, names)}
    for t, kind in c.decisions.items():
        out[names[t]] = _object(kind, {"seat": SEAT, "type": const(t)})
    out[c.pending_name] = c.pending
    return out


def events(c: Contract) -> dict[str, Schema]:
    names = {t: f"{c.prefix}{_camel(t)}Event" for t in c.events}
    out = {c.event_union: _union(c.events_description, names)}
    for t, kind in c.events.items():
        out[names[t]] = _object(kind, {"type": const(t)}, EVENT_TAIL)
    return out


_ORDER = ("type", "description", "required", "additionalProperties", "properties")


def _renamed(pointer: str, names: dict[str, str]) -> str:
    """A component's name in the contract, from msgspec's pointer to it."""
    target = pointer.rsplit("/", 1)[1]
    return names.get(target, target)


def _tidy(schema: Any, names: dict[str, str]) -> Any:
    """msgspec's schema as the contract writes it: no titles, components by their names,
    the object's keywords first, and a pattern's Python end anchor `\\Z` as ECMA-262's `$`
    (which, unlike Python's, never matches before a final newline)."""
    if isinstance(schema, list):
        return [_tidy(s, names) for s in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:  # with what a field declares beside it (its meaning, its default)
        named = ref(_renamed(schema["$ref"], names))
        beside = {k: schema[k] for k in ("description", "default") if k in schema}
        return {"allOf": [named]} | beside if beside else named
    out = {k: _tidy(v, names) for k, v in schema.items() if k not in ("title", "properties")}
    if isinstance(out.get("pattern"), str) and out["pattern"].endswith("\\Z"):
        out["pattern"] = out["pattern"][:-2] + "$"
    if "properties" in schema:  # field names, not keywords
        out["properties"] = {k: _tidy(v, names) for k, v in schema["properties"].items()}
    if "mapping" in schema.get("discriminator", {}):  # a tagged union's members, by name
        mapping = schema["discriminator"]["mapping"].items()
        out["discriminator"]["mapping"] = {t: ref(_renamed(r, names))["$ref"] for t, r in mapping}
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
        if "description" in schema:  # a docstring: its continuation lines not indented
            schema["description"] = inspect.cleandoc(schema["description"])
        out[name] = _extended(_tidy(schema, names), getattr(struct, "contract_extra", {}))
    return out


def _extended(component: Schema, extra: Schema) -> Schema:
    """A struct's component with what the struct declares for the contract alone
    (`contract_extra`): its keys added or replaced, its `properties` field by field."""
    fields = extra.get("properties", {})
    out = component | {k: v for k, v in extra.items() if k != "properties"}
    if fields:
        out["properties"] = component["properties"] | fields
    return out


def state(c: Contract) -> dict[str, Schema]:
    """A game's state, and what the service adds to it (ENVELOPE) after `game`."""
    out = structs(c.state, answered=True)
    top = out[c.state[0][0]]
    first, *rest = top["properties"].items()
    top["properties"] = dict([first]) | ENVELOPE | dict(rest)
    return out


def view(c: Contract) -> dict[str, Schema]:
    """A seat's view: the declared state without what the service adds, with the game's
    declared changes (its contract's `view`) to it and to each seat."""
    declared = c.view
    assert declared is not None
    components = state(c)
    top = copy.deepcopy(components[c.state[0][0]])
    props = {k: v for k, v in top["properties"].items() if k not in ENVELOPE}
    seat_ref = props["seats"]["items"]["$ref"].rsplit("/", 1)[1]
    seat = copy.deepcopy(components[seat_ref])
    seat["properties"] |= declared.seat_fields
    seat["required"] = list(seat["properties"])
    props["seats"] = props["seats"] | {"items": seat}
    props |= declared.fields
    top |= {"description": declared.description, "required": list(props)}
    return {f"{c.prefix}PlayerView": top | {"properties": props}}


Build = Callable[[], dict[str, Schema]]


def regions() -> dict[str, Build]:
    """Each region of openapi.yaml, by name, and what builds it: for every game, its
    decisions and events; its state and view once declared; its other declared documents."""
    out: dict[str, Build] = {}
    for game, c in contracts().items():
        out[f"{game} decisions"] = partial(decisions, c)
        if c.state:
            out[f"{game} state"] = partial(state, c)
        if c.view is not None:
            out[f"{game} view"] = partial(view, c)
        out[f"{game} events"] = partial(events, c)
        for region, declared in c.documents.items():
            out[region] = partial(structs, declared)
    return out


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
    built = regions()
    stray = set(re.findall(r"^    # >>> generated: (.+?) \(", text, re.M)) - set(built)
    if stray:
        raise ValueError(f"openapi.yaml: regions that nothing builds: {sorted(stray)}")
    owner: dict[str, str] = {}  # component name -> the region that builds it
    for region, build in built.items():
        components = build()
        for name in components:
            if owner.setdefault(name, region) != region:
                raise ValueError(f"component {name!r} is built by {owner[name]!r} and {region!r}")
        start, end = _marker(True, region), _marker(False, region)
        pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
        found = list(pattern.finditer(text))
        if len(found) != 1:
            raise ValueError(f"openapi.yaml: no single region {region!r} (its marker lines)")
        a, b = found[0].span()
        text = text[:a] + start + render(components) + end + text[b:]
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
