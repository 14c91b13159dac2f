"""A catalog's words hold only characters a reader can show (engine/text.py; A-10, F-2.1):
a control character, U+FFFE/U+FFFF or a bidi control in a name, and any of them but tabs
and line breaks in a longer text, is refused with `catalog_value` at its field, by the typed
conversion and the field-by-field walk alike."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.architectura import catalog_schema
from engine.declared import convert
from engine.errors import CatalogError
from engine.fora_de_prumo import schema as fdp_schema
from engine.games import engine
from engine.text import is_line, is_text

ARCH, FDP = engine("architectura"), engine("fora-de-prumo")
UNSHOWN = ["\x00", "\x01", "\x0b", "\x1b", "\x7f", "\x85", "\u202e", "\u2067", "\ufffe", "\uffff"]
UNSHOWN += ["\u200e", "\u200f", "\u061c"]  # the bidi marks (audit of 2026-11-29)
BREAKS = ["\t", "\n", "\r", "\u2028", "\u2029"]

# (game, its typed document, where a field is in the reference catalog, a name?, the
# problem's code and pointer: a card's text and translated names are refused as a whole, as
# a text too long or a name map with a fourth language are)
ARCH_DOC, FDP_DOC = catalog_schema.CatalogDoc, fdp_schema.CatalogDoc
FIELDS = [
    (ARCH, ARCH_DOC, ("name",), True, "catalog_value", "/name"),
    (ARCH, ARCH_DOC, ("provenance",), False, "catalog_value", "/provenance"),
    (ARCH, ARCH_DOC, ("cards", 5, "name"), True, "catalog_value", "/cards/5/name"),
    (ARCH, ARCH_DOC, ("cards", 5, "names", "pt"), True, "catalog_value", "/cards/5/names"),
    (ARCH, ARCH_DOC, ("cards", 20, "text"), False, "catalog_type", "/cards/20/text"),
    (FDP, FDP_DOC, ("name",), True, "catalog_value", "/name"),
    (FDP, FDP_DOC, ("provenance",), False, "catalog_value", "/provenance"),
    (FDP, FDP_DOC, ("cards", 7, "name"), True, "catalog_value", "/cards/7/name"),
    (FDP, FDP_DOC, ("cards", 7, "gloss"), True, "catalog_value", "/cards/7/gloss"),
]


def with_text(eng: Any, where: tuple[Any, ...], text: str) -> dict[str, Any]:
    doc: dict[str, Any] = copy.deepcopy(eng.builtin_catalogs()["reference"].to_json())
    doc["id"] = "words"
    node: Any = doc
    for key in where[:-1]:
        node = node.setdefault(key, {}) if key == "names" else node[key]
    node[where[-1]] = text
    return doc


@pytest.mark.parametrize(
    "eng, cls, where, name, code, pointer",
    FIELDS,
    ids=[f"{f[0].INFO.id}:{'/'.join(map(str, f[2]))}" for f in FIELDS],
)
def test_a_character_no_reader_can_show_is_refused_at_its_field(
    eng: Any, cls: type, where: tuple[Any, ...], name: bool, code: str, pointer: str
) -> None:
    refused = UNSHOWN + (BREAKS if name else [])
    for ch in refused:
        doc = with_text(eng, where, f"Casa{ch}Torta")
        assert convert(doc, cls) is None, repr(ch)  # the typed path refuses it too
        with pytest.raises(CatalogError) as e:
            eng.load_catalog(doc)
        first = e.value.problems[0]
        assert (first.code, first.pointer) == (code, pointer)
        assert "without control characters" in first.detail
    for ok in ["Casa Torta", "Ação à Deriva", "Brücke 橋"] + (
        [] if name else ["Linha 1\n\tLinha 2\r\n", "a\u2028b"]
    ):
        doc = with_text(eng, where, ok)
        assert convert(doc, cls) is not None
        assert eng.load_catalog(doc).to_json() == doc


def test_the_two_kinds_of_text() -> None:
    assert is_line("Villa") and is_text("Villa") and is_line("") and is_text("")
    assert not is_line("a\n") and is_text("a\n")  # a final line break is a line break
    assert all(not is_line(ch) and not is_text(ch) for ch in UNSHOWN)
