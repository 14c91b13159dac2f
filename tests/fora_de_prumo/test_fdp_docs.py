"""The Fora de Prumo documents (docs/fora-de-prumo/*.md) checked against the engine.

A fenced block in a document is tied to the engine by an HTML comment on the line before it:

    <!-- fdp:exact NAME -->    the block is exactly what recipe NAME gives (JSON, or text)
    <!-- fdp:subset NAME -->   every key the block gives has that value in the recipe's output
    <!-- fdp:options NAME -->  every decision of the block is an option of recipe NAME's state

Recipes run the real engine (set-ups, decisions through `apply`, views, scores, the reference
catalog). Besides the blocks, the tests check that every clause and ruling the engine cites,
every decision type and field, every event type and field, every error code and every catalog
field is documented. `PYTHONPATH=tests python tests/fora_de_prumo/test_fdp_docs.py --write`
rewrites the exact blocks from the engine (review the diff: it is the documented behaviour
changing).
"""

from __future__ import annotations

import copy
import importlib
import json
import random
import re
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fdp_support import PASS, SKIP, State, arrange, fresh, lay, parse_compact, play, refused
from shared_texts import shared_text

import engine.fora_de_prumo as fdp
from engine.errors import MAX_PROBLEMS, CatalogError
from engine.fora_de_prumo import catalog as catmod
from engine.fora_de_prumo.building import (
    SIDE_SLOT,
    SLOT_SIDE,
    Building,
    measure,
)
from engine.fora_de_prumo.building import parse_compact as placement_of
from engine.fora_de_prumo.catalog import CODE_OF_SUIT, SUITS, Catalog, builtin_catalogs
from engine.fora_de_prumo.schema import STATE_FIELDS, TURN_FIELDS, WORK_FIELDS
from engine.fora_de_prumo.serialize import DECISION_FIELDS, STEP_INFO
from engine.fora_de_prumo.setup import SETUP_KEYS, cards_in_use

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "fora-de-prumo"
ARCH_DOCS = ROOT / "docs" / "architectura"
ENGINE = ROOT / "engine" / "fora_de_prumo"
CAT: Catalog = builtin_catalogs()["reference"]

Recipe = Callable[[], Any]
RECIPES: dict[str, Recipe] = {}


def recipe(f: Recipe) -> Recipe:
    RECIPES[f.__name__] = f
    return f


def doc(name: str) -> str:
    return (DOCS / name).read_text("utf-8")


# -- recipes: states and decisions ---------------------------------------------------------

SETUP = {"game": "fora-de-prumo", "seats": 2, "seed": 7}


@recipe
def setup_state() -> State:
    """F-1: the state `new_game` makes for the set-up above."""
    return fdp.new_game(SETUP)


@cache
def _bought() -> tuple[State, list[dict[str, Any]]]:
    s = setup_state()
    return fdp.apply(s, {"seat": 0, "type": "buy", "card": s["market"][0]})


@recipe
def lay_pending() -> dict[str, Any]:
    pending: dict[str, Any] = _bought()[0]["pending"]
    return pending


@recipe
def lay_events() -> list[dict[str, Any]]:
    decision = {"seat": 0, "type": "lay", "card": "SP03", "x": 0, "y": 0, "r": 1}
    return fdp.apply(_bought()[0], decision)[1]


@cache
def _looked() -> tuple[State, list[dict[str, Any]]]:
    """Seat 0 lays the coordenadora, the teórica and a material, clones the material with a
    project, then looks at the deck top (F-6.1); seat 1 builds."""
    start = arrange(
        fresh(2, seed=7),
        hands={0: ["PE01", "PE06", "MA02", "PR01", "SP02"], 1: ["SP10", "SP19", "PR02"]},
    )
    s = play(start, SKIP, lay("PE01"), SKIP, parse_compact("SP10@0,0r0"))
    s = play(s, SKIP, lay("PE06"), SKIP, parse_compact("SP19@1,1r0"))
    s = play(s, SKIP, lay("MA02"), SKIP, PASS)
    s = play(s, SKIP, {"type": "clone", "card": "PR01", "target": "MA02"}, SKIP, PASS)
    return fdp.apply(s, {"seat": 0, "type": "look"})


