"""Every untrusted document is read as it was before its shape was declared: over valid
documents and hundreds of mutations of each (tests/readers_oracle.py), both games' states,
catalogs and set-ups give the same result, or the same problems (codes, pointers, clauses,
details, order), as the answers the hand-written readers gave (tests/data/readers_golden.json)."""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest
from readers_oracle import GOLDEN, answer, cases

CASES = cases()
EXPECTED: dict[str, list[Any]] = json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("kind", sorted(CASES))
def test_mutated_documents_are_answered_as_before(kind: str) -> None:
    expected = EXPECTED[kind]
    assert len(CASES[kind]) == len(expected)
    for i, ((doc, read), want) in enumerate(zip(CASES[kind], expected, strict=True)):
        got = answer(read)
        assert got == want, f"{kind} case {i}: {json.dumps(doc)[:300]}"
    refused = sum(1 for a in expected if "error" in a)
    assert 0.5 * len(expected) < refused < len(expected)  # valid and broken documents alike


def test_the_cases_reach_every_document_kind() -> None:
    assert (
        set(CASES)
        == set(EXPECTED)
        == {
            f"{game}_{doc}"
            for game in ("arch", "fdp")
            for doc in ("state", "catalog", "setup", "setup_catalog")
        }
    )


@pytest.mark.parametrize(
    "kind, module",
    [
        ("arch_state", "engine.architectura.serialize"),
        ("fdp_state", "engine.fora_de_prumo.serialize"),
        ("fdp_catalog", "engine.fora_de_prumo.catalog"),
        ("fdp_setup_catalog", "engine.fora_de_prumo.catalog"),
        ("arch_catalog", "engine.architectura.catalog"),
        ("arch_setup_catalog", "engine.architectura.catalog"),
        ("arch_setup", "engine.architectura.setup"),
        ("fdp_setup", "engine.fora_de_prumo.setup"),
    ],
)
def test_the_walk_answers_as_the_typed_conversion(
    kind: str, module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forcing the node-by-node walk on every document, valid ones too, gives the same
    answers: the typed path accepts nothing the walk would refuse, and reads alike."""
    for forced in (module, "engine.declared"):
        monkeypatch.setattr(importlib.import_module(forced), "convert", lambda data, cls: None)
    for i, ((_, read), want) in enumerate(zip(CASES[kind], EXPECTED[kind], strict=True)):
        assert answer(read) == want, f"{kind} case {i}"


@pytest.mark.parametrize("module", ["engine.fora_de_prumo.catalog", "engine.architectura.catalog"])
def test_a_well_formed_catalog_is_read_without_the_walk(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reference catalog, and every valid mutation of it, is built from its typed
    conversion: the field-by-field reading is only for the documents that fail it."""
    mod = importlib.import_module(module)

    def walked(doc: Any) -> Any:
        raise AssertionError("walked")

    kind = "fdp_catalog" if "fora" in module else "arch_catalog"
    monkeypatch.setattr(mod, "_walked", walked)
    for (_, read), want in zip(CASES[kind], EXPECTED[kind], strict=True):
        if "ok" in want:
            assert answer(read) == want
