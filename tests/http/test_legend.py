"""GET /v1/legend?game=…: every symbol of a game's pictures, drawn by the board's own helpers,
with what it means in the language asked for (docs/render.md)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

SVG_NS = "{http://www.w3.org/2000/svg}"
# the symbols the pictures draw (docs/render.md), written here independently of the code
KINDS = {
    "architectura": {
        "card",
        "value",
        "dial",
        "arrow",
        "formula-x",
        "formula-no",
        "beneath",
        "shield",
        "fountain",
        "face-down",
        "last-move",
    },
    "fora-de-prumo": {
        "wall",
        "door",
        "suit-G",
        "suit-P",
        "suit-B",
        "suit-Y",
        "connection",
        "qualified",
        "obstructed",
        "street-door",
        "patio",
        "joker",
        "x2",
        "spent",
        "hidden",
        "last-move",
    },
}
# classes of the board's own markers, which the legend must draw with the same helpers
BOARD_CLASSES = {
    "architectura": {"token", "fountain", "last-move"},
    "fora-de-prumo": {"symbol", "connection", "obstructed", "street-door", "patio", "last-move"},
}


@pytest.fixture(scope="module")
def client(make_app: Any) -> Any:
    return make_app().test_client()


def legend(client: Any, game: str, lang: str = "en") -> tuple[Any, ET.Element]:
    r = client.get(f"/v1/legend?game={game}", headers={"Accept-Language": lang})
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    assert r.mimetype == "image/svg+xml" and r.headers["Content-Language"] == lang
    assert "sandbox" in r.headers["Content-Security-Policy"]
    return r, ET.fromstring(r.get_data(as_text=True))


def items(root: ET.Element) -> dict[str, str]:
    """data-symbol -> the label drawn beside it."""
    out = {}
    for g in root.iter(f"{SVG_NS}g"):
        if g.get("class") == "legend-item":
            words = [t.text or "" for t in g.findall(f"{SVG_NS}text")]
            out[g.get("data-symbol") or ""] = " ".join(words)
    return out


@pytest.mark.parametrize("game", sorted(KINDS))
def test_every_symbol_kind_is_in_the_legend(client: Any, game: str) -> None:
    _, root = legend(client, game)
    got = items(root)
    assert set(got) == KINDS[game]
    assert all(label.strip() for label in got.values())
    classes = {c for e in root.iter() for c in (e.get("class") or "").split()}
    assert BOARD_CLASSES[game] <= classes
    if game == "fora-de-prumo":  # the four suits' letters on their door dots
        letters = {
            t.text
            for g in root.iter(f"{SVG_NS}g")
            if g.get("class") == "symbol"
            for t in g.iter(f"{SVG_NS}text")
        }
        assert letters == {"G", "P", "B", "Y"}


@pytest.mark.parametrize("lang", ["pt", "fr", "de"])
@pytest.mark.parametrize("game", sorted(KINDS))
def test_the_labels_are_translated(client: Any, game: str, lang: str) -> None:
    english = items(legend(client, game)[1])
    translated = items(legend(client, game, lang)[1])
    assert set(translated) == set(english)
    same = [k for k in english if english[k] == translated[k]]
    assert same == [], f"{lang}: labels left in English: {same}"
    heading = {"pt": "o que as imagens mostram", "fr": "ce que montrent", "de": "was die Bilder"}
    _, root = legend(client, game, lang)
    assert heading[lang] in (root.get("aria-label") or "")


def test_a_legend_without_its_game_is_a_missing_field(client: Any) -> None:
    """`game` is required: its absence was a 404 for the game '' (audit of 2026-11-29)."""
    r = client.get("/v1/legend")
    assert r.status_code == 400 and r.get_json()["code"] == "invalid_request"
    assert r.get_json()["problems"][0]["code"] == "missing_field"
    assert r.get_json()["pointer"] == "/game" and "send ?game=" in r.get_json()["detail"]


@pytest.mark.parametrize("query", ["?game=", "?game=chess", "?game=%3Cb%3E"])
def test_an_unknown_game_is_404(client: Any, query: str) -> None:
    r = client.get(f"/v1/legend{query}")
    assert r.status_code == 404 and r.get_json()["code"] == "unknown_game"
    assert "architectura" in r.get_json()["detail"]