@recipe
def look_pending() -> dict[str, Any]:
    pending: dict[str, Any] = _looked()[0]["pending"]
    return pending


@cache
def _people_game() -> tuple[State, list[dict[str, Any]]]:
    """Then seat 0 buys the second card it saw."""
    s, events = _looked()
    s, more = fdp.apply(s, {"seat": 0, "type": "buy", "card": events[0]["cards"][1]})
    return s, events + more


@recipe
def look_events() -> list[dict[str, Any]]:
    return _people_game()[1]


@recipe
def look_events_for_seat_1() -> list[dict[str, Any]]:
    return fdp.events_for_seat(_people_game()[1], 1)


@recipe
def view_of_seat_1() -> dict[str, Any]:
    return fdp.player_view(_people_game()[0], 1)


@cache
def _passed_out() -> tuple[State, list[dict[str, Any]]]:
    """F-R27: two complete passes in a row in a 2-seat game start the final round."""
    s = play(setup_state(), SKIP, PASS)
    return fdp.apply_all(s, [{"seat": 1, "type": "skip"}, {"seat": 1, "type": "pass"}])


@recipe
def final_round_events() -> list[dict[str, Any]]:
    return _passed_out()[1]


@recipe
def final_pending() -> dict[str, Any]:
    pending: dict[str, Any] = _passed_out()[0]["pending"]
    return pending


@recipe
def final_state() -> State:
    return _passed_out()[0]


@recipe
def final_lay_events() -> list[dict[str, Any]]:
    d = {"seat": 0, "type": "lay", "card": "PE03", "from": "market"}
    return fdp.apply(_passed_out()[0], d)[1]


@recipe
def refused_final_buy() -> dict[str, Any]:
    return refused(_passed_out()[0], {"seat": 0, "type": "buy", "card": "PE03"}).to_json()


@recipe
def refused_first_space() -> dict[str, Any]:
    d = {"seat": 0, "type": "lay", "card": "SP03", "x": 1, "y": 0, "r": 0}
    return refused(_bought()[0], d).to_json()


@recipe
def invalid_state_problems() -> list[dict[str, Any]]:
    """A forged state: a market card copied into a hand, and a space in the site."""
    s = copy.deepcopy(setup_state())
    s["seats"][0]["hand"].append(s["market"][0])
    s["seats"][1]["work"]["site"].append(s["seats"][1]["hand"][0])
    return [p.to_json() for p in fdp.validate(s)]


@cache
def _example_scores() -> dict[str, Any]:
    from test_fdp_examples import example_game  # the F-9 works, laid through decisions

    state, _ = example_game()
    out: dict[str, Any] = fdp.score(state)
    return out


@recipe
def score_summary() -> dict[str, Any]:
    return _example_scores()


@recipe
def score_seat_1() -> dict[str, Any]:
    seat: dict[str, Any] = _example_scores()["seats"][1]
    return seat


# -- recipes: the building picture ----------------------------------------------------------

PICTURE = ["SP05@0,0r2", "SP12@-1,2r3", "SP09@1,2r2", "SP20@2,1r2", "SP10@1,0r0", "SP01@2,2r0"]
PICTURE += ["SP03@3,1r3"]


def picture_building() -> Building:
    """F-9.4's rectangle around a patio, then the designer converts SP05 (F-6.3)."""
    b = Building(CAT)
    for text in PICTURE:
        p = placement_of(text)
        assert p is not None
        assert fdp_legal(b, p.card, p.x, p.y, p.r), text
        b.add(p)
    b.convert("SP05")
    return b


def fdp_legal(b: Building, card: str, x: int, y: int, r: int) -> bool:
    from engine.fora_de_prumo.building import placement_error

    return placement_error(b, card, x, y, r, False) is None


