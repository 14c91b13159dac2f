"""Four languages (app/i18n.py, app/locales/): every message of the template has a translation
in pt, fr and de with the same placeholders; every message the code writes (`msg(...)`, found by
Babel's extractor) is in the template; card names printed in the published rulebooks (the
seeds) are used as printed; illegal moves are explained in the language Accept-Language asks
for, with Content-Language saying which, each sentence translated from its template and values
(engine/messages.py) as the answer is built: the same answer that reading its English back
gives (tests/english_reader.py, how the service once translated)."""

from __future__ import annotations

import ast
import random
import re
from typing import Any

import orjson
import pytest
from babel.messages.extract import extract_from_dir
from english_reader import read_back
from flask import Flask
from http_support import ROOT, check_response, make_app, schema_errors
from i18n_support import marshmallow_messages
from msg_extractor import extract_messages, message_calls
from shared_texts import shared_text
from werkzeug.exceptions import default_exceptions
from werkzeug.wrappers import Response

from app.errors import TITLES, ApiError, bounded
from app.i18n import LANGUAGES, _best_language, catalog, template, translate
from engine.errors import MORE, Problem
from engine.games import engine
from engine.messages import Msg, msg

CLIENT = make_app().test_client()
OTHER = [lang for lang in LANGUAGES if lang != "en"]
# the published rulebook of Architectura in each language, among the seeds
RULEBOOK = {"pt": "000_a719958286b0e942.txt", "fr": "001_cb1b7b2b7de6d5a0.txt",
            "de": "002_03577c3b43802a31.txt", "en": "004_89c33cbdd29ef5f4.txt"}  # fmt: skip
# the additional cards, whose names every rulebook prints in its card clarifications
PRINTED = ["Magic Academy", "Arsenal", "Library", "Guesthouse", "Smithy", "Graveyard",
           "Laboratory", "Manufactory", "Museum", "Obelisk", "Greenhouse", "City Hall",
           "Statue", "Fountain"]  # fmt: skip
# basic cards some rulebooks name in passing ("replaces Palace", "the adjacent Park")
ALSO_PRINTED = {"pt": ["Palace", "Park"], "fr": ["Park"], "de": ["Park"], "en": []}


def _fields(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def _keys(cat: Any) -> set[tuple[str, str | None]]:
    return {(str(m.id), m.context) for m in cat if m.id}


@pytest.mark.parametrize("lang", OTHER)
def test_every_message_has_a_translation(lang: str) -> None:
    pot, po = template(), catalog(lang)
    assert len(_keys(pot)) > 50
    assert _keys(po) == _keys(pot), "the catalog and the template list different messages"
    for m in pot:
        if not m.id:
            continue
        got = po.get(m.id, context=m.context)
        assert got is not None and got.string, f"{lang}: no translation of {m.id!r}"
        assert not got.fuzzy, f"{lang}: fuzzy translation of {m.id!r}"
        assert _fields(str(got.string)) == _fields(str(m.id)), f"{lang}: placeholders of {m.id!r}"


def _render_labels() -> set[str]:
    """The labels the pictures draw (engine/render/ and each game's render.py): every `board.t("...")` literal, and the
    tables whose entries reach `board.t` through a variable."""
    from engine.architectura import render as architectura
    from engine.fora_de_prumo import render as fora_de_prumo
    from engine.render.board import DECIDED_BY

    found = set(architectura.ZONES) | {label for _, label in fora_de_prumo.SCORE_PARTS}
    found |= {symbol for _, symbol, _, _ in fora_de_prumo.SUIT_STYLE.values()}
    found |= set(DECIDED_BY.values()) | set(fora_de_prumo.STEP_LABELS.values())
    for path in sorted(
        [*(ROOT / "engine" / "render").glob("*.py"), *(ROOT / "engine").glob("*/render.py")]
    ):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "t"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value)
    return found


def test_every_label_of_the_pictures_is_in_the_template() -> None:
    """Labels of POST /v1/render are catalog messages (msgctxt "render"), so the test above
    fails for any of them left untranslated."""
    labels = _render_labels()
    assert len(labels) > 30 and "market" in labels and "site" in labels
    drawn = {str(m.id) for m in template() if m.id and m.context == "render"}
    assert labels - drawn == set(), "labels drawn but missing from messages.pot"
    assert drawn - labels == set(), "messages.pot lists render labels no picture draws"


@pytest.mark.parametrize("lang", [*OTHER, "en"])
def test_card_names_of_the_rulebooks_are_used_as_printed(lang: str) -> None:
    text = shared_text("seeds", RULEBOOK[lang])
    for name in PRINTED + ALSO_PRINTED[lang]:
        printed = translate_card(name, lang)
        assert printed in text, f"{lang}: {printed!r} ({name}) is not printed in the rulebook"
    # every card of the reference catalog has a name in every language
    cards = engine("architectura").builtin_catalogs()["reference"].to_json()["cards"]
    for card in cards:
        assert lang == "en" or catalog(lang).get(card["name"], context="card") is not None


