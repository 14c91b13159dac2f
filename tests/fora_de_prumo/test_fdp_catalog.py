"""Fora de Prumo catalogs: the reference catalog is F-10 exactly (F-1.2 counts), and the loader
refuses every malformed document with a listed problem and a pointer (F-2.8)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import CatalogError
from engine.fora_de_prumo.catalog import (
    ABILITIES,
    MEASURES,
    SUIT_OF_CODE,
    SUITS,
    TYPES,
    builtin_catalogs,
    load_catalog,
)
from engine.fora_de_prumo.notation import BARE_WORDS, from_notation, to_notation

# F-10 transcribed (rows copied from the rule text): the JSON must say exactly this.
F10_SPACES = """
| SP01 | Salão multiuso (multipurpose hall) | I | 2 | joker (all four) | `DDWYWW` | 3 |  |
| SP02 | Dormitório (bedroom) | I | 2 | conforto (P) | `WWWWGD` | 2 | name |
| SP03 | Sala de aula (classroom) | I | 2 | atividades (Y) | `YYDWWD` | 4 | name |
| SP04 | Jardim (garden) | I | 2 | exteriores (G) | `DWWPDD` | 4 |  |
| SP05 | Corredor (corridor) | I | 2 | circulações (B) | `WDWDWG` | 3 |  |
| SP06 | Galpão (shed) | I | 3 | joker (all four) | `WDBWWD` | 3 |  |
| SP07 | Cozinha (kitchen) | I | 4 | atividades (Y) | `WPWDWB` | 3 |  |
| SP08 | Banheiro (bathroom) | I | 4 | conforto (P) | `WWWWDW` | 1 |  |
| SP09 | Auditório (auditorium) | II | 2 | atividades (Y) | `WWPBDW` | 3 | name |
| SP10 | Bar (bar) | II | 2 | conforto (P) | `DWDDPW` | 4 | name |
| SP11 | Vestiários (changing rooms) | II | 2 | circulações (B) | `DDWGWW` | 3 | name |
| SP12 | Galerias (arcades) | II | 2 | exteriores (G) | `WBDDDW` | 4 | name |
| SP13 | Oficina (workshop) | II | 4 | atividades (Y) | `DWGWYW` | 3 |  |
| SP14 | Sala de estar (living room) | II | 4 | conforto (P) | `GDWWPD` | 4 |  |
| SP15 | Escadaria (staircase) | II | 3 | circulações (B) | `WWYWWB` | 2 |  |
| SP16 | Varanda (veranda) | II | 3 | exteriores (G) | `DDWWWP` | 3 |  |
| SP17 | Estação (station) | III | 2 | circulações (B) | `BWDWDW` | 3 | name |
| SP18 | Biblioteca (library) | III | 2 | atividades (Y) | `WYWWBW` | 2 |  |
| SP19 | Spa (spa) | III | 2 | conforto (P) | `GWWWDP` | 3 |  |
| SP20 | Praça (plaza) | III | 2 | exteriores (G) | `DDYDDW` | 5 |  |
| SP21 | Laboratório (laboratory) | III | 3 | atividades (Y) | `WYDBWW` | 3 |  |
| SP22 | Suíte (suite) | III | 3 | conforto (P) | `WWPWWG` | 2 |  |
| SP23 | Passarela (footbridge) | III | 4 | circulações (B) | `WWGWWY` | 2 |  |
| SP24 | Terraço (roof terrace) | III | 4 | exteriores (G) | `DPWWDW` | 3 |  |
"""
F10_MATERIALS = """
| MA01 | Pedra (stone) | II | 2 | exteriores (G) | +2 |
| MA02 | Bambu (bamboo) | II | 2 | conforto (P) | +2 |
| MA03 | Granito (granite) | II | 2 | circulações (B) | +2 |
| MA04 | Tijolo (brick) | II | 2 | atividades (Y) | +2 |
| MA05 | Vidro (glass) | III | 2 | exteriores (G) | +4 |
| MA06 | Madeira (timber) | III | 2 | conforto (P) | +4 |
| MA07 | Concreto (concrete) | III | 2 | circulações (B) | +4 |
| MA08 | Aço (steel) | III | 2 | atividades (Y) | +4 |
"""
F10_PEOPLE = """
| PE01 | Coordenadora (coordinator) | I | 2 | `coordenadora` (F-6.1) | name, phase, ability |
| PE02 | Engenheiro (engineer) | I | 2 | `engenheiro` (F-6.2) | name, phase, ability |
| PE03 | Designer de interiores (interior designer) | I | 2 | `designer_de_interiores` (F-6.3) | name, phase, ability |
| PE04 | Paisagista (landscape architect) | I | 2 | `paisagista` (F-6.4) | name, phase, ability |
| PE05 | Equipe de obras (construction crew) | II | 2 | `equipe_de_obras` (F-6.5) | name, phase, ability |
| PE06 | Teórica (theorist) | II | 2 | `teorica` (F-6.6) | name, phase, ability |
| PE07 | Urbanista (urban planner) | II | 2 | `urbanista` (F-6.7) | name, phase, ability |
| PE08 | Arquiteta (architect) | III | 2 | `arquiteta` (F-6.8) | name, phase, ability |
| PE09 | Estagiário (intern) | III | 2 | `estagiario` (F-6.9) | name, phase, ability |
"""
F10_CONCEPTS = """
| CO01 | Funcional (functional) | I | 2 | most atividades spaces | `spaces`, suit atividades | 3 | name, 3/connection |
| CO02 | Acolhedora (welcoming) | I | 2 | most conforto spaces | `spaces`, suit conforto | 3 |  |
| CO03 | Fluida (flowing) | I | 3 | most circulações spaces | `spaces`, suit circulacoes | 3 |  |
| CO04 | Aberta (open) | I | 4 | most exteriores spaces | `spaces`, suit exteriores | 3 |  |
| CO05 | Variada (varied) | II | 2 | most different types of qualified connection | `qualified_types` | 3 | name, 3/connection |
| CO06 | Minuciosa (meticulous) | II | 2 | most project cards | `cards`, type project | 3 | name, 3/connection |
| CO07 | Integrada (integrated) | III | 2 | most connections | `connections` | 3 |  |
| CO08 | Coerente (coherent) | III | 3 | most qualifications (a doubly qualified connection counts 2) | `qualified` | 3 |  |
| CO09 | Permeável (permeable) | III | 4 | most street doors | `street_doors` | 3 |  |
"""
F10_PROJECTS = """
| PR01 | Croquis (sketches) | I | 2 | +1 | name, phase, value |
| PR02 | Levantamento (site survey) | I | 2 | +1 | name, phase, value |
| PR03 | Programa de necessidades (brief) | I | 2 | +1 |  |
| PR04 | Estudo de viabilidade (feasibility study) | I | 3 | +1 |  |
| PR05 | Estudo preliminar (preliminary design) | I | 4 | +1 |  |
| PR06 | Projeto executivo (construction documents) | II | 2 | +1 | name, phase, value |
| PR07 | Anteprojeto (design development) | II | 3 | +1 |  |
| PR08 | Projeto legal (permit drawings) | II | 4 | +1 |  |
| PR09 | Compatibilização (coordination) | II | 4 | +2 |  |
| PR10 | Modelagem (modelling) | III | 2 | +1 | name, phase, value |
| PR11 | As built (as-built record) | III | 2 | +1 | name, value |
| PR12 | Detalhamento (detailing) | III | 3 | +2 |  |
"""
PHASE = {"I": 1, "II": 2, "III": 3}
SUIT_WORD = {
    "exteriores": "exteriores",
    "conforto": "conforto",
    "circulações": "circulacoes",
    "atividades": "atividades",
}


def rows(table: str) -> list[list[str]]:
    return [
        [c.strip() for c in line.strip().strip("|").split("|")]
        for line in table.strip().splitlines()
    ]


def name_gloss(cell: str) -> tuple[str, str]:
    name, gloss = cell[:-1].split(" (", 1)
    return name, gloss


@pytest.fixture(scope="module")
def ref() -> Any:
    return builtin_catalogs()["reference"]


def ref_doc() -> dict[str, Any]:
    return copy.deepcopy(builtin_catalogs()["reference"].to_json())


def test_F_10_reference_catalog_is_the_rule_text_card_by_card(ref: Any) -> None:
    expected: dict[str, dict[str, Any]] = {}
    for cid, _nm, _ph, _mn, suit, slots, doors, _ in rows(F10_SPACES):
        suits = set(SUITS) if suit.startswith("joker") else {SUIT_WORD[suit.split()[0]]}
        assert int(doors) == sum(c != "W" for c in slots.strip("`"))
        expected[cid] = {"type": "space", "suits": suits, "slots": slots.strip("`")}
    for cid, _nm, _ph, _mn, suit, val in rows(F10_MATERIALS):
        expected[cid] = {"type": "material", "suit": SUIT_WORD[suit.split()[0]], "value": int(val)}
    for cid, _nm, _ph, _mn, ab, _ in rows(F10_PEOPLE):
        expected[cid] = {"type": "person", "ability": ab.split("`")[1]}
    for cid, _nm, _ph, _mn, _, meas, pts, _ in rows(F10_CONCEPTS):
        parts = meas.split(", ")
        obj = {"measure": parts[0].strip("`")}
        if len(parts) > 1:
            key, word = parts[1].split()
            obj[key] = word
        expected[cid] = {"type": "concept", "objective": obj, "points": int(pts)}
    for cid, _nm, _ph, _mn, val, _ in rows(F10_PROJECTS):
        expected[cid] = {"type": "project", "value": int(val)}
    all_rows = [
        *rows(F10_SPACES),
        *rows(F10_MATERIALS),
        *rows(F10_PEOPLE),
        *rows(F10_CONCEPTS),
        *rows(F10_PROJECTS),
    ]
    assert list(ref.cards) == [r[0] for r in all_rows]  # file order is F-10's order
    for r in all_rows:
        card = ref.card(r[0])
        assert (card.name, card.gloss) == name_gloss(r[1])
        assert card.phase == PHASE[r[2]]
        assert card.min_players == int(r[3])
        for key, value in expected[r[0]].items():
            assert getattr(card, key) == value, (r[0], key)


def test_F_10_provenance_says_what_is_printed(ref: Any) -> None:
    doc = ref.to_json()
    assert "reconstruct" in doc["provenance"].lower()
    printed = {c["id"]: set(c.get("printed", [])) for c in doc["cards"]}
    assert printed["SP09"] == {"name"} and printed["SP01"] == set()
    assert printed["PE07"] == {"name", "phase", "ability"}
    assert printed["PR11"] == {"name", "value"} and printed["PR03"] == set()
    assert printed["CO05"] == {"name", "points"} and printed["CO07"] == set()
    assert all(printed[f"MA0{i}"] == {"phase", "value"} for i in range(1, 9))


def test_F_1_2_card_counts_by_type_and_phase(ref: Any) -> None:
    counts = Counter((c.type, c.phase) for c in ref.cards.values())
    assert len(ref.cards) == 62
    assert [counts["space", p] for p in (1, 2, 3)] == [8, 8, 8]
    assert [counts["material", p] for p in (1, 2, 3)] == [0, 4, 4]
    assert [counts["person", p] for p in (1, 2, 3)] == [4, 3, 2]
    assert [counts["concept", p] for p in (1, 2, 3)] == [4, 2, 3]
    assert [counts["project", p] for p in (1, 2, 3)] == [5, 4, 3]


def test_F_R1_phases_hold_21_21_20(ref: Any) -> None:
    assert Counter(c.phase for c in ref.cards.values()) == {1: 21, 2: 21, 3: 20}


@pytest.mark.parametrize(
    ("n", "phases", "spaces", "jokers", "concepts", "projects", "deck"),
    [
        (2, (14, 14, 13), (3, 3, 3, 3), 1, 5, 6, 26),
        (3, (17, 17, 17), (4, 4, 4, 4), 2, 7, 9, 31),
        (4, (21, 21, 20), (5, 6, 5, 6), 2, 9, 12, 37),
    ],
)
def test_F_10_balanced_deck_per_player_count(
    ref: Any,
    n: int,
    phases: tuple[int, ...],
    spaces: tuple[int, ...],
    jokers: int,
    concepts: int,
    projects: int,
    deck: int,
) -> None:
    used = [c for c in ref.cards.values() if c.min_players <= n]
    assert tuple(sum(c.phase == p for c in used) for p in (1, 2, 3)) == phases
    single = Counter(next(iter(c.suits)) for c in used if c.type == "space" and not c.is_joker)
    assert tuple(single[s] for s in SUITS) == spaces
    assert sum(c.is_joker for c in used) == jokers
    types = Counter(c.type for c in used)
    assert (types["material"], types["person"]) == (8, 9)
    assert (types["concept"], types["project"]) == (concepts, projects)
    assert len(used) - 5 * n - 5 == deck  # 5 cards dealt per seat (F-1.5), 5 in the market


def test_F_10_design_doors_and_symbols(ref: Any) -> None:
    spaces = [c for c in ref.cards.values() if c.type == "space"]
    for c in spaces:
        doors = sum(ch != "W" for ch in c.slots)
        symbols = sum(ch in SUIT_OF_CODE for ch in c.slots)
        assert doors >= 1
        assert (symbols == 0) == (doors == 1), c.id
    doors = {c.id: sum(ch != "W" for ch in c.slots) for c in spaces}
    assert sum(n == 3 for n in doors.values()) == 12  # half the spaces have 3 doors
    assert sorted(cid for cid, n in doors.items() if not 2 <= n <= 4) == ["SP08", "SP20"]
    for cid in ("SP03", "SP04", "SP05", "SP09", "SP10", "SP11", "SP12", "SP17", "SP20", "SP01"):
        assert ref.card(cid).min_players == 2


def test_F_2_1_fields_by_type(ref: Any) -> None:
    for c in ref.cards.values():
        assert c.type in TYPES
        assert (c.slots != "") == (c.type == "space")
        assert (c.suit is not None) == (c.type == "material")
        assert (c.ability is not None) == (c.type == "person")
        assert (c.objective is not None) == (c.type == "concept")
        assert (c.points > 0) == (c.type == "concept")
        assert (c.value > 0) == (c.type in ("material", "project"))
    assert {c.ability for c in ref.cards.values() if c.ability} == set(ABILITIES)
    assert len(set(ref.cards.values())) == 62  # cards hash (a concept's objective is a dict)


def test_catalog_summary_hash_and_round_trip(ref: Any) -> None:
    assert ref.summary() == {"id": "reference", "name": ref.name, "hash": ref.hash, "cards": 62}
    again = load_catalog(json.loads(json.dumps(ref.to_json())))
    assert again.hash == ref.hash and list(again.cards) == list(ref.cards)
    doc = ref_doc()
    doc["cards"][0]["name"] = "Outro"
    assert load_catalog(doc).hash != ref.hash
    assert builtin_catalogs() is builtin_catalogs()


def refused(doc: Any) -> list[tuple[str, str]]:
    with pytest.raises(CatalogError) as err:
        load_catalog(doc)
    assert err.value.code == "invalid_catalog" and err.value.clause == "F-2.8"
    assert err.value.problems and err.value.to_json()["problems"]
    return [(p.code, p.pointer) for p in err.value.problems]


def with_card(i: int, **changes: Any) -> dict[str, Any]:
    doc = ref_doc()
    for k, v in changes.items():
        if v is KeyError:
            del doc["cards"][i][k]
        else:
            doc["cards"][i][k] = v
    return doc


# index of a card of each type in the reference document
SP, MA, PE, CO, PR = 0, 24, 32, 41, 50


@pytest.mark.parametrize(
    ("doc", "pointer"),
    [
        (with_card(SP, id="SP02"), "/cards/1/id"),  # duplicate id: the second one
        (with_card(SP, type="room"), "/cards/0/type"),
        (with_card(SP, suits=["madeira"]), "/cards/0/suits"),
        (with_card(SP, suits=["conforto", "conforto"]), "/cards/0/suits"),
        (with_card(SP, suits=["conforto", "atividades"]), "/cards/0/suits"),
        (with_card(SP, suits="conforto"), "/cards/0/suits"),
        (with_card(SP, slots="WWWWW"), "/cards/0/slots"),
        (with_card(SP, slots="WWWWWX"), "/cards/0/slots"),
        (with_card(SP, slots="wdwdwd"), "/cards/0/slots"),
        (with_card(SP, slots="WWWWWW"), "/cards/0/slots"),  # no door
        (with_card(SP, slots=["D"] * 6), "/cards/0/slots"),
        (with_card(SP, value=3), "/cards/0/value"),  # field of another type
        (with_card(MA, suit="madeira"), "/cards/24/suit"),
        (with_card(MA, value=True), "/cards/24/value"),
        (with_card(MA, value=1001), "/cards/24/value"),
        (with_card(MA, value=-1), "/cards/24/value"),
        (with_card(MA, value=2.0), "/cards/24/value"),
        (with_card(MA, value=10**400), "/cards/24/value"),
        (with_card(PE, ability="mestre"), "/cards/32/ability"),
        (with_card(PE, ability=None), "/cards/32/ability"),
        (with_card(CO, objective={"measure": "beauty"}), "/cards/41/objective/measure"),
        (with_card(CO, objective={"measure": "cards"}), "/cards/41/objective"),
        (
            with_card(CO, objective={"measure": "cards", "type": "spaceship"}),
            "/cards/41/objective/type",
        ),
        (
            with_card(CO, objective={"measure": "connections", "suit": "conforto"}),
            "/cards/41/objective/suit",
        ),
        (
            with_card(CO, objective={"measure": "spaces", "type": "space"}),
            "/cards/41/objective/type",
        ),
        (
            with_card(CO, objective={"measure": "spaces", "suit": "azul"}),
            "/cards/41/objective/suit",
        ),
        (with_card(CO, objective=[["measure", "spaces"]]), "/cards/41/objective"),
        (with_card(CO, points=KeyError), "/cards/41/points"),
        (with_card(PR, value="1"), "/cards/50/value"),
        (with_card(PR, phase=4), "/cards/50/phase"),
        (with_card(PR, phase=0), "/cards/50/phase"),
        (with_card(PR, min_players=5), "/cards/50/min_players"),
        (with_card(PR, name=""), "/cards/50/name"),
        (with_card(PR, name="x" * 65), "/cards/50/name"),
        (with_card(PR, gloss=KeyError), "/cards/50/gloss"),
        (with_card(PR, id="a" * 65), "/cards/50/id"),
        (with_card(PR, id=["PR01"]), "/cards/50/id"),
        (with_card(PR, printed=["colour"]), "/cards/50/printed"),
        (with_card(PR, **{"a/b~": 1}), "/cards/50/a~1b~0"),
    ],
)
def test_F_2_8_malformed_entry_refused(doc: dict[str, Any], pointer: str) -> None:
    assert pointer in [p for _, p in refused(doc)]


@pytest.mark.parametrize("word", sorted(BARE_WORDS))
def test_F_2_8_a_card_id_the_notation_reads_as_a_decision_is_refused(word: str) -> None:
    """A card `pass` laid into the site was written `pass` (F-2.7) and read back as a pass:
    the history and the record held another game (audit F1). Such an id is refused by both
    readers (a catalog that converts, and one read field by field), saying what to send."""
    assert word in {"look", "skip", "pass"}
    lay = {"type": "lay", "card": word}
    written = to_notation(lay)
    assert written is not None and from_notation(written) != lay  # why it is refused
    doc = with_card(PR, id=word)
    assert refused(doc) == [("catalog_value", "/cards/50/id")]
    doc["cards"][0]["slots"] = "WWWWWW"  # read field by field: the same problem, in order
    assert refused(doc) == [("catalog_value", "/cards/0/slots"), ("catalog_value", "/cards/50/id")]
    with pytest.raises(CatalogError) as err:
        load_catalog(with_card(PR, id=word))
    assert "F-2.7" in err.value.detail and repr(word.upper()) in err.value.detail
    renamed = with_card(PR, id=word.upper())  # the id the refusal suggests reads back as a lay
    assert word.upper() in load_catalog(renamed).cards
    lay = {"type": "lay", "card": word.upper()}
    assert from_notation(to_notation(lay) or "") == lay


def test_F_2_8_every_problem_listed() -> None:
    doc = ref_doc()
    doc["cards"][0]["slots"] = "WWWWWW"
    doc["cards"][30]["suit"] = "azul"
    doc["cards"][61]["value"] = None
    doc["extra"] = {}
    pointers = [p for _, p in refused(doc)]
    assert pointers == ["/extra", "/cards/0/slots", "/cards/30/suit", "/cards/61/value"]


@pytest.mark.parametrize(
    "doc",
    [
        None,
        [],
        "reference",
        17,
        True,
        {},
        {"format": "fora-de-prumo-catalog/1", "id": "x", "name": "x", "cards": []},
        {"format": "fora-de-prumo-catalog/1", "id": "x", "name": "x", "cards": {"a": 1}},
        {"format": "architectura-catalog/1", "id": "x", "name": "x", "cards": [1]},
        {"format": ["x"], "id": {"a": []}, "name": [[[]]], "provenance": 3, "cards": [[], None, 2]},
        {1: 2, None: 3, "cards": [{"type": "space", 7: 8}]},
        {"format": "fora-de-prumo-catalog/1", "id": "Bad Id", "name": "x", "cards": [{}]},
    ],
)
def test_F_2_8_hostile_json_refused_without_exception(doc: Any) -> None:
    refused(doc)


def test_F_2_8_bounds_on_card_count_and_texts() -> None:
    doc = ref_doc()
    base = doc["cards"][50]
    doc["cards"] = [dict(base, id=f"P{i}") for i in range(501)]
    assert ("catalog_value", "/cards") in refused(doc)
    doc["cards"] = doc["cards"][:500]
    assert len(load_catalog(doc).cards) == 500
    doc["provenance"] = "x" * 10_001
    assert ("catalog_value", "/provenance") in refused(doc)


def test_F_2_8_all_measures_and_parameters_accepted() -> None:
    doc = ref_doc()
    objectives: list[dict[str, str]] = []
    for m, (param, required) in MEASURES.items():
        if not required:
            objectives.append({"measure": m})
        if param == "suit":
            objectives += [{"measure": m, "suit": s} for s in SUITS]
        elif param == "type":
            objectives += [{"measure": m, "type": t} for t in TYPES]
    concept = doc["cards"][CO]
    doc["cards"] = [dict(concept, id=f"C{i}", objective=o) for i, o in enumerate(objectives)]
    cat = load_catalog(doc)
    assert [c.objective for c in cat.cards.values()] == objectives


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=70),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = sorted(
    {
        "id",
        "type",
        "name",
        "gloss",
        "phase",
        "min_players",
        "printed",
        "suits",
        "slots",
        "suit",
        "value",
        "ability",
        "objective",
        "points",
        "measure",
        "x",
    }
)


@settings(max_examples=150, deadline=None)
@given(
    card=st.integers(min_value=0, max_value=61),
    field=st.sampled_from(FIELDS),
    value=json_values,
    top=st.sampled_from(["format", "id", "name", "provenance", "cards", None]),
    top_value=json_values,
)
def test_F_2_8_fuzzed_documents_are_accepted_or_refused_never_crash(
    card: int, field: str, value: Any, top: str | None, top_value: Any
) -> None:
    doc = ref_doc()
    doc["cards"][card][field] = value
    if top is not None:
        doc[top] = top_value
    try:
        cat = load_catalog(doc)
    except CatalogError as err:
        assert err.problems and all(p.clause == "F-2.8" for p in err.problems)
        json.dumps(err.to_json())
    else:
        assert len(cat.cards) == 62