def render(b: Building) -> str:
    """A building in text: per cell its card number and half (`05a` = SP05 half A, `*` =
    converted), the slot character on each outer side of its card, `.` for an empty cell."""
    xs = [c[0] for c in b.occ]
    ys = [c[1] for c in b.occ]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    width = 8 + 9 * (x1 - x0 + 1)
    lines = ["".join(f"x={x}".rjust(9) for x in range(x0, x1 + 1)).rjust(width - 4)]
    for y in range(y0, y1 + 1):
        rows = [[" "] * width for _ in range(3)]
        rows[1][:8] = f"y={y:3d}".ljust(8)
        for x in range(x0, x1 + 1):
            col = 8 + 9 * (x - x0)
            o = b.occ.get((x, y))
            if o is None:
                rows[1][col + 3] = "."
                continue
            cid, half = o
            label = cid[-2:] + "ab"[half] + ("*" if cid in b.converted else "")
            rows[1][col + 2 : col + 2 + len(label)] = label
            r = b.where[cid].r
            for d, (row, at) in enumerate(((0, 3), (1, 7), (2, 3), (1, 0))):
                i = SIDE_SLOT[r][half][d]
                if i >= 0:
                    rows[row][col + at] = b.slots[cid][i]
        lines.extend("".join(row).rstrip() for row in rows)
    return "\n".join(line for line in lines if line.strip()) + "\n"


@recipe
def building_picture() -> str:
    return render(picture_building())


@recipe
def building_measures() -> dict[str, Any]:
    b = picture_building()
    m = measure(b, False, detail=True)
    return {
        "spaces": m.spaces,
        "connections": m.connections,
        "qualifications": m.qualifications,
        "street_door_slots": list(m.street_door_slots),
        "obstructed_slots": list(m.obstructed_slots),
        "patios": [list(c) for c in m.patios],
        "rectangular": m.rectangular,
        "area": m.area,
        "spaces_of_suit": m.spaces_of_suit,
    }


# -- recipes: the reference catalog as tables (F-10) ----------------------------------------

PHASE = {1: "I", 2: "II", 3: "III"}


