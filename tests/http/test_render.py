"""POST /v1/render (app/render/): SVG pictures of both games, drawn from what the engine reads;
views hide what a seat may not see; hostile text escaped; bad input refused with problems.
Also GET /play and its static assets (the browser tests are in tests/http/test_browser.py)."""

from __future__ import annotations

import copy
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from http_support import ROOT, json_paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import app.i18n as i18n
import app.render as render_pkg
import engine.render.svg as svg
from engine.games import engine

SVG_NS = "{http://www.w3.org/2000/svg}"
ARCH = engine("architectura")
FDP = engine("fora-de-prumo")


def play(
    eng: Any,
    state: dict[str, Any],
    seed: int,
    until: Callable[[dict[str, Any]], bool],
    catalog: Any = None,
) -> dict[str, Any]:
    """Random legal decisions until `until(state)` holds (or the game ends)."""
    rnd = random.Random(seed)
    while not state["game_over"] and not until(state):
        state, _ = eng.apply_all(state, [rnd.choice(state["pending"]["options"])], catalog)
    return state


def arch_rich_state() -> dict[str, Any]:
    """A 3-seat advanced game with a Fountain token, a protection token and a covered card."""
    setup = {
        "seats": 3,
        "seed": 0,
        "variant": "advanced",
        "replacements": [{"fountain": "market"}] * 3,
    }

    def rich(s: dict[str, Any]) -> bool:
        cells = [c for street in s["city"] for c in street]
        return (
            bool(s["fountains"])
            and any(len(c) > 1 for c in cells)
            and any(e["token"] for c in cells for e in c)
        )

    state = play(ARCH, ARCH.new_game(setup), 0, rich)
    assert rich(state), "the seeded game should reach a Fountain, a token and a covered card"
    return state


def fdp_state(seats: int = 3, seed: int = 3, decisions: int = 70) -> dict[str, Any]:
    state = FDP.new_game({"game": "fora-de-prumo", "seats": seats, "seed": seed})
    count = iter(range(decisions))
    return play(FDP, state, seed, lambda s: next(count, None) is None)


@pytest.fixture(scope="module")
def client(make_app: Any) -> Any:
    return make_app().test_client()


def svg_of(client: Any, body: dict[str, Any]) -> tuple[str, ET.Element]:
    r = client.post("/v1/render", json=body)
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    assert r.mimetype == "image/svg+xml"
    text = r.get_data(as_text=True)
    return text, ET.fromstring(text)  # well-formed XML, or this raises


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def titles(root: ET.Element) -> str:
    return "\n".join(e.text or "" for e in root.iter(f"{SVG_NS}title"))


# -- Architectura -----------------------------------------------------------------------------


def test_architectura_three_seats_every_cell_and_top_card(client: Any) -> None:
    state = arch_rich_state()
    text, root = svg_of(client, {"state": state})
    assert "<svg" in text
    cells = by_class(root, "cell")
    assert len(cells) == 3 * 8  # streets = seats, 8 blocks
    cat = ARCH.builtin_catalogs()["reference"]
    by_cell = {c.get("data-cell"): c for c in cells}
    for s, street in enumerate(state["city"]):
        for b, stack in enumerate(street):
            cell = by_cell[f"[{s + 1}, {b + 1}]"]
            if not stack:
                assert cell.get("data-card") is None
                continue
            top = stack[-1]
            assert cell.get("data-card") == top["card"]
            words = " ".join(t.text or "" for t in cell.iter(f"{SVG_NS}text"))
            assert cat.cards[top["card"].partition(".")[2]].name[:14] in words
            if top["face_up"]:
                assert str(top["value"]) in words.split()
            else:
                assert "face down" in words
            if top["token"]:
                assert by_class(cell, "token")
            if len(stack) > 1:
                hover = cell.find(f"{SVG_NS}title")
                assert hover is not None and "beneath" in (hover.text or "")
                assert f"+{len(stack) - 1}" in words
    fountains = by_class(root, "fountain")
    assert len(fountains) == len(state["fountains"])
    assert "Fountain token" in titles(root)


