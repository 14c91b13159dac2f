"""The game registry (issue 17, item 1): one definition per game, registered by the game itself
(engine/registry.py `GameInfo`, `register_game`; engine/games.py imports the packages).

Two kinds of test: `app/` and `ai/` name no game (a scan of their source, strings and imports,
counts the lines that do: at most 2), and each game's `GameInfo` says what its engine does
(its seat range, clauses, catalog, set-up defaults, play decision, rule documents, drawing).
"""

from __future__ import annotations

import ast
import importlib
import random
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from engine.errors import EngineError, SetupError
from engine.games import (
    DEFAULT_GAME,
    GAMES,
    MAX_SEATS,
    GameInfo,
    all_engines,
    engine,
    engine_for,
    info,
    register_game,
)
from engine.registry import registered

ROOT = Path(__file__).resolve().parents[2]
# the lines of app/ and ai/ that may name a game, at most (see test_app_and_ai_name_no_game)
MOST_NAMING_LINES = 2

# -- the scan ------------------------------------------------------------------------------


def _packages() -> dict[str, str]:
    """Each game's package, dotted (engine.fora_de_prumo), by game id."""
    return {g: engine(g).__name__ for g in GAMES}  # type: ignore[attr-defined]


def _game_words() -> re.Pattern[str]:
    """A game's id or its package's name as a whole word of a string: `fora-de-prumo`,
    `fora_de_prumo`, `docs/architectura/rules.md`, `urn:architectura:...`, not a longer
    identifier such as `_architectura` (a logging handler's marker)."""
    words = set(GAMES) | {p.rsplit(".", 1)[1] for p in _packages().values()}
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w.-])(?:{alternatives})(?![\w])")


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                out.add(id(first.value))
    return out