def translate_card(name: str, lang: str) -> str:
    if lang == "en":
        return name
    m = catalog(lang).get(name, context="card")
    assert m is not None, f"{lang}: no name for the card {name}"
    return str(m.string)


def _arch_state(seats: int = 2, seed: int = 42) -> dict[str, Any]:
    state: dict[str, Any] = CLIENT.post(
        "/v1/games", json={"seats": seats, "seed": seed}
    ).get_json()["state"]
    return state


def _finished() -> dict[str, Any]:
    eng = engine("architectura")
    state = eng.new_game({"seats": 2, "seed": 3})
    rng = random.Random(0)
    while not state["game_over"]:
        state, _ = eng.apply_all(state, [rng.choice(eng.legal_decisions(state)["options"])])
    return state


def _illegal_requests() -> list[tuple[str, dict[str, Any], str]]:
    """(path, body, code): illegal moves of both games, one per common code."""
    a = _arch_state()
    f: dict[str, Any] = CLIENT.post(
        "/v1/games", json={"game": "fora-de-prumo", "seats": 2, "seed": 4}
    ).get_json()["state"]
    hand_card = f["seats"][0]["hand"][0]
    return [
        ("/v1/resolve", {"state": a, "decisions": ["blue.palace@2,5"]}, "cell_not_eligible"),
        ("/v1/resolve", {"state": a, "decisions": ["blue.palace@2,1"]}, "cell_not_eligible"),
        ("/v1/resolve", {"state": a, "decisions": ["blue.well@1,1"]}, "card_not_in_hand"),
        (
            "/v1/resolve",
            {"state": a, "decisions": [{"seat": 1, "type": "pass"}]},
            "not_your_decision",
        ),
        ("/v1/resolve", {"state": a, "decisions": ["destroy:blue.palace"]}, "wrong_decision_type"),
        ("/v1/resolve", {"state": a, "decisions": ["nobody.x@1,1"]}, "unknown_card"),
        ("/v1/resolve", {"state": _finished(), "decisions": ["pass"]}, "game_over"),
        ("/v1/resolve", {"state": f, "decisions": [f"buy:{hand_card}"]}, "card_not_in_market"),
        (
            "/v1/resolve",
            {"state": f, "decisions": [{"seat": 1, "type": "skip"}]},
            "not_your_decision",
        ),
        ("/v1/resolve", {"state": f, "decisions": ["pass"]}, "wrong_decision_type"),
    ]