def test_architectura_seats_show_counts_and_scores(client: Any) -> None:
    state = arch_rich_state()
    _, root = svg_of(client, {"state": state})
    score = ARCH.score(state)
    panels = by_class(root, "seat")
    assert len(panels) == 3
    for i, panel in enumerate(panels):
        words = " ".join(t.text or "" for t in panel.iter(f"{SVG_NS}text"))
        seat = state["seats"][i]
        assert f"{score['seats'][i]['total']} pts" in words
        assert (
            f"hand {len(seat['hand'])} · deck {len(seat['deck'])} · tokens {seat['tokens']}"
            in words
        )
    # the referee's picture shows every hand
    hands = {(e.get("data-seat"), e.get("data-card")) for e in by_class(root, "hand-card")}
    assert hands == {(str(i), c) for i, s in enumerate(state["seats"]) for c in s["hand"]}


def test_a_seats_view_hides_the_other_hands(client: Any) -> None:
    state = arch_rich_state()
    text, root = svg_of(client, {"state": state, "seat": 1})
    hands = {e.get("data-card") for e in by_class(root, "hand-card")}
    assert hands == set(state["seats"][1]["hand"])
    view = client.post("/v1/view", json={"state": state, "seat": 1}).get_json()
    same, _ = svg_of(client, {"view": view})
    assert same == text  # the view re-read by the engine draws the same picture
    assert svg_of(client, {"view": view, "seat": 1})[0] == text


def test_the_same_request_gives_the_same_bytes(client: Any) -> None:
    state = arch_rich_state()
    assert svg_of(client, {"state": state})[0] == svg_of(client, {"state": state})[0]


# -- Fora de Prumo ----------------------------------------------------------------------------


def test_fora_de_prumo_three_seats_buildings_market_and_scores(client: Any) -> None:
    state = fdp_state()
    text, root = svg_of(client, {"state": state})
    assert "<svg" in text
    score = FDP.score(state)
    spaces = by_class(root, "space")
    laid = {
        (str(i), p["card"]) for i, s in enumerate(state["seats"]) for p in s["work"]["building"]
    }
    assert {(e.get("data-seat"), e.get("data-card")) for e in spaces} == laid
    assert laid, "the seeded game should have spaces laid"
    ms = [s["measures"] for s in score["seats"]]
    # markers read from the engine's measures (F-5): one per connection, street door, patio
    assert len(by_class(root, "connection")) == sum(m["connections"] for m in ms)
    labels = [e.find(f"{SVG_NS}text") for e in by_class(root, "qualified")]
    quals = sum(int(t.text or "") for t in labels if t is not None)
    assert quals == sum(m["qualified"] for m in ms)
    assert len(by_class(root, "street-door")) == sum(m["street_doors"] for m in ms)
    assert len(by_class(root, "patio")) == sum(m["patio_cells"] for m in ms)
    market = [e.get("data-card") for e in by_class(root, "market-card")]
    assert market == state["market"]
    sites = {(e.get("data-seat"), e.get("data-card")) for e in by_class(root, "site-card")}
    assert sites == {(str(i), c) for i, s in enumerate(state["seats"]) for c in s["work"]["site"]}
    words = " ".join(t.text or "" for t in root.iter(f"{SVG_NS}text"))
    for s in score["seats"]:
        assert f"{s['total']} pts" in words


def test_fora_de_prumo_patio_and_symbols_are_drawn(client: Any) -> None:
    """A game with a patio cell (F-R16): it is drawn, and suit-symbol doors carry their suit."""
    for seed in range(60):
        state = fdp_state(2, seed, 400)
        if any(s["measures"]["patio_cells"] for s in FDP.score(state)["seats"]):
            break
    else:
        pytest.fail("no seeded game in 60 reached a patio cell")
    _, root = svg_of(client, {"state": state})
    assert by_class(root, "patio")
    assert "patio cell" in titles(root)
    assert re.search(
        r"door with the (exteriores|conforto|circulacoes|atividades) symbol", titles(root)
    )


