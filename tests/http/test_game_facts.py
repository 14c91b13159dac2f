"""GET /v1/games: each registered game as a page shows it without naming it (its GameInfo), and
GET /v1/catalogs/{id}'s `names`: the cards' names in the asked language, as the board draws
them (an option's label once read "Jogar azul Temple" beside a board that said "Templo")."""

from __future__ import annotations

from typing import Any

import pytest
from http_support import check_response, make_app

from app.i18n import gettext, template
from engine.games import GAMES, info

CLIENT = make_app().test_client()


def _games(lang: str) -> dict[str, Any]:
    r = CLIENT.get("/v1/games", headers={"Accept-Language": lang})
    body = check_response("GET", "/v1/games", r)
    assert r.headers["Content-Language"] == lang
    return {g["game"]: g for g in body["games"]}


def test_every_game_is_listed_with_its_facts() -> None:
    games = _games("en")
    assert list(games) == list(GAMES)
    arch, fdp = games["architectura"], games["fora-de-prumo"]
    assert arch["seats"] == {"min": 2, "max": 4} and arch["catalog"] == "reference"
    assert [c["colour"] for c in arch["colours"]] == ["blue", "green", "yellow", "red"]
    assert arch["cell"] == "street {0}, block {1}"
    assert arch["setup"] == {"variant": ["basic", "advanced"]}
    assert fdp["colours"] == [] and fdp["setup"] == {} and fdp["cell"] == "({0}, {1})"
    assert fdp["name"] == "Fora de Prumo"


@pytest.mark.parametrize(
    ("lang", "cell", "blue"),
    [("pt", "rua {0}, quadra {1}", "azul"), ("fr", "rue {0}, îlot {1}", "bleu"),
     ("de", "Straße {0}, Block {1}", "blau")],
)  # fmt: skip
def test_the_facts_are_in_the_asked_language(lang: str, cell: str, blue: str) -> None:
    arch = _games(lang)["architectura"]
    assert arch["cell"] == cell
    assert arch["colours"][0] == {"colour": "blue", "name": blue}


def test_every_cell_name_in_words_is_a_catalog_message() -> None:
    """A cell named with words is translated (msgctxt "cell"); one of numbers alone needs none."""
    cells = {str(m.id) for m in template() if m.context == "cell"}
    for game in GAMES:
        name = info(game).cell_name
        assert name in cells or not any(c.isalpha() for c in name), (game, name)


@pytest.mark.parametrize("lang", ["en", "pt", "fr", "de"])
def test_a_catalog_names_its_cards_in_the_asked_language(lang: str) -> None:
    r = CLIENT.get("/v1/catalogs/reference?game=architectura", headers={"Accept-Language": lang})
    body = check_response("GET", "/v1/catalogs/{catalog_id}", r)
    cards = body["catalog"]["cards"]
    assert set(body["names"]) == {c["id"] for c in cards}
    for c in cards:  # every name as the board draws it; the document itself stays English
        assert body["names"][c["id"]] == gettext(lang, c["name"], "card"), c
    if lang == "pt":
        assert body["names"]["temple"] == "Templo" and cards[0]["name"] == "Well"
    assert r.headers["Content-Language"] == ("en" if lang == "en" else f"{lang}, en")


def test_names_a_catalog_does_not_translate_stay_as_they_are() -> None:
    """Fora de Prumo's cards have Portuguese names, which no language changes."""
    r = CLIENT.get("/v1/catalogs/reference?game=fora-de-prumo", headers={"Accept-Language": "de"})
    body = check_response("GET", "/v1/catalogs/{catalog_id}", r)
    assert body["names"] == {c["id"]: c["name"] for c in body["catalog"]["cards"]}


def test_a_game_drawn_without_a_legend_is_refused_with_a_404_not_a_500(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Toy Match (tests/toygame/), registered for this test: its legend, then none."""
    import toygame
    import toygame.render

    from engine.registry import register_game, unregister_game

    register_game(toygame.INFO, toygame)
    try:
        assert CLIENT.get("/v1/legend?game=toy-match").status_code == 200
        monkeypatch.delattr(toygame.render, "legend")
        r = CLIENT.get("/v1/legend?game=toy-match", headers={"Accept-Language": "de"})
        body = check_response("GET", "/v1/legend", r)
        assert r.status_code == 404 and body["code"] == "no_renderer"
        assert "toy-match" in body["detail"] and "Legende" in body["detail"]
    finally:
        unregister_game(toygame.GAME_ID)