def _fdp_illegal_requests() -> list[tuple[str, dict[str, Any], str]]:
    """(path, body, code): Fora de Prumo's own refusals, each provoked as a client would."""
    eng = engine("fora-de-prumo")
    buy = eng.new_game({"game": "fora-de-prumo", "seats": 2, "seed": 4})  # seat 0 buys
    assert buy["seats"][0]["hand"] == ["MA07", "PE08", "SP09", "MA01", "CO01"]
    assert "SP01" in buy["market"] and "PR11" in buy["seats"][1]["hand"]
    lay, _ = eng.apply_all(buy, [{"type": "skip"}])  # seat 0 lays, its building empty
    bought, _ = eng.apply_all(buy, [{"type": "buy", "card": "SP01"}])
    built, _ = eng.apply_all(  # seat 0 lays again; SP09 stands on (0, 0), SP01 in hand
        bought,
        [{"type": "lay", "card": "SP09", "x": 0, "y": 0, "r": 0},
         {"type": "skip"}, {"type": "pass"}, {"type": "skip"}],
    )  # fmt: skip

    def resolve(state: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
        return {"state": state, "decisions": [d]}

    r = "/v1/resolve"
    return [
        (r, resolve(lay, {"type": "lay", "card": "PR11"}), "card_not_in_hand"),
        (r, resolve(built, {"type": "lay", "card": "SP01", "x": 5, "y": 5, "r": 0}),
         "no_connection"),
        (r, resolve(built, {"type": "lay", "card": "SP01", "x": 0, "y": 0, "r": 1}),
         "cell_occupied"),
        (r, resolve(lay, {"type": "lay", "card": "SP09", "x": 1, "y": 1, "r": 0}),
         "first_space_at_origin"),
        (r, resolve(lay, {"type": "lay", "card": "SP09", "x": 0, "y": 0, "r": 5}),
         "invalid_rotation"),
        (r, resolve(lay, {"type": "lay", "card": "SP09"}), "position_required"),
        (r, resolve(lay, {"type": "lay", "card": "MA07", "x": 0, "y": 0, "r": 0}),
         "not_a_space"),
        (r, resolve(lay, {"type": "lay", "card": "SP09", "x": "a", "y": 0, "r": 0}),
         "malformed_decision"),
        (r, resolve(lay, {"type": "lay", "card": "SP01", "from": "market"}),
         "wrong_decision_type"),
        (r, resolve(lay, {"type": "clone", "card": "CO01", "target": "MA07"}), "no_teorica"),
        (r, resolve(lay, {"type": "convert", "designer": "PE08", "target": "SP09"}),
         "convert_target"),
        (r, resolve(lay, {"type": "fly"}), "malformed_decision"),
        (r, resolve(buy, {"type": "look"}), "no_coordenadora"),
        (r, resolve(bought, {"type": "buy", "card": "PE03"}), "already_bought"),
        ("/v1/view", {"state": buy, "seat": 3}, "unknown_seat"),
        ("/v1/games", {"game": "fora-de-prumo", "seats": 2, "seed": 1, "bogus": 3},
         "unknown_field"),
        ("/v1/games", {"game": "fora-de-prumo", "seats": 7, "seed": 1, "market_size": 9,
                       "first_seat": 5}, "invalid_seat_count"),  # and 2 more
    ]  # fmt: skip


CASES = _illegal_requests() + _fdp_illegal_requests()


def _untranslated(problem: dict[str, Any]) -> dict[str, Any]:
    """A problem without the parts that change with the language (and the request's id)."""
    out = {k: v for k, v in problem.items() if k not in ("title", "detail", "request_id")}
    out["problems"] = [
        {k: v for k, v in p.items() if k != "detail"} for p in out.get("problems", [])
    ]
    return out


@pytest.mark.parametrize(
    ("path", "body", "code"), CASES, ids=[f"{i}-{c[2]}" for i, c in enumerate(CASES)]
)
def test_an_illegal_move_is_explained_in_the_language_asked_for(
    path: str, body: dict[str, Any], code: str
) -> None:
    english = CLIENT.post(path, json=body)
    en = check_response("POST", path, english)
    assert english.status_code == 422 and en["code"] == code
    assert english.headers["Content-Language"] == "en"
    seen = {en["detail"]}
    for lang in OTHER:
        r = CLIENT.post(path, json=body, headers={"Accept-Language": f"{lang};q=0.9, en;q=0.5"})
        got = check_response("POST", path, r)
        assert r.headers["Content-Language"] == lang and "Accept-Language" in r.headers["Vary"]
        assert _untranslated(got) == _untranslated(en)
        assert got["detail"] == read_back(en["detail"], lang)
        for mine, theirs in zip(got.get("problems", []), en.get("problems", []), strict=True):
            assert mine["detail"] == read_back(theirs["detail"], lang) != theirs["detail"]
        assert got["title"] != en["title"]
        seen.add(got["detail"])
    assert len(seen) == len(LANGUAGES), f"{code}: the detail is not translated: {seen}"


def test_names_inside_a_detail_are_translated() -> None:
    belongs = "This decision belongs to seat {seat} ({colour}), not seat {other}."
    assert translate(msg(belongs, seat=0, colour="blue", other=1), "de") == (
        "Diese Entscheidung gehört zu Platz 0 (blau), nicht zu Platz 1."
    )
    assert translate(msg("{card}'s play cost cannot be paid.", card="Palace"), "pt") == (
        "O custo para jogar Palácio não pode ser pago."
    )
    # an unknown message stays English; English stays English; a plain string is a value
    assert translate(msg("Something new happened."), "fr") == "Something new happened."
    cell = msg(
        "Cell [{street}, {block}] is empty and the cell to its left is empty.", street=2, block=5
    )
    assert translate(cell, "en") == "Cell [2, 5] is empty and the cell to its left is empty."
    assert translate("Palace", "pt") == "Palace"


def test_a_translation_comes_from_the_template_not_the_english() -> None:
    """The sentence is translated from the template and values it was made of: its English
    text is not read (a Msg whose text says something else is translated all the same), and a
    value that reads like a message stays the value it is."""
    made_up = Msg.made("not English at all", "{card} is not in your hand.", {"card": "Palace"})
    assert translate(made_up, "pt") == read_back("Palace is not in your hand.", "pt")
    assert translate(made_up, "pt") != "not English at all"
    # a field named like a message: its pointer is a value, kept as the client wrote it
    key = "x is not in your hand."
    r = CLIENT.post(
        "/v1/legal-moves", json={"state": {}, key: 1}, headers={"Accept-Language": "de"}
    )
    problem = r.get_json()["problems"][0]
    assert problem["pointer"] == f"/{key}"
    assert problem["detail"] == "Unbekanntes Feld; diese Anfrage nimmt 'catalog', 'state'."
    assert r.get_json()["detail"].startswith(f"/{key}")  # not read as "{card} is not in …"
    assert read_back(f"/{key}", "de") != f"/{key}"  # as reading the English back once did


def test_an_answer_body_is_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A problem is translated where its body is built: no hook decodes and re-encodes the
    answer afterwards (the body is set once, in the answer's language)."""
    bodies: list[bytes] = []
    set_data = Response.set_data

    def counted(self: Response, value: Any) -> None:
        bodies.append(value if isinstance(value, bytes) else str(value).encode())
        set_data(self, value)

    monkeypatch.setattr(Response, "set_data", counted)
    path, body, _ = CASES[2]  # card_not_in_hand
    r = CLIENT.post(path, json=body, headers={"Accept-Language": "fr"})
    assert r.status_code == 422 and r.headers["Content-Language"] == "fr"
    assert len(bodies) == 1 and bodies[0] == r.data
    state = _arch_state()
    bodies.clear()
    r = CLIENT.post("/v1/legal-moves", json={"state": state}, headers={"Accept-Language": "pt"})
    assert r.status_code == 200 and len(bodies) == 1
    assert r.get_json()["pending"]["prompt"] == translate_prompt(state["pending"]["prompt"], "pt")


def test_problems_are_translated_then_cut() -> None:
    """A detail is cut to MAX_DETAIL characters in the answer's language (a translation may be
    longer than the English), and every listed problem is translated."""
    long = msg("{card} is not in your hand.", card="X" * 500)
    e = ApiError(422, "card_not_in_hand", long, problems=[{"detail": long, "pointer": ""}])
    with make_app().test_request_context():
        body = e.body("fr")
    assert body["detail"].endswith("...") and len(body["detail"]) == 400
    assert body["detail"][:-3] in translate(long, "fr")
    assert bounded([{"detail": long, "pointer": ""}], "fr")[0]["detail"] == body["detail"]
    assert body["title"] == translate(TITLES[422], "fr") != TITLES[422]


def test_unsupported_languages_and_successes_answer_english() -> None:
    a = _arch_state()
    r = CLIENT.post(
        "/v1/resolve", json={"state": a, "decisions": ["blue.palace@2,5"]},
        headers={"Accept-Language": "es, it;q=0.8"},
    )  # fmt: skip
    assert r.headers["Content-Language"] == "en"
    assert r.get_json()["detail"].startswith("Cell [2, 5] is empty")
    ok = CLIENT.post("/v1/legal-moves", json={"state": a}, headers={"Accept-Language": "fr"})
    assert ok.status_code == 200 and ok.headers["Content-Language"] == "fr"


# the functions that make a message (engine/messages.py): what Babel extracts
KEYWORDS = {"msg": None}
SOURCES = ("app", "engine", "ai")
# constants that are messages themselves (msg("…") where they are defined), used as templates
TEMPLATE_NAMES = ("MORE",)


def _extracted() -> dict[str, list[str]]:
    """Every template the code writes (`msg("…", …)`), found as `pybabel extract -k msg`
    finds it (scripts/messages.sh), with where."""
    out: dict[str, list[str]] = {}
    for top in SOURCES:
        for path, line, message, _, _ in extract_from_dir(
            ROOT / top, [("**.py", extract_messages)], keywords=KEYWORDS, strip_comment_tags=True
        ):
            assert isinstance(message, str), f"{top}/{path}:{line}: one message per msg()"
            out.setdefault(message, []).append(f"{top}/{path}:{line}")
    return out


def _code_messages() -> set[str]:
    """Every template the code writes and every message marshmallow may write for it."""
    return set(_extracted()) | marshmallow_messages()


def _fill(msgid: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: values[m[1]], msgid)


def test_every_message_the_code_writes_has_a_translation() -> None:
    """Every template of every message the code writes (engine, app, bots: Babel's
    extraction of `msg(...)`), and every marshmallow message of the app's schemas, is a
    catalog message, translated in pt, fr and de with the same placeholders; filled with
    values, it comes back translated with its values in place."""
    messages = _code_messages()
    assert len(messages) > 350  # the extractor still finds them
    known = {str(m.id) for m in template() if m.id and not m.context}
    missing = sorted(messages - known)
    assert not missing, f"messages missing from messages.pot (scripts/messages.sh): {missing}"
    for msgid in sorted(messages):
        names = re.findall(r"\{(\w+)\}", msgid)
        values = {name: f"Q{i}" for i, name in enumerate(names)}
        words = re.sub(r"\{\w+\}", "", msgid)
        for lang in OTHER:
            m = catalog(lang).get(msgid)
            assert m is not None and m.string and not m.fuzzy, (
                f"{lang}: no translation of {msgid!r}"
            )
            expected = _fill(str(m.string), values) if names else str(m.string)
            assert translate(msg(msgid, **values) if names else msg(msgid), lang) == expected
            if re.search(r"[a-z]{3}", words) and not re.fullmatch(r"[a-z_]+", msgid):
                assert expected != _fill(msgid, values), f"{lang}: {msgid!r} is not translated"


def test_the_catalog_holds_no_message_the_code_does_not_write() -> None:
    written = _code_messages()
    unused = sorted(
        str(m.id) for m in template() if m.id and not m.context and str(m.id) not in written
    )
    assert not unused, f"messages.pot holds messages no code writes: {unused}"


def test_the_extractor_finds_messages_however_they_are_written() -> None:
    """Babel reads every `msg(...)` call, wherever it is: a helper's argument, a returned
    message, a part of a sentence, a title; and the error classes take only messages (their
    detail is typed Msg, so mypy refuses a sentence not made with msg)."""
    messages = _code_messages()
    for text in [
        "must be an object",  # Problems.bad(code, detail, …)
        "Cell [{street}, {block}] is empty and the cell to its left is empty.",  # returned
        "{text} is not a decision in notation: {why} (e.g. buy:PR01, SP09@0,-1r0, PE05, "
        "convert:PE03>SP09, clone:CO01>SP09, pass).",  # _refuse(text, why, pointer)
        "The state's encrypted part is not a state. Send back the state exactly as the service "
        "returned it.",  # seal.tampered(detail)
        "Not a valid integer.",  # marshmallow's, for the app's integer fields
        "Must be one of: {choices}.",  # a validator's
        "{where}: {why}",  # a 400's detail, app.errors.from_validation
        "{problem} (and {more} more)",  # engine.errors.summary
        "card ",  # a part of a sentence: "unknown {what}field {field}"
        "this request",  # an argument of a message: app.jobs._conn
        "decisions (MAX_DECISIONS)",  # BoundedList(what=…)
        "Unprocessable request",  # a title
    ]:
        assert text in messages, text
    for top in SOURCES:  # a template is a literal: what Babel reads is what is translated
        for path in sorted((ROOT / top).rglob("*.py")):
            if path == ROOT / "engine" / "messages.py":  # where messages are made
                continue
            for call in message_calls(path.read_bytes(), KEYWORDS):
                first = call.args[0] if call.args else None
                literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
                named = isinstance(first, ast.Name) and first.id in TEMPLATE_NAMES
                assert literal or named, f"{path}:{call.lineno}: msg() of a literal template"
    import typing

    import app.errors
    import engine.errors

    assert typing.get_type_hints(Problem)["detail"] is Msg
    for cls in (engine.errors.EngineError, engine.errors.IllegalDecision, app.errors.ApiError):
        assert typing.get_type_hints(cls.__init__)["detail"] is Msg, cls


def _http_problems() -> list[tuple[str, str, dict[str, Any] | None, dict[str, str]]]:
    """(method, path, body, headers) of app-level problems: 400s of the schemas, 404, 405,
    415, an edited state (422), a bad catalog (422), the static files' 412 and 416."""
    state = _arch_state()
    edited = dict(state, seats=[dict(state["seats"][0], tokens=9), state["seats"][1]])
    return [
        ("POST", "/v1/games", {"seats": "two", "seed": 1, "bogus": 1}, {}),
        ("POST", "/v1/replay", {"decisions": []}, {}),  # the body: give state or setup
        ("POST", "/v1/legal-moves", {"state": edited}, {}),
        ("POST", "/v1/games", {"seats": 2, "seed": 1, "catalog": {"format": 1}}, {}),
        ("POST", "/v1/games", {"game": "fora-de-prumo", "seats": 2, "seed": 1, "x": {}}, {}),
        ("GET", "/v1/nowhere", None, {}),
        ("DELETE", "/v1/games", None, {}),
        ("POST", "/v1/games", None, {"Content-Type": "text/plain"}),
        ("GET", "/static/play.js", None, {"Range": "bytes=99999999-"}),
        ("GET", "/static/play.js", None, {"If-Match": '"not-its-etag"'}),
    ]


@pytest.mark.parametrize("case", _http_problems(), ids=lambda c: f"{c[0]} {c[1]}")
def test_problems_of_the_app_are_explained_in_the_language_asked_for(
    case: tuple[str, str, dict[str, Any] | None, dict[str, str]],
) -> None:
    method, path, body, headers = case

    def ask(lang: str) -> Any:
        return CLIENT.open(
            path, method=method, json=body, data=None if body is not None else "x",
            headers={**headers, "Accept-Language": lang},
        )  # fmt: skip

    english = ask("en")
    assert english.mimetype == "application/problem+json", english.data[:200]
    en = english.get_json()
    assert en["status"] >= 400 and not schema_errors("Problem", en)
    for lang in OTHER:
        r = ask(lang)
        got = r.get_json()
        assert r.headers["Content-Language"] == lang
        assert _untranslated(got) == _untranslated(en)
        assert got["title"] != en["title"]
        assert got["detail"] == read_back(en["detail"], lang) != en["detail"]
        for mine, theirs in zip(got.get("problems", []), en.get("problems", []), strict=True):
            assert mine["detail"] == read_back(theirs["detail"], lang) != theirs["detail"]


def _raising_app() -> Flask:
    """The app with a route raising each of werkzeug's HTTP errors (/raise/<status>)."""
    app = make_app()

    def fail(status: int) -> None:
        raise default_exceptions[status]()

    app.add_url_rule("/raise/<int:status>", view_func=fail)
    return app


@pytest.mark.parametrize("status", sorted(default_exceptions))
def test_every_http_error_of_werkzeug_is_a_translated_problem(status: int) -> None:
    """Whichever HTTP error werkzeug raises, now or after an upgrade, the answer is a problem
    of the contract whose title and detail are catalog messages, not werkzeug's English."""
    client = _raising_app().test_client()
    en = client.get(f"/raise/{status}").get_json()
    assert en["status"] == status and not schema_errors("Problem", en), en
    for lang in OTHER:
        got = client.get(f"/raise/{status}", headers={"Accept-Language": lang}).get_json()
        assert _untranslated(got) == _untranslated(en)
        assert got["title"] == read_back(en["title"], lang) != en["title"], lang
        assert got["detail"] == read_back(en["detail"], lang) != en["detail"], lang


def test_a_400_names_the_field_and_translates_marshmallow() -> None:
    r = CLIENT.post(
        "/v1/view", json={"state": {}, "seat": "two"}, headers={"Accept-Language": "pt"}
    )
    assert r.get_json()["detail"] == "/seat: seat deve ser um número inteiro de 0 a 3, não 'two'."
    # a misspelt field: the closest names (issue 29)
    r = CLIENT.post(
        "/v1/view", json={"state": {}, "seta": 0, "seat": 0}, headers={"Accept-Language": "de"}
    )
    assert r.get_json()["detail"] == "/seta: Unbekanntes Feld. Meinten Sie 'seat', 'state'?"
    # a set-up's values are its game's (422), translated as the engine's messages are
    r = CLIENT.post("/v1/games", json={"seats": 5, "seed": 1}, headers={"Accept-Language": "pt"})
    assert r.get_json()["detail"] == "Architectura é jogado por 2, 3 ou 4 jogadores."
    # a wrong type says which type is wanted (issue 18)
    r = CLIENT.post(
        "/v1/games", json={"seats": "two", "seed": 1}, headers={"Accept-Language": "pt"}
    )
    assert r.get_json()["detail"] == "seats deve ser um número inteiro de 2 a 4, não 'two'"
    r = CLIENT.post("/v1/replay", json={"decisions": []}, headers={"Accept-Language": "fr"})
    assert r.get_json()["detail"] == (
        "le corps : Donnez exactement l'un de state (un état de départ) ou setup."
    )
    unknown = "unknown {what}field {field}"
    assert translate(msg(unknown, what=msg("card "), field="'x'"), "de") == (
        "unbekanntes Karten-Feld 'x'"
    )
    assert translate(msg(unknown, what="", field="'x'"), "pt") == "campo desconhecido 'x'"


def test_card_types_and_the_count_of_further_problems_are_translated() -> None:
    site = "{card} is a {card_type}: it goes to the site, without a position."
    assert translate(msg(site, card="MA07", card_type="material"), "pt") == (
        "MA07 é uma carta de material: vai para o canteiro, sem posição."
    )
    building = "{card} is a {card_type}: it goes to the site, not the building"
    assert translate(msg(building, card="PE08", card_type="person"), "fr") == (
        "PE08 est une carte de type personne : elle va sur le chantier, pas dans le bâtiment"
    )
    # the first sentence is translated on its own, even one whose template ends in a value
    first = msg("first_seat must be 0..{last}", last=1)
    assert translate(msg(MORE, problem=first, more=2), "de") == (
        "first_seat muss zwischen 0 und 1 liegen (und weitere Probleme: 2)"
    )


def _engine_prompts() -> set[str]:
    """Every prompt the engines can write: the fixed ones of each pending kind and step, and
    one per targeted effect of the reference catalog ("you may rotate: <card text>")."""
    from engine.architectura.serialize import KIND
    from engine.fora_de_prumo.serialize import STEP_INFO

    prompts = {v[2] for v in KIND.values()} | {v[2] for v in STEP_INFO.values()}
    cards = engine("architectura").builtin_catalogs()["reference"].cards
    for card in cards.values():
        for op in card.on_play:
            if op.op not in ("hand_limit", "special"):  # resolved at once, never asked
                prompts.add(f"{'you may' if op.may else 'you must'} {op.op}: {card.text}")
    return prompts


def test_every_prompt_the_engines_write_has_a_translation() -> None:
    prompts = _engine_prompts()
    in_catalog = {str(m.id) for m in template() if m.context == "prompt"}
    assert in_catalog == prompts, "the catalog's prompts and the engines' differ"
    for lang in OTHER:
        for p in prompts:
            m = catalog(lang).get(p, context="prompt")
            assert m is not None and m.string and m.string != p, f"{lang}: {p!r}"


def test_prompts_beside_the_state_are_translated_and_the_state_is_not() -> None:
    client = make_app(STATE_SECRET="test-secret-0123456789abcdefghijk").test_client()
    state = client.post("/v1/games", json={"seats": 2, "seed": 42}).get_json()["state"]
    english = state["pending"]["prompt"]
    moves = client.post("/v1/legal-moves", json={"state": state}, headers={"Accept-Language": "pt"})
    assert moves.headers["Content-Language"] == "pt"
    assert moves.get_json()["pending"]["prompt"] == translate_prompt(english, "pt") != english
    r = client.post(
        "/v1/resolve",
        json={"state": state, "decisions": [state["pending"]["options"][0]]},
        headers={"Accept-Language": "de"},
    )
    body = r.get_json()
    assert body["pending"]["prompt"] == translate_prompt(body["state"]["pending"]["prompt"], "de")
    assert body["state"]["pending"]["prompt"] in _engine_prompts()  # English, sealed
    again = client.post("/v1/legal-moves", json={"state": body["state"]})  # its seal holds
    assert again.status_code == 200


def translate_prompt(text: str, lang: str) -> str:
    m = catalog(lang).get(text, context="prompt")
    assert m is not None
    return str(m.string)


def test_every_section_title_of_the_rules_has_a_translation() -> None:
    from app.rules import clauses

    titles = {c.title for p in ("A", "F") for c in clauses(p).values() if c.title}
    assert len(titles) > 15
    for lang in OTHER:
        missing = sorted(t for t in titles if catalog(lang).get(t, context="clause") is None)
        assert not missing, f"{lang}: section titles without a translation: {missing}"
    r = CLIENT.get("/v1/rules/A-4", headers={"Accept-Language": "fr"})
    assert r.headers["Content-Language"] == "fr, en" and r.get_json()["title"] == "Cases éligibles"
    assert CLIENT.get("/v1/rules/A-4").get_json()["title"] == "Eligible cells"


def test_messages_inside_messages_are_translated() -> None:
    """A 400's detail quotes a pointer the client chose: the pointer is a value, kept as it
    is however it reads ("a: b: c: …"); the messages put into the detail are translated."""
    body = msg(
        "{where}: {why}",
        where=msg("the body"),
        why=msg("unknown {what}field {field}", what=msg("card "), field="'x'"),
    )
    assert translate(msg(MORE, problem=body, more=2), "pt") == (
        "o corpo: campo de carta desconhecido 'x' (e outros problemas: 2)"
    )
    hostile = ": " * 300
    r = CLIENT.post("/v1/legal-moves", json={"state": {}, hostile: 1},
                    headers={"Accept-Language": "de"})  # fmt: skip
    assert r.status_code == 400
    assert r.get_json()["problems"][0]["detail"] == (
        "Unbekanntes Feld; diese Anfrage nimmt 'catalog', 'state'."
    )
    assert r.get_json()["detail"].startswith("/" + hostile[:100])
    bounded_list = "Must hold {least} to {most} {what}, not {count}."
    made = msg(bounded_list, least=1, most=2000, what=msg("decisions (MAX_DECISIONS)"), count=2001)
    assert translate(made, "pt") == "Deve ter de 1 a 2000 decisões (MAX_DECISIONS), não 2001."


def test_only_short_language_headers_are_remembered() -> None:
    """The language of an Accept-Language value is remembered for the short values clients
    send; a long one (a header may hold kilobytes) is read each time, so distinct long
    values cannot fill the memory of a worker. Either way the answer is the same."""
    long = "es;q=0.1, " * 90 + "de;q=0.9, " + "es;q=0.1, " * 400
    before = _best_language.cache_info().currsize
    for i in range(20):
        r = CLIENT.post("/v1/games", json={}, headers={"Accept-Language": f"x{i}, {long}"})
        assert r.headers["Content-Language"] == "de"
    assert _best_language.cache_info().currsize == before
    r = CLIENT.post("/v1/games", json={}, headers={"Accept-Language": "pt, en;q=0.5"})
    assert r.headers["Content-Language"] == "pt"


def test_a_huge_accept_header_is_read_in_its_first_kilobyte_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Audit of 2026-11-30: gunicorn joins a header sent many times, so 98 lines of 8 KB
    made one 786 KB Accept-Language, parsed whole twice an answer (a 404 took 1.4 s, and 8
    such connections held cheap requests 4.4 s). Now the first MAX_ACCEPT_CHARS are read, to
    their last comma, once a request; so are Accept-Encoding's."""
    import app.i18n as i18n

    parsed: list[int] = []
    real = i18n.parse_accept_header

    def counted(value: str, cls: Any) -> Any:
        parsed.append(len(value))
        return real(value, cls)

    monkeypatch.setattr(i18n, "parse_accept_header", counted)
    huge = ", ".join(f"x{i};q=0.1" for i in range(100_000)) + ", de"
    headers = {"Accept-Language": huge, "Accept-Encoding": huge}
    for method, path in (("GET", "/v1/nothing-here"), ("POST", "/v1/games")):  # 404, 200
        parsed.clear()
        r = CLIENT.open(path, method=method, json={} if method == "POST" else None, headers=headers)
        assert r.headers["Content-Language"] == "en"  # "de" lies past the part read
        assert parsed and len(parsed) == 1 and parsed[0] <= i18n.MAX_ACCEPT_CHARS
        assert "Content-Encoding" not in r.headers
    r = CLIENT.post("/v1/games", json={}, headers={"Accept-Language": "fr, " + huge})
    assert r.headers["Content-Language"] == "fr"


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("pt-BR, en;q=0.5", "pt"),  # the regional tag counts for its language, rated 1
        ("fr-CA", "fr"),
        ("de-AT;q=0.9, en;q=0.8", "de"),
        ("en;q=0.8, de;q=0.9", "de"),
        ("es, pt;q=0.3", "pt"),  # a language we do not have is passed over
        ("es", "en"),
        ("*", "en"),
        ("pt;q=0, fr;q=0.1", "fr"),  # q=0: not acceptable
        ("PT-br", "pt"),
    ],
)
def test_accept_language_regional_tags_count_for_their_language(header: str, lang: str) -> None:
    """A Brazilian client (`pt-BR`) gets Portuguese even when it also accepts English less."""
    from app.i18n import _language_of

    assert _language_of(header) == lang