def test_fora_de_prumo_view_hides_hands_and_clone_cards(client: Any) -> None:
    state = fdp_state()
    _, root = svg_of(client, {"state": state, "seat": 2})
    hands = {(e.get("data-seat"), e.get("data-card")) for e in by_class(root, "hand-card")}
    assert hands == {("2", c) for c in state["seats"][2]["hand"]}
    view = client.post("/v1/view", json={"state": state, "seat": 2}).get_json()
    assert svg_of(client, {"view": view})[0] == svg_of(client, {"state": state, "seat": 2})[0]


def test_a_space_laid_can_be_previewed_without_being_applied(client: Any) -> None:
    """`preview`: one of the pending lay options drawn in the building (class `preview`),
    each rotation drawn differently, the state unchanged and its other pictures the same; an
    option that is not pending (or another seat's, in a view) is 422 invalid_preview."""
    state = FDP.new_game({"game": "fora-de-prumo", "seats": 2, "seed": 5})
    buy = next(o for o in state["pending"]["options"] if o["type"] == "buy")
    state, _ = FDP.apply_all(state, [buy])
    lays = [o for o in state["pending"]["options"] if o["type"] == "lay" and "x" in o]
    assert len(lays) >= 4
    before = copy.deepcopy(state)
    plain, _ = svg_of(client, {"state": state, "seat": 0})
    pictures = set()
    for o in lays[:4]:  # one card at (0, 0), its four rotations (F-R10)
        text, root = svg_of(client, {"state": state, "seat": 0, "preview": o})
        shown = by_class(root, "preview")
        assert [e.get("data-card") for e in shown] == [o["card"]]
        assert "not laid until the decision is confirmed" in titles(root)
        pictures.add(text)
    assert len(pictures) == 4 and plain not in pictures
    assert state == before and svg_of(client, {"state": state, "seat": 0})[0] == plain
    # a site card's lay, or a pass, is drawn as the position stands
    other = next(o for o in state["pending"]["options"] if o["type"] == "pass")
    assert svg_of(client, {"state": state, "seat": 0, "preview": other})[0] == plain
    view = client.post("/v1/view", json={"state": state, "seat": 1}).get_json()
    for body in (
        {"state": state, "seat": 0, "preview": {**lays[0], "r": 9}},
        {"state": state, "seat": 0, "preview": {"seat": 0, "type": "skip"}},
        {"view": view, "preview": lays[0]},  # seat 1 sees no option of seat 0
        # an option as JSON, types included (audit of 2026-11-30: Python's == took these)
        {"state": state, "seat": 0, "preview": {**lays[0], "seat": 0.0}},
        {"state": state, "seat": 0, "preview": {**lays[0], "r": float(lays[0]["r"])}},
    ):
        r = client.post("/v1/render", json=body)
        assert r.status_code == 422, body
        assert r.get_json()["code"] == "invalid_preview"
        assert r.get_json()["pointer"] == "/preview"


# -- hostile text, errors, bounds -------------------------------------------------------------

HOSTILE = '<script>alert("x")</script>&<b'


def hostile_catalog(eng: Any, *fields: str) -> dict[str, Any]:
    """The reference catalog as a custom one whose cards' `fields` are all HOSTILE."""
    doc: dict[str, Any] = copy.deepcopy(eng.builtin_catalogs()["reference"].to_json())
    doc["id"] = "hostile"
    for card in doc["cards"]:
        card.update(dict.fromkeys(fields, HOSTILE))
    return doc


def test_names_from_a_custom_catalog_are_escaped(client: Any) -> None:
    doc = hostile_catalog(ARCH, "name", "text")
    state = ARCH.new_game({"seats": 2, "seed": 1, "catalog": doc})
    state = play(ARCH, state, 1, lambda s: sum(len(c) for st in s["city"] for c in st) >= 4, doc)
    text, root = svg_of(client, {"state": state, "catalog": doc})
    assert "<script" not in text and "&lt;script&gt;" in text
    assert HOSTILE[:14] in "".join(root.itertext())  # shown as text, clipped


def test_fora_de_prumo_custom_catalog_names_are_escaped(client: Any) -> None:
    doc = hostile_catalog(FDP, "name", "gloss")
    state = FDP.new_game({"game": "fora-de-prumo", "seats": 2, "seed": 4, "catalog": doc})
    count = iter(range(30))
    state = play(FDP, state, 4, lambda s: next(count, None) is None, doc)
    text, _ = svg_of(client, {"state": state, "catalog": doc})
    assert "<script" not in text and "&lt;script&gt;" in text


