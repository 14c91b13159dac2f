"""openapi.yaml's per-game schemas are what the code declares (app/contract.py): `bash
scripts/contract.sh --check` passes on the tree and fails, with a diff, on a hand edit of a
generated region; every event kind the engines' flow code writes is declared, with no field
beyond its declaration. (That every decision and event of random games validates against the
generated schemas is tests/http/test_schemas_per_type.py.)"""

from __future__ import annotations

import ast
import copy
import json
import re
import subprocess
from pathlib import Path
from typing import Annotated, Any

import msgspec
import pytest
from http_support import schema_errors

from app import contract
from engine.architectura import shapes as arch_shapes
from engine.architectura.serialize import DECISION_TYPES
from engine.errors import EngineError
from engine.fora_de_prumo import shapes as fdp_shapes
from engine.fora_de_prumo.serialize import DECISION_FIELDS
from engine.games import engine, info
from engine.shapes import Kind

ROOT = Path(__file__).resolve().parents[2]

# The modules that write each game's events, and each game's declared events.
EVENT_WRITERS = [
    (["engine/architectura/flow.py", "engine/architectura/city.py"], arch_shapes.EVENTS),
    (["engine/fora_de_prumo/flow.py"], fdp_shapes.EVENTS),
]


def test_the_contract_check_passes_on_the_tree() -> None:
    run = subprocess.run(
        ["bash", "scripts/contract.sh", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_hand_edit_of_a_generated_region_is_found_and_undone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "openapi.yaml"
    text = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    edited = text.replace("A-7.4: restore a face-down card.", "A-7.4: restore any card.", 1)
    assert edited != text
    spec.write_text(edited, encoding="utf-8")
    assert contract.main(["--check"], spec) == 1
    said = capsys.readouterr().out
    assert "-      description: 'A-7.4: restore any card.'" in said
    assert "+      description: 'A-7.4: restore a face-down card.'" in said
    assert contract.main([], spec) == 0
    assert spec.read_text(encoding="utf-8") == text
    assert contract.main(["--check"], spec) == 0


def test_a_missing_or_stray_region_is_an_error() -> None:
    text = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    start = contract._marker(True, "architectura events")
    with pytest.raises(ValueError, match="architectura events"):
        contract.generate(text.replace(start, ""))
    stray = contract._marker(True, "no such region")
    with pytest.raises(ValueError, match="no such region"):
        contract.generate(text.replace(start, stray + start))


def test_every_registered_game_with_declarations_has_its_regions() -> None:
    """The games are found through the registry (app/ names none)."""
    assert set(contract.contracts()) == {"architectura", "fora-de-prumo"}
    assert set(contract.regions()) == {
        "architectura decisions",
        "architectura state",
        "architectura view",
        "architectura events",
        "architectura set-up",
        "architectura catalog",
        "fora-de-prumo decisions",
        "fora-de-prumo state",
        "fora-de-prumo view",
        "fora-de-prumo events",
        "fora-de-prumo set-up",
        "fora-de-prumo catalog",
    }


# Each game's per-game schemas the paths name (issue 17, item 3): none written by hand.
PER_GAME = [
    "ArchitecturaState",
    "ArchitecturaPlayerView",
    "Decision",
    "Event",
    "Setup",
    "ArchitecturaCatalogDocument",
    "ForaDePrumoState",
    "ForaDePrumoPlayerView",
    "ForaDePrumoDecision",
    "ForaDePrumoEvent",
    "ForaDePrumoSetup",
    "ForaDePrumoCatalogDocument",
]


def test_every_per_game_schema_and_what_it_names_is_generated() -> None:
    """States, views, decisions, events, set-ups and catalogs: each component is built by a
    region, and so is every per-game component it names, but the few named shapes the
    declarations refer to (card ids and names, cells, suits, the catalog spec)."""
    generated: dict[str, Any] = {}
    for build in contract.regions().values():
        generated |= build()
    written = {"CardName", "Cell", "CatalogSpec", "ForaDePrumoCatalogSpec", "ForaDePrumoCardId"}
    written |= {"ForaDePrumoCards", "ForaDePrumoSuit", "ForaDePrumoAbility", "ForaDePrumoSource"}
    written |= {"Seal", "Lineage", "History", "Composed", "DecisionNotation", "Scores"}
    written |= {"ForaDePrumoScores"}
    todo, seen = list(PER_GAME), set()
    while todo:
        name = todo.pop()
        if name in seen or name in written:
            continue
        seen.add(name)
        assert name in generated, name
        todo += re.findall(r"#/components/schemas/(\w+)", json.dumps(generated[name]))
    assert {"ForaDePrumoSpaceCard", "ForaDePrumoCardsObjective"} <= seen
    # Architectura's cards are any objects in the contract (as the hand-written one had them:
    # catalog_schema.CatalogDoc.contract_extra); their shapes are components all the same
    assert {"ArchitecturaBasicCard", "ArchitecturaRotateOp"} <= set(generated)


def test_the_built_in_catalogs_and_set_ups_are_valid_under_their_generated_schemas() -> None:
    """What each engine ships and deals validates against the components generated from its
    readers' declarations; what the reader refuses for its shape, the schema refuses too."""
    for game, setup, document in [
        ("architectura", "Setup", "ArchitecturaCatalogDocument"),
        ("fora-de-prumo", "ForaDePrumoSetup", "ForaDePrumoCatalogDocument"),
    ]:
        eng = engine(game)
        for cat in eng.builtin_catalogs().values():
            doc = cat.to_json()
            assert schema_errors(document, doc) == [], game
            if game == "architectura":  # its cards' own components
                for card in doc["cards"]:
                    kind = f"Architectura{card['kind'].capitalize()}Card"
                    assert schema_errors(kind, card) == [], card["id"]
            broken = copy.deepcopy(doc)
            broken["cards"][0]["colour"] = "mauve"  # no card of either game has one
            assert schema_errors(document, broken) or game == "architectura"
            with pytest.raises(EngineError):
                eng.get_catalog(broken)
            broken = copy.deepcopy(doc) | {"id": "Not an id"}
            assert schema_errors(document, broken), game
            with pytest.raises(EngineError):
                eng.get_catalog(broken)
        for n in info(game).seats:
            assert schema_errors(setup, eng.tournament_setup(3, n, None) | {"game": game}) == []
        bad = {"game": game, "seats": 2, "seed": 1, "first_seat": 2}  # a seat of no game of 2
        assert schema_errors(setup, bad)
        with pytest.raises(EngineError):
            eng.new_game(bad)


def test_the_decision_declarations_are_the_decision_type_tables() -> None:
    for declared, table in [
        (arch_shapes.DECISIONS, DECISION_TYPES),
        (fdp_shapes.DECISIONS, DECISION_FIELDS),
    ]:
        assert list(declared) == list(table)
        for t, kind in declared.items():
            assert tuple(kind.fields) == table[t], t


def _written_events(path: str) -> dict[str, set[str]]:
    """Each event type a module writes (a dict literal with a constant `type`, or a
    cell_event call) and the constant keys written with it."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    found: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            values = dict(zip(node.keys, node.values, strict=True))
            typ = next((v for k, v in values.items() if _is(k, "type")), None)
            if isinstance(typ, ast.Constant) and isinstance(typ.value, str):
                found.setdefault(typ.value, set()).update(keys)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "cell_event":
            kind = node.args[1]
            assert isinstance(kind, ast.Constant), ast.unparse(node)
            found.setdefault(kind.value, set()).update({"type", "card", "cell", "clause"})
    return found


def _is(key: Any, name: str) -> bool:
    return isinstance(key, ast.Constant) and key.value == name


@pytest.mark.parametrize("paths,declared", EVENT_WRITERS, ids=["architectura", "fora-de-prumo"])
def test_every_event_the_flow_writes_is_declared(
    paths: list[str], declared: dict[str, Kind]
) -> None:
    written: dict[str, set[str]] = {}
    for path in paths:
        for t, keys in _written_events(path).items():
            written.setdefault(t, set()).update(keys)
    assert set(written) == set(declared)
    for t, keys in written.items():
        assert keys <= {"type", "clause", *declared[t].fields}, t


class _Part(msgspec.Struct, forbid_unknown_fields=True):
    n: Annotated[int, msgspec.Meta(ge=0)]


class _Doc(msgspec.Struct, forbid_unknown_fields=True):
    """A document."""

    part: _Part
    note: str | None = None
    size: int = 5


def test_a_declared_struct_becomes_its_components() -> None:
    """A catalog or set-up (DOCUMENTS): fields with defaults optional; in a state the engine
    answers, a None default is always written (required); a nested struct needs its name."""
    doc = contract.structs([("Doc", _Doc), ("Part", _Part)])
    assert doc["Doc"]["description"] == "A document."
    assert doc["Doc"]["required"] == ["part"]
    assert doc["Doc"]["additionalProperties"] is False
    assert doc["Doc"]["properties"]["part"] == {"$ref": "#/components/schemas/Part"}
    assert doc["Part"]["properties"]["n"] == {"type": "integer", "minimum": 0}
    answered = contract.structs([("Doc", _Doc), ("Part", _Part)], answered=True)
    assert answered["Doc"]["required"] == ["part", "note"]
    with pytest.raises(ValueError, match="_Part"):
        contract.structs([("Doc", _Doc)])


def test_the_state_has_the_services_envelope_and_the_view_is_the_state_seen() -> None:
    state = contract.state(arch_shapes.CONTRACT)["ArchitecturaState"]
    assert list(state["properties"])[:5] == ["game", "seal", "lineage", "history", "composed"]
    assert not {"seal", "lineage", "history", "composed"} & set(state["required"])
    view = contract.view(arch_shapes.CONTRACT)["ArchitecturaPlayerView"]
    assert "seal" not in view["properties"] and view["required"][-1] == "view_of"
    assert view["properties"]["rng"] == {"type": "null"}
    seat = view["properties"]["seats"]["items"]
    assert seat["properties"]["deck"] == {"type": "null"}
    assert {"deck_count", "hand_count", "unseen", "tokens"} <= set(seat["required"])


def test_two_regions_never_build_one_component(monkeypatch: pytest.MonkeyPatch) -> None:
    """A declared state struct named as a decision (ForaDePrumoClone) would silently replace it
    (YAML keeps the last of two keys): generating refuses."""
    built = contract.regions()
    clash = {**built, "a clash": lambda: {"ForaDePrumoClone": {"type": "object"}}}
    monkeypatch.setattr(contract, "regions", lambda: clash)
    text = contract.SPEC.read_text(encoding="utf-8")
    text = text.replace(
        "    # <<< generated: fora-de-prumo events\n",
        "    # <<< generated: fora-de-prumo events\n"
        "    # >>> generated: a clash (scripts/contract.sh; edit the declarations)\n"
        "    # <<< generated: a clash\n",
    )
    with pytest.raises(ValueError, match="ForaDePrumoClone"):
        contract.generate(text)