def _mutations(doc: Any, rng: random.Random, n: int) -> list[Any]:
    """`n` copies of a JSON document, each with one value somewhere replaced or removed."""
    out = []
    bad_values: list[Any] = [None, "x", -1, 10**30, [], {}, True, 1.5, "blue.palace", [1, 2]]
    for _ in range(n):
        copy_ = orjson.loads(orjson.dumps(doc))
        node, path = copy_, []
        while isinstance(node, (dict, list)) and node and rng.random() < 0.75:
            key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            path.append((node, key))
            node = node[key]
        if path:
            parent, key = path[-1]
            if isinstance(parent, dict) and rng.random() < 0.3:
                del parent[key]
            else:
                parent[key] = rng.choice(bad_values)
        out.append(copy_)
    return out


def _engine_problems() -> list[str]:
    """The sentences the engines write for many malformed states, set-ups, decisions and
    catalogs of both games (each a message made with msg)."""
    from engine.errors import EngineError

    rng = random.Random(17)
    found: list[str] = []
    for game, setup in [("architectura", {"seats": 3, "seed": 5}),
                        ("fora-de-prumo", {"game": "fora-de-prumo", "seats": 3, "seed": 5})]:  # fmt: skip
        eng = engine(game)
        state = eng.new_game(setup)
        catalog_doc = eng.builtin_catalogs()["reference"].to_json()
        option = eng.legal_decisions(state)["options"][0]
        for bad in _mutations(state, rng, 150):
            found += [p.detail for p in eng.validate(bad)]
        for bad in _mutations(setup, rng, 40) + _mutations(catalog_doc, rng, 60):
            try:
                eng.new_game(bad if "seed" in bad else {**setup, "catalog": bad})
            except EngineError as e:
                found += [e.detail, *(p.detail for p in e.problems)]
        for bad in _mutations({"d": option}, rng, 60):
            try:
                eng.apply_all(state, [bad["d"]] if "d" in bad else [])
            except EngineError as e:
                found += [e.detail, *(p.detail for p in e.problems)]
    return found