UNDRAWABLE = "a\x01\x0b\x1b\ufffe\uffff\u202eb"  # XML forbids the first five; a bidi override


@pytest.mark.parametrize("eng", [ARCH, FDP], ids=lambda e: e.INFO.id)
def test_a_catalog_whose_names_xml_cannot_hold_is_refused(client: Any, eng: Any) -> None:
    """A control character, U+FFFE or U+FFFF in a card's name made the whole SVG unreadable
    (not well-formed XML; audit of 2026-11-29); a bidi override showed it reversed. They were
    then drawn as U+FFFD; now the catalog holding one is refused (engine/text.py), before any
    game is made with it or drawn."""
    doc: dict[str, Any] = copy.deepcopy(eng.builtin_catalogs()["reference"].to_json())
    doc["id"] = "undrawable"
    setup = {"game": eng.INFO.id, "seats": 2, "seed": 1, "catalog": doc}
    state = client.post("/v1/games", json=setup).get_json()["state"]
    for ch in UNDRAWABLE[1:-1]:
        doc["cards"][3]["name"] = f"a{ch}b"
        r = client.post("/v1/games", json=setup)
        assert r.status_code == 422, (repr(ch), r.get_json())
        found = r.get_json()["problems"][0]  # then what the card's absence breaks
        assert found["code"] == "catalog_value" and found["pointer"] == "/catalog/cards/3/name"
        assert "control characters" in found["detail"]
        r = client.post("/v1/render", json={"state": state, "catalog": doc})
        assert r.status_code == 422 and r.get_json()["problems"][0] == found


def test_svg_text_draws_what_xml_cannot_hold_as_replacement_characters() -> None:
    """Every text of a picture passes `esc`: whatever reaches it, the SVG stays well formed."""
    drawn = svg.esc(UNDRAWABLE + "<&>")
    assert drawn == "a\ufffd\ufffd\ufffd\ufffd\ufffd\ufffdb&lt;&amp;&gt;"
    ET.fromstring(f"<t>{drawn}</t>")


def problem(client: Any, body: Any, status: int, code: str, **kw: Any) -> dict[str, Any]:
    r = client.post("/v1/render", **({"json": body} if kw == {} else kw))
    assert r.status_code == status, r.get_data(as_text=True)[:400]
    assert r.mimetype == "application/problem+json"
    out: dict[str, Any] = r.get_json()
    assert out["code"] == code, out
    return out


def test_bad_requests_are_problems(client: Any) -> None:
    state = ARCH.new_game({"seats": 2, "seed": 1})
    view = ARCH.player_view(state, 0)
    problem(client, {}, 400, "invalid_request")
    problem(client, {"state": state, "view": view}, 400, "invalid_request")
    problem(client, {"state": state, "seat": "1"}, 400, "invalid_request")
    problem(client, {"state": state, "colour": "red"}, 400, "invalid_request")
    problem(client, None, 415, "unsupported_media_type", data="x", content_type="text/plain")
    problem(client, None, 400, "malformed_json", data="{", content_type="application/json")


def test_inconsistent_documents_are_422_with_pointers(client: Any) -> None:
    state = ARCH.new_game({"seats": 2, "seed": 1})
    broken = copy.deepcopy(state)
    broken["seats"][0]["hand"].append(broken["seats"][1]["hand"][0])
    out = problem(client, {"state": broken}, 422, "invalid_state")
    assert out["pointer"].startswith("/state")
    problem(client, {"state": {**state, "game": "chess"}}, 422, "invalid_state")
    out = problem(client, {"state": state, "seat": 3}, 422, "unknown_seat")
    assert out["pointer"] == "/seat"
    view = ARCH.player_view(state, 0)
    assert problem(client, {"view": view, "seat": 1}, 422, "seat_not_viewer")["pointer"] == "/seat"
    out = problem(client, {"view": {**view, "view_of": 5}}, 422, "invalid_view")
    assert out["pointer"] == "/view/view_of"
    junk = {**view, "seats": [{"colour": []}, 7]}
    assert problem(client, {"view": junk}, 422, "invalid_view")["pointer"].startswith("/view")
    fview = FDP.player_view(fdp_state(2, 1, 10), 1)
    missing = {k: v for k, v in fview.items() if k != "unseen"}
    r = client.post("/v1/render", json={"view": missing})
    assert r.status_code == 422 and r.get_json()["code"] in ("invalid_view", "invalid_state")
    assert r.get_json()["pointer"].startswith("/view")
    forged = copy.deepcopy(fview)
    forged["market"] = forged["market"][:1] * 2
    # refused as /v1/suggest refuses it (a view that no valid state shows: invalid_view)
    assert problem(client, {"view": forged}, 422, "invalid_view")["pointer"].startswith("/view")