def naming_lines(source: str) -> list[tuple[int, str]]:
    """The lines of a module that name a game: a string (an f-string's text too; not a
    docstring, not a comment) holding a game id or package name, or an import of a game
    package or of a module named after a game (app.render.architectura). (line, what) for
    each, in order."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    words = _game_words()
    names = {p.rsplit(".", 1)[1] for p in _packages().values()}  # architectura, fora_de_prumo

    def names_a_game(dotted: str) -> bool:  # engine.fora_de_prumo.building, app.render.architectura
        return any(part in names for part in dotted.split("."))

    found: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings and words.search(node.value):
                found.setdefault(node.lineno, repr(node.value)[:60])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if names_a_game(alias.name):
                    found.setdefault(node.lineno, f"import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            dotted = [f"{node.module or ''}.{a.name}" for a in node.names]
            if any(names_a_game(d) for d in dotted):
                found.setdefault(node.lineno, f"from {node.module} import ...")
    return sorted(found.items())


def test_the_scan_sees_strings_and_imports_not_docstrings_or_comments() -> None:
    source = '''"""A docstring naming architectura and engine.fora_de_prumo is not counted."""
import engine.architectura
from engine.fora_de_prumo.building import measure
from engine import fora_de_prumo
from app.render import architectura as drawing
from engine.games import GAMES  # fora-de-prumo in a comment is not counted
A = {"architectura": 1}
B = f"docs/fora-de-prumo/{A}"
C = "urn:architectura:problem:"
D = getattr(object, "_architectura", None)  # a longer identifier is not the id


def f() -> None:
    """fora-de-prumo here is a docstring too."""
    print("Architectura")  # a name for people, not the id
'''
    assert [line for line, _ in naming_lines(source)] == [2, 3, 4, 5, 7, 8, 9]


def test_app_and_ai_name_no_game() -> None:
    """`app/` and `ai/` reach every game through the registry: at most MOST_NAMING_LINES lines
    name a game id or import a game package (the service's problem-type URN, whose namespace is
    the project's name; Fora de Prumo's drawing, which imports its game's building geometry)."""
    lines = []
    for top in ("app", "ai"):
        for path in sorted((ROOT / top).rglob("*.py")):
            for line, what in naming_lines(path.read_text(encoding="utf-8")):
                lines.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert len(lines) <= MOST_NAMING_LINES, "\n".join(lines)


# -- the registry --------------------------------------------------------------------------


def test_games_are_registered_by_their_packages_the_default_first() -> None:
    assert list(registered()) != [] and set(registered()) == set(GAMES)
    assert GAMES[0] == DEFAULT_GAME and len(set(GAMES)) == len(GAMES)
    for g in GAMES:
        found = registered()[g]
        assert found.info is info(g) and found.module is engine(g)
        assert found.module.__name__ == _packages()[g]
    assert engine_for({}) is engine(DEFAULT_GAME)
    assert list(all_engines()) == list(GAMES)
    prefixes = [info(g).clause_prefix for g in GAMES]
    assert len(set(prefixes)) == len(prefixes)


def test_an_unknown_game_has_no_engine_and_no_info() -> None:
    for ask in (engine, info):
        for bad in ("chess", None, ["architectura"]):
            with pytest.raises(SetupError) as e:
                ask(bad)  # type: ignore[arg-type]
            assert (e.value.code, e.value.pointer) == ("unknown_game", "/game")


@pytest.mark.parametrize("game", GAMES)
def test_the_facts_are_the_modules(game: str) -> None:
    facts, eng = info(game), engine(game)
    assert facts is eng.INFO and facts.id == game
    assert facts.catalog_clause.startswith(facts.clause_prefix + "-")
    assert facts.name and facts.name != facts.id


# -- each fact against the engine's behaviour ---------------------------------------------


def _setup(game: str, seats: Any, seed: int = 7) -> dict[str, Any]:
    return {"game": game, "seats": seats, "seed": seed}


@pytest.mark.parametrize("game", GAMES)
def test_every_seat_count_in_range_is_a_game(game: str) -> None:
    facts, eng = info(game), engine(game)
    assert list(facts.seats) == list(range(facts.min_seats, facts.max_seats + 1))
    for n in facts.seats:
        state = eng.new_game(_setup(game, n))
        assert state["game"] == game and state["rules_version"] == facts.rules_version
        assert eng.load(state).n == n
        assert eng.new_game_internal(eng.tournament_setup(3, n, None)).n == n


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_count_out_of_range_is_refused_citing_the_seats_clause(game: str) -> None:
    facts, eng = info(game), engine(game)
    for n in (facts.min_seats - 1, facts.max_seats + 1):
        with pytest.raises(SetupError) as e:
            eng.new_game(_setup(game, n))
        found = [(p.code, p.pointer, p.clause) for p in e.value.problems]
        assert found == [("invalid_seat_count", "/seats", facts.seats_clause)]


def test_a_seat_index_in_a_request_reaches_the_largest_game() -> None:
    from app.schemas import VIEW

    assert max(info(g).max_seats for g in GAMES) == MAX_SEATS
    bounds = [v for v in VIEW.fields["seat"].validators]
    assert [(b.min, b.max) for b in bounds] == [(0, MAX_SEATS - 1)]  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", GAMES)
def test_the_engines_errors_cite_the_games_clause_prefix(game: str) -> None:
    """A bad set-up, an unknown and a malformed catalog: every clause cited is the game's."""
    prefix, eng = info(game).clause_prefix + "-", engine(game)
    asks = [
        lambda: eng.new_game({**_setup(game, 1), "first_seat": "0", "bogus": 1}),
        lambda: eng.get_catalog("nope"),
        lambda: eng.get_catalog({"format": "nope"}),
    ]
    for ask in asks:
        with pytest.raises(EngineError) as e:
            ask()
        problems = getattr(e.value, "problems", [])
        cited = ({e.value.clause} | {p.clause for p in problems}) - {None}
        assert cited and all(str(c).startswith(prefix) for c in cited), cited


@pytest.mark.parametrize("game", GAMES)
def test_the_rule_documents_hold_the_games_clauses(game: str) -> None:
    from app.rules import lookup

    facts = info(game)
    for rel in facts.rule_documents + facts.ruling_documents:
        assert (ROOT / rel).is_file(), rel
    for clause in (facts.seats_clause, facts.catalog_clause, f"{facts.clause_prefix}-1"):
        found = lookup(clause)
        assert found is not None and found["game"] == game, clause
        assert found["source"] in facts.rule_documents


@pytest.mark.parametrize("game", GAMES)
def test_the_default_catalog_and_set_up_defaults_are_the_engines(game: str) -> None:
    """A set-up with the defaults written out (as app/schemas.py load_setup does) is the
    same game as one without them."""
    facts, eng = info(game), engine(game)
    assert facts.default_catalog in eng.builtin_catalogs()
    assert set(facts.setup_order) <= set(eng.SETUP_KEYS)
    bare = _setup(game, 3)
    assert eng.new_game(bare) == eng.new_game({**bare, **facts.setup_defaults})
    assert eng.new_game(bare)["catalog"]["id"] == facts.default_catalog


def test_a_set_up_is_written_out_in_its_games_order_with_its_defaults() -> None:
    from app.schemas import SETUP, load_setup

    assert list(SETUP.fields) == list(info(DEFAULT_GAME).setup_order)
    for g in GAMES:
        facts = info(g)
        out = load_setup({"zz": 1, **_setup(g, 2)})
        listed = [k for k in facts.setup_order if k in out]
        assert list(out)[: len(listed)] == listed
        assert {k: out[k] for k in facts.setup_defaults} == dict(facts.setup_defaults)


@pytest.mark.parametrize("game", GAMES)
def test_the_play_decision_plays_a_card_and_every_card_has_a_name(game: str) -> None:
    """Random legal play meets the play decision, naming a card of the catalog, whose name in
    the balance report is a string (ai/balance.py)."""
    from ai.balance import PLAY_TYPE, card_name

    facts, eng = info(game), engine(game)
    assert PLAY_TYPE[game] == facts.play_decision
    assert "card" in eng.DECISION_FIELDS[facts.play_decision]
    g = eng.new_game_internal(eng.tournament_setup(5, 2, None))
    rnd = random.Random(5)
    played = []
    while not eng.is_terminal(g) and len(played) < 3:
        seat = eng.current_player(g)
        assert seat is not None
        action = rnd.choice(eng.legal_actions(g))
        d = eng.action_to_json(g, seat, action)
        if d["type"] == facts.play_decision:
            played.append(d["card"])
        eng.apply_action(g, action)
    assert played, "no card played"
    for card in list(g.cat.cards) + played:
        name = card_name(game, card)
        assert isinstance(name, str) and name and name in card


def test_architectura_counts_a_card_by_its_kind() -> None:
    from ai.balance import card_name

    assert card_name(DEFAULT_GAME, "blue.tavern") == card_name(DEFAULT_GAME, "green.tavern")


@pytest.mark.parametrize("game", GAMES)
def test_the_renderer_the_registration_names_draws_the_game(game: str) -> None:
    from app.render import RENDERERS

    path = info(game).renderer
    if path is None:
        assert game not in RENDERERS
        return
    module = importlib.import_module(path)
    assert RENDERERS[game] is module.render


# -- register_game refuses what does not fit -----------------------------------------------


def _facts(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "test-game",
        "name": "Test game",
        "rules_version": "test-game-rules/1",
        "min_seats": 2,
        "max_seats": 3,
        "clause_prefix": "T",
        "catalog_clause": "T-10",
        "seats_clause": "T-1.1",
        "view_clause": "T-4",
        "rule_documents": (),
        "ruling_documents": (),
        "play_decision": "play",
    }
    return {**base, **kw}


def _module(facts: GameInfo | None) -> ModuleType:
    """A package whose INFO is `facts` (None: a package without one)."""
    mod = ModuleType("tests.fake_game")
    if facts is not None:
        mod.INFO = facts  # type: ignore[attr-defined]
    return mod


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ({"min_seats": 0}, r"seats 0\.\.3"),
        ({"min_seats": 4}, r"seats 4\.\.3"),
        ({"clause_prefix": "t"}, "clause prefix 't'"),
        ({"seats_clause": "A-1.1"}, "clause 'A-1.1' is not one of its own"),
        ({"setup_defaults": {"variant": "x"}}, "out of setup_order: {'variant'}"),
        ({"setup_choices": {"variant": ("basic",)}}, "choices out of setup_order or empty"),
        ({"setup_choices": {"catalog": ()}}, "choices out of setup_order or empty"),
    ],
)
def test_a_game_info_refuses_facts_that_do_not_hold_together(
    bad: dict[str, Any], says: str
) -> None:
    with pytest.raises(ValueError, match=says):
        GameInfo(**_facts(**bad))


def test_register_game_refuses_a_module_that_is_not_the_game() -> None:
    before = dict(registered())
    facts = GameInfo(**_facts())
    # its INFO must be the very facts it registers (one source of a game's facts)
    for other in (None, GameInfo(**_facts()), GameInfo(**_facts(rules_version="other"))):
        with pytest.raises(ValueError, match="INFO"):
            register_game(facts, _module(other))
    with pytest.raises(ValueError, match="already registered"):
        taken = info(DEFAULT_GAME)
        register_game(taken, _module(taken))
    clash = GameInfo(
        **_facts(
            clause_prefix="A", catalog_clause="A-10", seats_clause="A-1.1", view_clause="A-R13"
        )
    )
    if any(info(g).clause_prefix == "A" for g in GAMES):
        with pytest.raises(ValueError, match="clause prefix"):
            register_game(clash, _module(clash))
    assert dict(registered()) == before
    assert "tests.fake_game" not in sys.modules