def _table(head: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def _cards(kind: str) -> list[catmod.Card]:
    return [c for c in CAT.cards.values() if c.type == kind]


def _suit(s: str) -> str:
    return f"{s} ({CODE_OF_SUIT[s]})"


def _head(c: catmod.Card) -> list[str]:
    return [c.id, f"{c.name} ({c.gloss})", PHASE[c.phase], str(c.min_players)]


def _printed(cid: str) -> str:
    raw = next(c for c in CAT.to_json()["cards"] if c["id"] == cid)
    return ", ".join(raw.get("printed", []))


@recipe
def table_counts() -> str:
    rows = []
    for n in (2, 3, 4):
        use = [CAT.cards[c] for c in cards_in_use(CAT, n)]
        per_phase = " / ".join(str(sum(1 for c in use if c.phase == p)) for p in (1, 2, 3))
        spaces = [c for c in use if c.type == "space"]
        suits = "/".join(
            str(sum(1 for c in spaces if c.suits == {s})) for s in ("exteriores", "conforto")
        )
        suits += "/" + "/".join(
            str(sum(1 for c in spaces if c.suits == {s})) for s in ("circulacoes", "atividades")
        )
        jokers = sum(1 for c in spaces if c.is_joker)
        counts = [str(sum(1 for c in use if c.type == t)) for t in catmod.TYPES]
        deck = len(use) - 5 * n - 5
        rows.append(
            [
                str(n),
                f"{len(use)} ({per_phase})",
                f"{counts[0]}: {suits} + {jokers}",
                *counts[1:],
                str(deck),
            ]
        )
    head = ["players", "cards (I / II / III)", "spaces: G/P/B/Y + jokers", "materials"]
    head += ["people", "concepts", "projects", "deck after the deal and a 5-card market"]
    return _table(head, rows)


@recipe
def table_spaces() -> str:
    rows = []
    for c in _cards("space"):
        suit = "joker" if c.is_joker else _suit(next(iter(c.suits)))
        doors = str(sum(1 for ch in c.slots if ch != "W"))
        rows.append([*_head(c), suit, f"`{c.slots}`", doors, _printed(c.id)])
    head = ["id", "name (gloss)", "phase", "min", "suit", "slots 0-5", "doors", "printed"]
    return _table(head, rows)


@recipe
def table_materials() -> str:
    rows = [
        [*_head(c), _suit(c.suit or ""), f"+{c.value}", _printed(c.id)] for c in _cards("material")
    ]
    head = ["id", "name (gloss)", "phase", "min", "rewards", "value", "printed"]
    return _table(head, rows)


ABILITY_CLAUSE = {a: f"F-6.{i}" for i, a in enumerate(catmod.ABILITIES, 1)}


@recipe
def table_people() -> str:
    rows = [
        [*_head(c), f"`{c.ability}` ({ABILITY_CLAUSE[c.ability or '']})", _printed(c.id)]
        for c in _cards("person")
    ]
    return _table(["id", "name (gloss)", "phase", "min", "ability", "printed"], rows)


@recipe
def table_concepts() -> str:
    rows = []
    for c in _cards("concept"):
        obj = c.objective or {}
        param = obj.get("suit", obj.get("type"))
        measure_ = f"`{obj['measure']}`" + (f" {param}" if param else "")
        rows.append([*_head(c), measure_, str(c.points), _printed(c.id)])
    head = ["id", "name (gloss)", "phase", "min", "objective: most …", "points", "printed"]
    return _table(head, rows)


@recipe
def table_projects() -> str:
    rows = [[*_head(c), f"+{c.value}", _printed(c.id)] for c in _cards("project")]
    return _table(["id", "name (gloss)", "phase", "min", "per space", "printed"], rows)


@recipe
def arch_table_cards() -> str:
    """Architectura's A-10 reference catalog (docs/architectura/rules.md)."""
    import engine.architectura as arch

    raw = arch.builtin_catalogs()["reference"].to_json()["cards"]
    basic_of = {c["basic"]: c["name"] for c in raw if c["kind"] == "basic" and "basic" in c}
    names = {c["id"]: c["name"] for c in raw}
    rows = []
    for c in raw:
        if "formula" in c:
            values = f"{c['formula']} (one side)"
        else:
            values = " ".join(f"{v}*" if v == c["basic"] else str(v) for v in c["values"])
        replaces = ""
        if c["kind"] == "additional":
            replaces = (
                names[c["replaces"]] + " (named)" if "replaces" in c else basic_of[c["basic"]]
            )
        rows.append([c["name"], c["kind"], values, replaces, c.get("text", "")])
    return _table(["card", "kind", "values", "replaces", "text"], rows)


# -- recipes: catalog documents ---------------------------------------------------------------


@recipe
def catalog_problems() -> dict[str, Any]:
    """The strict loader on a broken two-card catalog (catalog.md)."""
    bad = {
        "format": "fora-de-prumo-catalog/1",
        "id": "Mine",
        "name": "my cards",
        "cards": [
            {"id": "S1", "type": "space", "name": "Sala", "gloss": "room", "phase": 1,
             "min_players": 2, "suits": ["conforto"], "slots": "WDWWPW"},
            {"id": "C1", "type": "concept", "name": "Ampla", "gloss": "wide", "phase": 4,
             "min_players": 2, "objective": {"measure": "cards"}, "points": 3, "colour": "red"},
            {"id": "S1", "type": "project", "name": "Croquis", "gloss": "sketches", "phase": 1,
             "min_players": 2, "value": 1},
        ],
    }  # fmt: skip
    try:
        catmod.load_catalog(bad)
    except CatalogError as e:
        return e.to_json()
    raise AssertionError("the broken catalog was accepted")


# -- the blocks ------------------------------------------------------------------------------

MARK = re.compile(r"<!-- fdp:(exact|subset|options) ([a-z0-9_]+) -->\n```([a-z]*)\n(.*?)```", re.S)
TABLE = re.compile(r"<!-- fdp:table ([a-z0-9_]+) -->\n(.*?)<!-- /fdp:table -->", re.S)


def pages() -> list[Path]:
    return sorted(DOCS.glob("*.md")) + sorted(ARCH_DOCS.glob("*.md"))


def blocks() -> list[tuple[str, str, str, str, str]]:
    out = []
    for path in pages():
        text = path.read_text("utf-8")
        for m in MARK.finditer(text):
            out.append((path.name, m.group(1), m.group(2), m.group(3), m.group(4)))
        for m in TABLE.finditer(text):
            out.append((path.name, "exact", m.group(1), "markdown", m.group(2)))
    return out


def fmt(v: Any, indent: int = 0, lead: int = 0, width: int = 100) -> str:
    """JSON laid out for reading: one line when it fits, else one member per line (lists of
    plain values wrapped)."""
    flat = json.dumps(v, ensure_ascii=False)
    if indent + lead + len(flat) <= width or not isinstance(v, dict | list) or not v:
        return flat
    pad = " " * (indent + 2)
    if isinstance(v, dict):
        items = []
        for k, x in v.items():
            key = json.dumps(k, ensure_ascii=False) + ": "
            items.append(pad + key + fmt(x, indent + 2, len(key), width))
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if all(not isinstance(x, dict | list) for x in v):
        lines, line = [], ""
        for x in v:
            word = json.dumps(x, ensure_ascii=False)
            if line and len(pad) + len(line) + len(word) + 2 > width:
                lines.append(line + ",")
                line = ""
            line = f"{line}, {word}" if line else word
        lines.append(line)
        return "[\n" + "\n".join(pad + ln for ln in lines) + "\n" + " " * indent + "]"
    return (
        "[\n"
        + ",\n".join(pad + fmt(x, indent + 2, 0, width) for x in v)
        + "\n"
        + " " * indent
        + "]"
    )


def render_block(value: Any) -> str:
    return value if isinstance(value, str) else fmt(value) + "\n"


def is_subset(given: Any, actual: Any) -> bool:
    if isinstance(given, dict):
        return isinstance(actual, dict) and all(
            k in actual and is_subset(v, actual[k]) for k, v in given.items()
        )
    return bool(given == actual)


def test_docs_have_checked_blocks() -> None:
    """Every recipe is shown somewhere, and every marked block has a recipe."""
    found = {name for _, _, name, _, _ in blocks()}
    assert found == set(RECIPES), found ^ set(RECIPES)


@pytest.mark.parametrize(
    ("page", "mode", "name", "lang", "body"), blocks(), ids=[f"{b[0]}:{b[2]}" for b in blocks()]
)
def test_block_matches_the_engine(page: str, mode: str, name: str, lang: str, body: str) -> None:
    value = RECIPES[name]()
    if lang in ("json", "jsonc") and mode == "exact":
        assert json.loads(body) == value, f"{page}: block {name} drifted; run --write"
    elif mode == "exact":
        assert body == value, f"{page}: block {name} drifted; run --write"
    elif mode == "subset":
        assert is_subset(json.loads(body), value), f"{page}: block {name} is not the engine's"
    else:
        options = value["pending"]["options"]
        for d in json.loads(body):
            assert d in options, f"{page}: {d} is not an option of {name}"
            fdp.apply(value, d)  # and apply accepts it unchanged


def write_docs() -> None:
    for path in pages():
        text = path.read_text("utf-8")

        def repl(m: re.Match[str]) -> str:
            if m.group(1) != "exact":
                return m.group(0)
            body = render_block(RECIPES[m.group(2)]())
            return f"<!-- fdp:exact {m.group(2)} -->\n```{m.group(3)}\n{body}```"

        def table(m: re.Match[str]) -> str:
            body = RECIPES[m.group(1)]()
            return f"<!-- fdp:table {m.group(1)} -->\n{body}<!-- /fdp:table -->"

        new = TABLE.sub(table, MARK.sub(repl, text))
        if new != text:
            path.write_text(new, "utf-8")
            print("rewrote", path.relative_to(ROOT))


# -- clauses, rulings, fields, codes ---------------------------------------------------------

CLAUSE_RE = re.compile(r"\bF-(?:R\d+|\d+(?:\.\d+)?)\b")


def engine_text() -> str:
    return "\n".join(p.read_text("utf-8") for p in sorted(ENGINE.glob("*.py")))


def ids_in(text: str) -> set[str]:
    return set(CLAUSE_RE.findall(text))


def test_every_clause_of_the_rule_text_is_restated() -> None:
    """rules.md keeps every clause id of the normative text, so any `clause` can be looked up."""
    normative = {
        c for c in ids_in(shared_text("rules", "fora-de-prumo.md")) if not c.startswith("F-R")
    }
    missing = sorted(normative - ids_in(doc("rules.md")))
    assert not missing, missing


def md_rows(text: str, first: str) -> list[list[str]]:
    """The cells of the markdown table rows whose first cell matches `first` (a regex)."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.strip().startswith("|") and re.fullmatch(first, cells[0]):
            rows.append(cells)
    return rows


def test_rules_tables_match_the_engine() -> None:
    """rules.md: the F-2.5 slot table is the engine's geometry, the F-2.2 codes its suits, and
    the F-1.2 counts those of the reference catalog."""
    text = doc("rules.md")
    sides = {"north": 0, "east": 1, "south": 2, "west": 3}
    slot_rows = [c for c in md_rows(text, r"[0-3]") if c[2].startswith(("A ", "B "))]
    assert len(slot_rows) == 4
    for cells in slot_rows:
        r = int(cells[0])
        got = tuple(("AB".index(c.split()[0]), sides[c.split()[1]]) for c in cells[2:8])
        assert got == SLOT_SIDE[r], r
    codes = {c[0].strip("`"): c[1].strip("`") for c in md_rows(text, r"`[GPBY]`")}
    assert codes == catmod.SUIT_OF_CODE
    names = {"spaces": "space", "materials": "material", "people": "person"}
    names |= {"concepts": "concept", "projects": "project"}
    for cells in md_rows(text, "|".join(names)):
        cards = [c for c in CAT.cards.values() if c.type == names[cells[0]]]
        by_phase = [str(sum(1 for c in cards if c.phase == p)) for p in (1, 2, 3)]
        assert cells[1:5] == [*by_phase, str(len(cards))], cells


def test_architectura_restatement_keeps_every_clause() -> None:
    """docs/architectura/rules.md: every clause of Architectura's rule text and every clause
    its engine cites (A-3.1a and the like read as their clause), and the rulings it cites
    exist."""
    pattern = re.compile(r"\bA-(?:R\d+|\d+(?:\.\d+)?)")
    text = (ARCH_DOCS / "rules.md").read_text("utf-8")
    engine_ids = set(
        pattern.findall(
            "\n".join(p.read_text("utf-8") for p in (ROOT / "engine" / "architectura").glob("*.py"))
        )
    )
    wanted = set(pattern.findall(shared_text("rules", "architectura.md"))) | engine_ids
    wanted = {c for c in wanted if not c.startswith("A-R")}
    assert not wanted - set(pattern.findall(text)), sorted(wanted - set(pattern.findall(text)))
    rulings = (ROOT / "docs" / "rulings.md").read_text("utf-8")
    for rid in {c for c in pattern.findall(text) if c.startswith("A-R")}:
        assert f"| {rid} |" in rulings, rid


def test_every_clause_the_engine_cites_is_documented() -> None:
    cited = ids_in(engine_text())
    clauses = {c for c in cited if not c.startswith("F-R")}
    assert not clauses - ids_in(doc("rules.md")), sorted(clauses - ids_in(doc("rules.md")))
    rulings = {c for c in cited if c.startswith("F-R")}
    lines = doc("rulings.md")
    undocumented = sorted(r for r in rulings if not re.search(rf"^\| {r} \|", lines, re.M))
    assert not undocumented, undocumented


def ruling_rows() -> dict[str, str]:
    return {
        m.group(1): m.group(0) for m in re.finditer(r"^\| (F-R\d+) \|.*$", doc("rulings.md"), re.M)
    }


def test_rulings_one_row_each_with_real_functions() -> None:
    """F-R1 … F-R35 of the rule text and every ruling the engine cites, one row each, each
    naming functions that exist."""
    rows = ruling_rows()
    expected = {f"F-R{i}" for i in range(1, 36)}
    expected |= {c for c in ids_in(engine_text()) if c.startswith("F-R")}
    assert set(rows) == expected, set(rows) ^ expected
    modules = {p.stem for p in ENGINE.glob("*.py")}
    for rid, row in rows.items():
        refs = [r for r in re.findall(r"`([a-z_]+)\.([A-Za-z_]+)`", row) if r[0] in modules]
        assert refs, f"{rid}: name the function that enforces it"
        for mod, name in refs:
            module = importlib.import_module(f"engine.fora_de_prumo.{mod}")
            assert hasattr(module, name), f"{rid}: {mod}.{name} does not exist"


def documented(text: str, word: str) -> bool:
    return f"`{word}`" in text or f'"{word}"' in text


def test_state_page_names_every_field_and_decision() -> None:
    text = doc("state.md")
    names = [*STATE_FIELDS, *TURN_FIELDS, *WORK_FIELDS, *SETUP_KEYS]
    names += ["hand_count", "peeked_count", "bought_from", "deck_count", "unseen", "view_of"]
    for kind, fields in DECISION_FIELDS.items():
        names += [kind, *fields]
    names += [info[0] for info in STEP_INFO.values()] + [info[1] for info in STEP_INFO.values()]
    missing = [w for w in names if not documented(text, w)]
    assert not missing, missing


@cache
def all_events() -> dict[str, tuple[set[str], set[str]]]:
    """Every event type the engine emits with its fields and clauses, from random games of
    2-4 seats and every market size, plus the scripted scenarios above."""
    seen: dict[str, tuple[set[str], set[str]]] = {}
    logs: list[list[dict[str, Any]]] = [look_events(), final_round_events(), final_lay_events()]
    for seed in range(24):
        g = fdp.new_game_internal(fdp.tournament_setup(seed, 2 + seed % 3, str(4 + seed % 3)))
        g.log = []
        rnd = random.Random(seed)
        while not fdp.is_terminal(g):
            fdp.apply_action(g, rnd.choice(fdp.legal_actions(g)))
        logs.append(g.log)
    for log in logs:
        for ev in log:
            fields, clauses = seen.setdefault(ev["type"], (set(), set()))
            fields.update(ev)
            clauses.add(ev["clause"])
    return seen


def test_state_page_lists_every_event_with_its_fields_and_clauses() -> None:
    rows = {
        m.group(1): m.group(0) for m in re.finditer(r"^\| `([a-z_]+)` \|.*$", doc("state.md"), re.M)
    }
    events = all_events()
    assert len(events) >= 11, sorted(events)
    for kind, (fields, clauses) in events.items():
        row = rows.get(kind)
        assert row is not None, f"event {kind} has no row"
        for f in fields - {"type", "clause", "decision"}:
            assert f"`{f}`" in row, f"event {kind}: field {f} undocumented"
        for c in clauses:
            assert c in row, f"event {kind}: clause {c} undocumented"


ERROR_CODE = re.compile(
    r'(?:IllegalDecision|SetupError|Problem|r\.bad|self\.add|ck\.add)\(\s*"([a-z_]+)"'
)


def test_every_error_code_is_documented() -> None:
    codes = set(ERROR_CODE.findall(engine_text()))
    codes |= {"invalid_rotation", "first_space_at_origin", "cell_occupied", "no_connection"}
    codes |= {"not_a_space", "already_built", "unknown_card"}  # placement_error's tuples
    text = "\n".join(doc(p) for p in ("state.md", "catalog.md"))
    missing = sorted(c for c in codes if not documented(text, c))
    assert not missing, missing


def test_catalog_page_names_every_field_and_bound() -> None:
    text = doc("catalog.md")
    names = [*catmod.DOC_FIELDS, *catmod.COMMON_FIELDS, *catmod.TYPES, *catmod.ABILITIES]
    names += [f for fs in catmod.TYPE_FIELDS.values() for f in fs]
    names += [*catmod.MEASURES, *SUITS, "measure", catmod.FORMAT]
    missing = [w for w in names if not documented(text, w)]
    assert not missing, missing
    bounds = (catmod.MAX_CARDS, catmod.MAX_TEXT, catmod.MAX_NUMBER, catmod.MAX_PROVENANCE)
    for bound in (*bounds, MAX_PROBLEMS):
        assert f"{bound:,}" in text or str(bound) in text, bound


def test_example_catalog_document_loads() -> None:
    """The small catalog of catalog.md is accepted by the strict loader."""
    text = doc("catalog.md")
    m = re.search(r"<!-- fdp:catalog -->\n```json\n(.*?)```", text, re.S)
    assert m is not None
    cat = fdp.load_catalog(json.loads(m.group(1)))
    assert cat.summary()["cards"] == len(cat.cards) > 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write_docs()
    else:
        print(__doc__)