@pytest.mark.parametrize(
    ("field", "value"),
    [("deck_count", "lots"), ("deck_count", 12345), ("deck_count", -5), ("rng", "forged")],
)
def test_a_doctored_view_is_refused_as_suggest_refuses_it(
    client: Any, field: str, value: Any
) -> None:
    """A view whose fields no state shows was drawn from the state rebuilt from it, the
    doctored fields silently dropped (200); /v1/suggest refused the same view. Both now read
    it with one reader (engine/views.py) and answer the same 422."""
    state = ARCH.new_game({"seats": 2, "seed": 1})
    view = client.post("/v1/view", json={"state": state, "seat": 0}).get_json()
    doctored = copy.deepcopy(view)
    if field == "rng":
        doctored["rng"] = value
    else:
        doctored["seats"][1][field] = value
    drawn = problem(client, {"view": doctored}, 422, "invalid_view")
    assert drawn["pointer"].startswith("/view/") and drawn["detail"]
    suggested = client.post("/v1/suggest", json={"view": doctored, "budget": {"iterations": 3}})
    assert suggested.status_code == 422
    assert (suggested.get_json()["code"], suggested.get_json()["pointer"]) == (
        drawn["code"],
        drawn["pointer"],
    )
    assert client.post("/v1/render", json={"view": view}).status_code == 200


def test_a_state_sent_as_a_view_is_told_to_send_it_as_state(client: Any) -> None:
    """A state in the place of a view got "view_of must be the viewing seat"; /v1/suggest
    says what to send instead, and so does /v1/render now, with the same code and pointer."""
    state = fdp_state(2, 1, 10)
    drawn = problem(client, {"view": state}, 422, "invalid_view")
    assert [p["code"] for p in drawn["problems"]] == ["state_not_view"]
    suggested = client.post("/v1/suggest", json={"view": state, "budget": {"iterations": 3}})
    assert (drawn["pointer"], drawn["detail"]) == (
        suggested.get_json()["pointer"],
        suggested.get_json()["detail"],
    )
    assert "send it as `state`" in drawn["detail"]
    assert client.post("/v1/render", json={"state": state}).status_code == 200


def test_the_picture_size_is_bounded(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_pkg, "MAX_SVG_BYTES", 1000)
    import app.render.http as render_http

    monkeypatch.setattr(render_http, "MAX_SVG_BYTES", 1000)
    problem(client, {"state": ARCH.new_game({"seats": 2, "seed": 1})}, 422, "picture_too_large")


# -- the page ---------------------------------------------------------------------------------


def test_play_page_is_served_with_its_assets_from_this_host_only(client: Any) -> None:
    r = client.get("/play")
    assert r.status_code == 200 and r.mimetype == "text/html"
    csp = r.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    html = r.get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert "/static/play.js" in assets and "/static/play.css" in assets
    static = Path(ROOT, "app", "static")
    for name in ("play.html", "play.js", "play.css"):
        body = (static / name).read_text(encoding="utf-8")
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", body, re.I), name
    for asset in assets:
        if asset.startswith("/static/"):
            got = client.get(asset)
            assert got.status_code == 200, asset
    # the same page through the static route keeps the policy (was: none, so it could be framed)
    same = client.get("/static/play.html")
    assert same.status_code == 200 and same.headers["Content-Security-Policy"] == csp
    assert "frame-ancestors 'none'" in csp