def test_the_engines_messages_read_as_they_once_were_translated() -> None:
    """Hundreds of the engines' sentences for malformed input, with the values the input put
    into them: each translated from its template is what reading its English back gives."""
    found = _engine_problems()
    assert len(found) > 300 and all(isinstance(m, Msg) for m in found)
    assert len({m.template for m in found if isinstance(m, Msg)}) > 40
    for m in found:
        for lang in OTHER:
            assert translate(m, lang) == read_back(str(m), lang), (lang, m, m.template)


# the familiar address: its pronouns, and the imperatives the catalogs once gave (formal German
# writes "spielen Sie", "senden Sie")
FAMILIAR = re.compile(
    r"\b(du|dein|deine[mnrs]?|dir|dich|euch|eure?|eure[mnrs])\b"
    r"|(?:^|[:;,.!(] ?)(spiele|lege|kaufe|wähle|nutze|passe|sende|gib|lass|versuche|versetze"
    r"|lehne|wende|zerstöre|sieh|verzichte|klicke|drücke|füge|nimm)\b",
    re.IGNORECASE,
)


def test_german_addresses_the_reader_formally_throughout() -> None:
    """One register per language: German says "Sie" and "Ihre" everywhere (an answer once
    read "Ihre Entscheidung: spiele eine Karte aus deiner Hand"): the answers' catalog and the
    page's own words."""
    from app.i18n import catalog as load

    texts = [str(m.string) for m in load("de") if m.id]
    page = orjson.loads((ROOT / "app" / "static" / "play-text.json").read_bytes())
    texts += [words["de"] for words in page.values()]
    assert len(texts) > 500
    familiar = [t for t in texts if FAMILIAR.search(t)]
    assert familiar == []
    assert FAMILIAR.search("Ihre Entscheidung: spiele eine Karte aus deiner Hand")
    assert not FAMILIAR.search("spielen Sie eine Karte aus Ihrer Hand; ihr Wert")
