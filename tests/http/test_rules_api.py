"""GET /v1/rules/{clause}: every clause the engines cite can be looked up, with its text from
the project's restatement of the rules under docs/; unknown ids are 404 problems."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from http_support import ROOT, check_response, make_app
from shared_texts import shared_text

from app.rules import clauses, parse_rules, parse_rulings

CLIENT = make_app().test_client()


def get(clause: str) -> tuple[int, dict[str, object]]:
    r = CLIENT.get(f"/v1/rules/{clause}")
    body = check_response("GET", "/v1/rules/{clause}", r)
    return r.status_code, body


def test_a_clause_answers_its_text() -> None:
    status, body = get("A-4.2")
    assert status == 200
    assert body["game"] == "architectura" and body["kind"] == "clause"
    assert body["section"] == "A-4"
    text = str(body["text"])
    assert "3 or more face-up cards" in text and text in _flat(ROOT / "docs/architectura/rules.md")


def test_rulings_of_both_games() -> None:
    status, body = get("A-R3")
    assert status == 200 and body["kind"] == "ruling" and body["completes"] == ["A-3.2"]
    assert str(body["text"]).startswith("A seat with cards but no legal play passes")
    status, body = get("F-R14")
    assert status == 200 and body["game"] == "fora-de-prumo" and body["completes"] == ["F-5.2"]
    assert "suit of the door's symbol" in str(body["text"])


def test_sections_and_lettered_parts() -> None:
    status, body = get("F-5")
    assert status == 200 and body["kind"] == "section"
    assert body["title"] == "Measures of a building"
    assert "**F-5.2**" in str(body["text"])  # a section holds its clauses
    status, body = get("A-3.1c")
    assert status == 200 and body["part"] == "c" and body["clause"] == "A-3.1c"
    assert "(c)" in str(body["text"])


def _flat(path: Path) -> str:
    return " ".join(line.strip() for line in path.read_text(encoding="utf-8").splitlines())


def _cited_by_engines() -> list[str]:
    """Every clause or ruling id written in the engines' and the app's source (errors and
    events cite them)."""
    ids: set[str] = set()
    for root in ("engine", "app", "ai"):
        for f in (ROOT / root).rglob("*.py"):
            ids.update(re.findall(r'"([AF]-(?:R\d+|\d+(?:\.\d+)*[a-z]?))"', f.read_text()))
    return sorted(ids)


def test_engines_cite_clauses() -> None:
    cited = _cited_by_engines()
    assert len(cited) > 60 and "A-4.1" in cited and "F-R9" in cited


@pytest.mark.parametrize("clause", _cited_by_engines())
def test_every_clause_an_engine_cites_can_be_looked_up(clause: str) -> None:
    status, body = get(clause)
    assert status == 200, f"{clause} is cited in the code but not in docs/"
    assert body["text"] or body.get("title")


@pytest.mark.parametrize("clause", ["A-99", "A-R999", "F-4.9", "X-1", "a-4.2", "A-4.2'", "A-" * 30])
def test_unknown_clauses_are_404_problems(clause: str) -> None:
    status, body = get(clause)
    assert status == 404
    assert body["code"] == "unknown_clause" and "A-4.2" in str(body["detail"])


def test_parser_reads_the_normative_spelling() -> None:
    """The normative rule text (`- A-4.2 text`, `- F-R14 (F-5.2) text`) parses like the docs."""
    rules = parse_rules(
        "# Title\n## A-4 Eligible cells\n\n- A-4.1 A cell is eligible when\n  it is empty.\n"
        "- A-4.2 With 3 or 4 players.\n\nprose\n## A-5 Comparing\n",
        "architectura",
        "x.md",
    )
    assert rules["A-4.1"].text == "A cell is eligible when it is empty."
    assert rules["A-4.2"].section == "A-4"
    assert rules["A-4"].title == "Eligible cells" and "prose" in rules["A-4"].text
    rulings = parse_rulings(
        "## Rulings\n- F-R14 (F-5.2) A qualification's type is the suit.\n", "fora-de-prumo", "y"
    )
    assert rulings["F-R14"].completes == ["F-5.2"]
    assert rulings["F-R14"].text == "A qualification's type is the suit."


def test_the_normative_text_and_the_docs_have_the_same_ids() -> None:
    """Where the normative rule text is beside the repository, every clause id it defines is
    answered from docs/ (the restatement keeps the ids)."""
    pages = {"A": "architectura.md", "F": "fora-de-prumo.md"}
    for prefix, page in pages.items():
        text = shared_text("rules", page)
        defined = set(parse_rules(text, "", "")) | set(parse_rulings(text, "", ""))
        defined = {c for c in defined if c.startswith(prefix)}
        assert len(defined) > 20
        missing = sorted(c for c in defined if get(c)[0] != 200)
        assert missing == [], f"{page.name}: ids not answered from docs/: {missing}"


def test_without_the_rule_pages_the_answer_is_a_503_problem(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import app.rules as rules

    monkeypatch.setattr(rules, "ROOT", tmp_path)  # an installation without docs/
    rules.clauses.cache_clear()
    try:
        status, body = get("A-4.2")
        assert status == 503 and body["code"] == "rules_unavailable"
    finally:
        monkeypatch.undo()
        rules.clauses.cache_clear()
    assert get("A-4.2")[0] == 200


# -- GET /v1/rules: the whole rules, per game ------------------------------------------------


def index(query: str = "", lang: str = "en") -> tuple[int, dict[str, Any]]:
    r = CLIENT.get(f"/v1/rules{query}", headers={"Accept-Language": lang})
    return r.status_code, check_response("GET", "/v1/rules", r)


def test_the_index_lists_every_clause_and_ruling_of_both_games_in_page_order() -> None:
    status, body = index()
    assert status == 200
    games = {g["game"]: g for g in body["games"]}
    assert list(games) == ["architectura", "fora-de-prumo"]
    for game, prefix in (("architectura", "A"), ("fora-de-prumo", "F")):
        listed = [c["clause"] for c in games[game]["clauses"]]
        assert listed == list(clauses(prefix)), game  # every one, once, in the pages' order
        assert {"section", "clause", "ruling"} <= {c["kind"] for c in games[game]["clauses"]}
        for c in games[game]["clauses"][:: max(1, len(listed) // 12)]:
            assert c == get(c["clause"])[1], c["clause"]  # each entry as /v1/rules/{id} says
    assert listed.index("F-1") < listed.index("F-1.1") < listed.index("F-R1")


def test_the_index_of_one_game_and_of_no_game() -> None:
    status, body = index("?game=fora-de-prumo")
    assert status == 200 and [g["game"] for g in body["games"]] == ["fora-de-prumo"]
    status, body = index("?game=chess")
    assert status == 404 and body["code"] == "unknown_game" and body["pointer"] == "/game"
    assert "'chess'" in body["detail"]


def test_the_index_titles_follow_the_asked_language() -> None:
    _, en = index("?game=architectura")
    _, pt = index("?game=architectura", "pt")
    titles = {c["clause"]: c.get("title") for c in en["games"][0]["clauses"]}
    translated = {c["clause"]: c.get("title") for c in pt["games"][0]["clauses"]}
    assert titles["A-4"] == "Eligible cells" and translated["A-4"] not in (None, "Eligible cells")
    assert [c["text"] for c in en["games"][0]["clauses"]] == [
        c["text"] for c in pt["games"][0]["clauses"]
    ]