# -- hostile documents ------------------------------------------------------------------------

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.sampled_from([2**40, -(2**63), 1.5, "", "<b>", "blue.well", "SP09", "A-1", "#3"]),
    st.lists(st.integers(-2, 9), max_size=3),
    st.just({}),
)


def _documents() -> list[tuple[str, dict[str, Any]]]:
    arch = arch_rich_state()
    fdp = fdp_state()
    return [
        ("state", arch),
        ("view", ARCH.player_view(arch, 1)),
        ("state", fdp),
        ("view", FDP.player_view(fdp, 0)),
    ]


DOCUMENTS = _documents()


@st.composite
def corrupted(draw: st.DrawFn) -> dict[str, Any]:
    """A render request whose state or view has 1 to 3 values replaced or removed."""
    kind, original = draw(st.sampled_from(DOCUMENTS))
    doc = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(json_paths(doc)[1:]))
        parent: Any = doc
        for k in path[:-1]:
            parent = parent[k]
        if draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(JUNK)
    body: dict[str, Any] = {kind: doc}
    if kind == "state" and draw(st.booleans()):
        body["seat"] = draw(st.integers(0, 3))
    return body


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=corrupted())
def test_corrupted_documents_never_reach_the_catch_all(client: Any, body: dict[str, Any]) -> None:
    r = client.post("/v1/render", json=body)
    assert r.status_code in (200, 422), r.get_data(as_text=True)[:300]
    if r.status_code == 200:
        ET.fromstring(r.get_data(as_text=True))
    else:
        assert r.get_json()["pointer"].startswith(("/state", "/view", "/seat", "/catalog"))


# -- languages (Accept-Language, app/i18n.py catalogs, msgctxt "render") ----------------------

# words each language must draw, written here independently of the catalogs
ARCH_WORDS = {
    "pt": ["mão", "baralho", "fichas", "lugar", "Turno"],
    "fr": ["main", "pioche", "jetons", "place", "Tour"],
    "de": ["Hand", "Stapel", "Marker", "Platz", "Zug"],
}
FDP_WORDS = {
    "pt": ["Lugar", "mão", "canteiro", "mercado", "baralho", "conexões", "qualificadas", "Turno"],
    "fr": ["Place", "main", "chantier", "marché", "pioche", "connexions", "matériaux", "Tour"],
    "de": ["Platz", "Hand", "Baustelle", "Markt", "Stapel", "Verbindungen", "Materialien", "Zug"],
}
ENGLISH_ONLY = ["hand ", "deck ", "market", "Seat ", "Turn ", "connections"]


def svg_in(client: Any, body: dict[str, Any], lang: str) -> tuple[str, ET.Element]:
    r = client.post("/v1/render", json=body, headers={"Accept-Language": lang})
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    assert r.mimetype == "image/svg+xml"
    assert r.headers["Content-Language"] == lang
    assert "Accept-Language" in r.headers.get("Vary", "")
    text = r.get_data(as_text=True)
    return text, ET.fromstring(text)  # still well-formed XML


def shown(root: ET.Element) -> str:
    return "\n".join(t.text or "" for t in root.iter(f"{SVG_NS}text"))


def card_in(lang: str, name: str) -> str:
    m = i18n.catalog(lang).get(name, context="card")
    assert m is not None and m.string, f"{lang}: no name for {name}"
    return str(m.string)


@pytest.mark.parametrize("lang", ["pt", "fr", "de"])
def test_architectura_is_drawn_in_the_language_asked_for(client: Any, lang: str) -> None:
    state = arch_rich_state()
    english = shown(svg_of(client, {"state": state})[1])
    _, root = svg_in(client, {"state": state}, lang)
    words = shown(root)
    for w in ARCH_WORDS[lang]:
        assert w in words, f"{lang}: {w!r} not drawn"
    for w in [*ENGLISH_ONLY[:2], "Turn "]:
        assert w in english and w not in words, f"{lang}: English {w!r} left"
    cat = ARCH.builtin_catalogs()["reference"]
    names = {c[-1]["card"].partition(".")[2] for street in state["city"] for c in street if c}
    names |= {c.partition(".")[2] for s in state["seats"] for c in s["hand"]}
    translated = 0
    for cid in names:
        local = card_in(lang, cat.cards[cid].name)
        assert local[:12] in words, f"{lang}: {local!r} ({cid}) not drawn"
        translated += local != cat.cards[cid].name
    assert translated, "some drawn card name should differ from English"
    colours = [str(i18n.gettext(lang, s["colour"], "colour")) for s in state["seats"]]
    assert all(c in words for c in colours) and colours != [s["colour"] for s in state["seats"]]


