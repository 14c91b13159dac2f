"""The declared documents (engine/declared.py, each game's schema.py): each is the shape its
game writes, and each gives a JSON schema (for the contract)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from readers_oracle import fdp_states

import engine.architectura as arch
import engine.architectura.schema as arch_schema
import engine.fora_de_prumo as fdp
import engine.fora_de_prumo.schema as fdp_schema


@pytest.mark.parametrize("schema", [arch_schema, fdp_schema])
def test_every_document_gives_a_json_schema(schema: Any) -> None:
    assert set(schema.DOCUMENTS) == {"state", "setup", "catalog"}
    for cls in schema.DOCUMENTS.values():
        out = msgspec.json.schema(cls)
        assert cls.__name__ in json.dumps(out)


def _keys(cls: type[msgspec.Struct]) -> set[str]:
    return {f.encode_name for f in msgspec.structs.fields(cls)}


def test_the_declared_state_is_the_written_state() -> None:
    """Every field Fora de Prumo's writer writes is declared, and every one declared is
    written."""
    for state in fdp_states()[::4]:
        assert set(state) == _keys(fdp_schema.StateDoc)
        assert set(state["turn"]) == _keys(fdp_schema.TurnDoc)
        assert set(state["catalog"]) == _keys(fdp_schema.CatalogRefDoc)
        for seat in state["seats"]:
            assert set(seat) == _keys(fdp_schema.SeatDoc)
            assert set(seat["work"]) == _keys(fdp_schema.WorkDoc)
            for entry in seat["work"]["building"]:
                assert set(entry) == _keys(fdp_schema.PlacementDoc)


@pytest.mark.parametrize("game, schema", [(arch, arch_schema), (fdp, fdp_schema)])
def test_the_reference_catalog_and_the_set_up_fields_are_declared(game: Any, schema: Any) -> None:
    """The shipped catalog converts (the typed path reads it) and the set-up's declared fields
    are the game's SETUP_KEYS."""
    doc = game.builtin_catalogs()["reference"].to_json()
    assert msgspec.convert(doc, schema.DOCUMENTS["catalog"]) is not None
    assert set(game.SETUP_KEYS) == _keys(schema.SetupDoc)