@pytest.mark.parametrize("lang", ["pt", "fr", "de"])
def test_fora_de_prumo_is_drawn_in_the_language_asked_for(client: Any, lang: str) -> None:
    state = fdp_state()
    assert len(state["seats"]) == 3
    _, root = svg_in(client, {"state": state}, lang)
    words = shown(root)
    for w in FDP_WORDS[lang]:
        assert w in words, f"{lang}: {w!r} not drawn"
    for w in ENGLISH_ONLY:
        assert w not in words, f"{lang}: English {w!r} left"
    types = {FDP.builtin_catalogs()["reference"].cards[c].type for c in state["market"]}
    for t in types:  # card types on the chips, as the catalogs translate them
        label = str(i18n.gettext(lang, t, "card type"))
        # a space is drawn as it is laid (walls and doors): its type is in its hover title
        assert label in (titles(root) if t == "space" else words)
    for s in FDP.score(state)["seats"]:
        label = i18n.gettext(lang, "{total} pts", "render")
        assert label is not None and label.format(total=s["total"]) in words


def test_a_finished_game_names_its_winner_in_the_language_asked_for(client: Any) -> None:
    a = play(ARCH, ARCH.new_game({"seats": 3, "seed": 5}), 5, lambda s: False)
    f = play(
        FDP, FDP.new_game({"game": "fora-de-prumo", "seats": 3, "seed": 5}), 5, lambda s: False
    )
    for state, winner in ((a, "Fim de jogo · vencedor:"), (f, "Fim de jogo · vencedor: lugar")):
        assert state["game_over"]
        assert winner in shown(svg_in(client, {"state": state}, "pt")[1])


@pytest.mark.parametrize("lang", ["pt", "fr", "de"])
def test_translated_pictures_still_escape_names(client: Any, lang: str) -> None:
    doc = hostile_catalog(ARCH)
    for card in doc["cards"]:
        card["name"] = HOSTILE + card["name"]  # unknown to the catalogs: drawn as given
    state = ARCH.new_game({"seats": 3, "seed": 1, "catalog": doc})
    state = play(ARCH, state, 1, lambda s: sum(len(c) for st in s["city"] for c in st) >= 4, doc)
    text, root = svg_in(client, {"state": state, "catalog": doc}, lang)
    assert "<script" not in text and "&lt;script&gt;" in text
    assert HOSTILE[:12] in "".join(root.itertext())
    assert ARCH_WORDS[lang][0] in shown(root)  # the labels are still translated


def test_english_and_unknown_languages_draw_english(client: Any) -> None:
    state = fdp_state()
    english, _ = svg_of(client, {"state": state})
    for lang in ("en", "es", "en-GB"):
        r = client.post("/v1/render", json={"state": state}, headers={"Accept-Language": lang})
        assert r.get_data(as_text=True) == english
        assert r.headers["Content-Language"] == "en"


def title_list(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG_NS}title")]


@pytest.mark.parametrize("lang", ["pt", "fr", "de"])
def test_hover_titles_are_in_the_language_asked_for(client: Any, lang: str) -> None:
    """Every line of every hover title is translated, but for what is data: a card's rules
    text (Architectura's catalogs are English), a card id."""
    kept = {c.text for c in ARCH.builtin_catalogs()["reference"].cards.values()}
    kept |= set(FDP.builtin_catalogs()["reference"].cards)
    for state in (arch_rich_state(), fdp_state()):
        english = title_list(svg_of(client, {"state": state})[1])
        local = title_list(svg_in(client, {"state": state}, lang)[1])
        assert len(english) == len(local) > 20
        for en, mine in zip(english, local, strict=True):
            for a, b in zip(en.split("\n"), mine.split("\n"), strict=True):
                assert a != b or a in kept, f"{lang}: {a!r} left in English"
