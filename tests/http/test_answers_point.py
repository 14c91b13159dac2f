"""Answers that point the right way (issue 18, item 6), in the four languages: a wrong type
says which type is wanted; a seat's view or a whole answer sent as a state says what it is
and what to send; an unknown card id, decision type or field suggests the closest names; the
JSON parser's reasons are our own sentences. Each answer keeps its code and pointer in every
language, its detail translated from its template (tests/english_reader.py)."""

from __future__ import annotations

from typing import Any

import pytest
from english_reader import read_back
from http_support import check_response, make_app

from app.i18n import LANGUAGES
from engine.guesses import MAX_CANDIDATES, MAX_NAME, closest

CLIENT = make_app().test_client()
OTHER = [lang for lang in LANGUAGES if lang != "en"]
FDP = {"game": "fora-de-prumo"}


def _new(setup: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = CLIENT.post("/v1/games", json=setup).get_json()
    return answer


def _in_every_language(path: str, body: Any, status: int = 422) -> dict[str, Any]:
    """The English problem, after checking that every other language answers the same code,
    pointers and clauses with each detail translated (not left English)."""
    english = CLIENT.post(path, json=body)
    en = check_response("POST", path, english)
    assert english.status_code == status, en
    for lang in OTHER:
        r = CLIENT.post(path, json=body, headers={"Accept-Language": lang})
        got = r.get_json()
        assert r.status_code == status and r.headers["Content-Language"] == lang
        assert (got["code"], got["pointer"], got.get("clause")) == (
            en["code"],
            en["pointer"],
            en.get("clause"),
        )
        assert got["detail"] == read_back(en["detail"], lang) != en["detail"], lang
        for mine, theirs in zip(got.get("problems", []), en.get("problems", []), strict=True):
            assert mine["code"] == theirs["code"] and mine["pointer"] == theirs["pointer"]
            assert mine["detail"] == read_back(theirs["detail"], lang) != theirs["detail"]
    return en


# -- a wrong type says which type is wanted --------------------------------------------------


@pytest.mark.parametrize("game", [{}, FDP], ids=["architectura", "fora-de-prumo"])
@pytest.mark.parametrize(
    ("field", "value", "code", "said"),
    [
        ("seats", "2", "invalid_seat_count", "seats must be an integer from 2 to 4, not '2'"),
        ("seats", 2.5, "invalid_seat_count", "from 2 to 4, not a number with a fraction"),
        ("seats", None, "invalid_seat_count", "seats must be an integer from 2 to 4, not null"),
        ("seed", "1", "invalid_seed", "seed must be an integer from 0 to 2^64-1, not '1'"),
        ("first_seat", "0", "invalid_first_seat", "first_seat must be an integer from 0 to 1"),
        ("first_seat", True, "invalid_first_seat", "from 0 to 1, not true"),
    ],
)
def test_a_set_up_field_of_the_wrong_type_says_the_type_wanted(
    game: dict[str, Any], field: str, value: Any, code: str, said: str
) -> None:
    setup = {**game, "seats": 2, "seed": 1, field: value}
    en = _in_every_language("/v1/games", setup)
    assert (en["code"], en["pointer"]) == (code, f"/{field}")
    assert said in en["detail"]


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ([2], {"pt": "uma lista", "fr": "un tableau", "de": "ein Array"}),
        ({"n": 2}, {"pt": "um objeto", "fr": "un objet", "de": "ein Objekt"}),
        (2.5, {"pt": "parte decimal", "fr": "à virgule", "de": "Nachkommastellen"}),
    ],
)
def test_the_kind_of_a_value_sent_is_named_in_the_answers_language(
    value: Any, words: dict[str, str]
) -> None:
    """No English inside a translated detail: `{"seats": [2]}` is "an array" in English only."""
    for lang, word in words.items():
        got = CLIENT.post(
            "/v1/games", json={"seats": value}, headers={"Accept-Language": lang}
        ).get_json()
        assert word in got["detail"], (lang, got["detail"])
        assert " an " not in got["detail"] and "fraction" not in got["detail"]


def test_a_number_of_seats_out_of_range_keeps_the_games_sentence() -> None:
    en = _in_every_language("/v1/games", {"seats": 5, "seed": 1})
    assert en["detail"] == "Architectura is played by 2, 3 or 4 players."
    en = _in_every_language("/v1/games", {**FDP, "market_size": "5", "seats": 2})
    assert (en["code"], en["pointer"]) == ("invalid_market_size", "/market_size")
    assert en["detail"] == "market_size must be an integer from 4 to 6, not '5'"


def test_a_decision_field_of_the_wrong_type_says_the_type_wanted() -> None:
    state = _new({"seats": 2, "seed": 1})["state"]
    play = {"type": "play", "card": "blue.palace", "cell": "1,1"}
    en = _in_every_language("/v1/resolve", {"state": state, "decisions": [play]})
    assert (en["code"], en["pointer"]) == ("invalid_cell", "/decisions/0/cell")
    assert "an array [street, block] of two integers" in en["detail"] and "'1,1'" in en["detail"]
    fdp = _new({**FDP, "seats": 2, "seed": 4})["state"]
    for field, body in [
        ("card", {"type": "buy", "card": 3}),
        ("x", {"type": "lay", "card": "SP09", "x": "0", "y": 0, "r": 0}),
    ]:
        en = _in_every_language("/v1/resolve", {"state": fdp, "decisions": [body]})
        assert en["pointer"] == f"/decisions/0/{field}"
        assert "must be" in en["detail"] and "not" in en["detail"]
    assert en["code"] == "malformed_decision"


# -- a view or a whole answer sent as a state -----------------------------------------------


READERS = [  # every endpoint that reads a state, with the rest of its body
    ("/v1/legal-moves", {}),
    ("/v1/score", {}),
    ("/v1/view", {"seat": 0}),
    ("/v1/resolve", {"decisions": ["pass"]}),
    ("/v1/replay", {"decisions": []}),
    ("/v1/record", {}),
    ("/v1/position", {}),
    ("/v1/render", {}),
    ("/v1/suggest", {"seat": 0, "level": "easy"}),
]


@pytest.mark.parametrize("game", [{}, FDP], ids=["architectura", "fora-de-prumo"])
@pytest.mark.parametrize(("path", "extra"), READERS, ids=[p for p, _ in READERS])
def test_a_view_or_a_whole_answer_sent_as_a_state_says_what_to_send(
    game: dict[str, Any], path: str, extra: dict[str, Any]
) -> None:
    answer = _new({**game, "seats": 2, "seed": 3})
    view = CLIENT.post("/v1/view", json={"state": answer["state"], "seat": 1}).get_json()
    en = _in_every_language(path, {"state": view, **extra})
    assert (en["code"], en["pointer"]) == ("invalid_state", "/state/view_of")
    assert [(p["code"], p["pointer"]) for p in en["problems"]] == [
        ("view_not_state", "/state/view_of")
    ]
    assert "seat 1's view" in en["detail"] and "not a state" in en["detail"]
    assert "/v1/suggest" in en["detail"]
    en = _in_every_language(path, {"state": answer, **extra})
    assert (en["code"], en["pointer"]) == ("invalid_state", "/state/state")
    assert en["problems"][0]["code"] == "answer_not_state"
    assert "send its `state` field" in en["detail"]


def test_validate_lists_a_view_as_its_one_problem() -> None:
    answer = _new({"seats": 2, "seed": 3})
    view = CLIENT.post("/v1/view", json={"state": answer["state"], "seat": 0}).get_json()
    for doc, code in [(view, "view_not_state"), (answer, "answer_not_state")]:
        body = CLIENT.post("/v1/validate", json={"state": doc}).get_json()
        assert body["valid"] is False and [p["code"] for p in body["problems"]] == [code]


def test_a_view_sent_to_a_sealing_service_says_what_to_send() -> None:
    """With STATE_SECRET, an unsealed view is not a tampered state but a view."""
    client = make_app(STATE_SECRET="test-secret-0123456789abcdefghijk").test_client()
    answer = client.post("/v1/games", json={"seats": 2, "seed": 3}).get_json()
    view = client.post("/v1/view", json={"state": answer["state"], "seat": 0}).get_json()
    for doc, code in [(view, "view_not_state"), (answer, "answer_not_state")]:
        r = client.post("/v1/legal-moves", json={"state": doc})
        assert r.status_code == 422 and r.get_json()["problems"][0]["code"] == code
    # a state without a seal is still one the service did not issue
    r = client.post("/v1/legal-moves", json={"state": {**answer["state"], "seal": None}})
    assert r.get_json()["code"] == "state_tampered"


# -- did you mean ------------------------------------------------------------------------


def test_an_unknown_card_suggests_the_closest_ids() -> None:
    state = _new({"seats": 2, "seed": 1})["state"]
    play = {"type": "play", "card": "palace", "cell": [1, 1]}
    en = _in_every_language("/v1/resolve", {"state": state, "decisions": [play]})
    assert (en["code"], en["pointer"], en["clause"]) == (
        "unknown_card",
        "/decisions/0/card",
        "A-1.3",
    )
    # the deciding seat's own card (blue decides), not another seat's
    assert en["detail"] == "'palace' is not a card of this game. Did you mean 'blue.palace'?"
    fdp = _new({**FDP, "seats": 2, "seed": 4})["state"]
    buy = {"type": "buy", "card": "SP1"}
    en = _in_every_language("/v1/resolve", {"state": fdp, "decisions": [buy]})
    assert en["code"] == "unknown_card" and "Did you mean 'SP01'" in en["detail"]
    # nothing close: no suggestion
    far = {"type": "buy", "card": "zzzzzzzz"}
    en = _in_every_language("/v1/resolve", {"state": fdp, "decisions": [far]})
    assert "Did you mean" not in en["detail"]


def test_an_unknown_decision_type_or_field_suggests_the_closest() -> None:
    state = _new({"seats": 2, "seed": 1})["state"]
    typo = {"type": "plya", "card": "blue.school", "cell": [1, 1]}
    en = _in_every_language("/v1/resolve", {"state": state, "decisions": [typo]})
    assert en["code"] == "unknown_decision_type" and "Did you mean 'play'" in en["detail"]
    field = {"type": "play", "card": "blue.school", "cel": [1, 1]}
    en = _in_every_language("/v1/resolve", {"state": state, "decisions": [field]})
    assert (en["code"], en["pointer"]) == ("malformed_decision", "/decisions/0/cel")
    assert en["detail"].endswith("Did you mean 'cell'?")
    fdp = _new({**FDP, "seats": 2, "seed": 4})["state"]
    buy = {"type": "buy", "crad": "SP01"}
    en = _in_every_language("/v1/resolve", {"state": fdp, "decisions": [buy]})
    assert en["code"] == "malformed_decision" and en["detail"].endswith("Did you mean 'card'?")


def test_guessing_costs_a_bounded_amount_whatever_the_input() -> None:
    """An unknown name longer than MAX_NAME is not compared; at most MAX_CANDIDATES names
    are: a hostile name or catalog costs no more than a short one."""
    assert closest("x" * (MAX_NAME + 1), ["x" * (MAX_NAME + 1)]) == []
    assert closest(None, ["a"]) == [] and closest("", ["a"]) == []
    # only the first MAX_CANDIDATES names are compared: one further on is never read
    many = [f"card{i:05d}" for i in range(100_000)]
    assert closest("card00009", many) == ["card00009", "card00000", "card00001"]
    assert "card99999" not in closest("card99999", many)  # beyond MAX_CANDIDATES

    def unreadable() -> Any:  # the name after MAX_CANDIDATES fails if it is read
        yield from many[:MAX_CANDIDATES]
        raise AssertionError("read beyond MAX_CANDIDATES")

    assert closest("card00007", unreadable())[0] == "card00007"
    # ties keep the candidates' order; case is ignored
    assert closest("sp1", ["SP01", "SP10", "SP11", "SP12"]) == ["SP01", "SP10", "SP11"]
    state = _new({"seats": 2, "seed": 1})["state"]
    huge = {"type": "play", "card": "p" * 100_000, "cell": [1, 1]}
    r = CLIENT.post("/v1/resolve", json={"state": state, "decisions": [huge]})
    assert r.status_code == 422 and "Did you mean" not in r.get_json()["detail"]


# -- the parser's reasons in our words --------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b"{", "the body ends before the JSON value does"),
        (b'{"seats":}', "a JSON value was expected"),
        (b'{"seats": 2} x', "something follows the JSON value"),
        (b'{"seats": tru}', "an unknown word"),
        (b'{"seats": 2,}', "a trailing comma"),
        (b"\xff", "the body is not valid UTF-8"),
        # orjson's own English was quoted, untranslated (audit of 2026-11-29)
        (b'\xef\xbb\xbf{"seats": 2}', "the body starts with a byte order mark"),
    ],
)
def test_a_body_that_is_not_json_is_explained_in_our_words(body: bytes, said: str) -> None:
    english = CLIENT.post("/v1/games", data=body, content_type="application/json")
    en = english.get_json()
    assert english.status_code == 400 and en["code"] == "malformed_json"
    assert en["detail"].startswith("The request body is not valid JSON: at line 1, column ")
    assert said in en["detail"]
    for lang in OTHER:
        r = CLIENT.post(
            "/v1/games", data=body, content_type="application/json",
            headers={"Accept-Language": lang},
        )  # fmt: skip
        got = r.get_json()["detail"]
        assert got == read_back(en["detail"], lang) != en["detail"]
        assert said not in got  # no English fragment of the parser's left in it


def test_a_reason_the_parser_may_add_later_is_quoted_as_its_own() -> None:
    import orjson

    from app.i18n import translate
    from app.jsonio import parser_reason

    made_up = orjson.JSONDecodeError("a new complaint", "{", 0)
    said = parser_reason(made_up)
    assert str(said) == "the JSON parser says 'a new complaint'"
    assert translate(said, "de") == "der JSON-Parser meldet 'a new complaint' (auf Englisch)"


# -- Content-Language tells what the body is in ---------------------------------------------


@pytest.mark.parametrize("lang", OTHER)
def test_rules_and_catalogs_say_which_language_their_body_is_in(lang: str) -> None:
    """The rule texts and catalogs are English; the rules' section titles and a catalog's card
    names are translated: Content-Language says so rather than echoing the language asked
    for."""
    asked = {"Accept-Language": lang}
    section = CLIENT.get("/v1/rules/A-4", headers=asked)
    assert section.headers["Content-Language"] == f"{lang}, en"
    assert section.get_json()["title"] != CLIENT.get("/v1/rules/A-4").get_json()["title"]
    clause = CLIENT.get("/v1/rules/F-5.2", headers=asked)  # a clause: no title, English text
    assert clause.status_code == 200 and "title" not in clause.get_json()
    assert clause.headers["Content-Language"] == "en"
    index = CLIENT.get("/v1/rules", headers=asked)
    assert index.headers["Content-Language"] == f"{lang}, en"
    for path in ["/v1/catalogs", "/v1/catalogs?game=fora-de-prumo"]:
        r = CLIENT.get(path, headers=asked)
        assert r.status_code == 200 and r.headers["Content-Language"] == "en", path
        assert "Accept-Language" in r.headers["Vary"]
    # a catalog's document is English, its cards' `names` in the language asked (/play)
    r = CLIENT.get("/v1/catalogs/reference", headers=asked)
    assert r.status_code == 200 and r.headers["Content-Language"] == f"{lang}, en"
    assert "Accept-Language" in r.headers["Vary"]
    # a problem is still translated, and says so
    missing = CLIENT.get("/v1/catalogs/nope", headers=asked)
    assert missing.status_code == 404 and missing.headers["Content-Language"] == lang
    english = CLIENT.get("/v1/rules/A-4")
    assert english.headers["Content-Language"] == "en"


def test_unreadable_rule_pages_name_the_error_not_the_systems_sentence(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    import app.rules as rules

    monkeypatch.setattr(rules, "ROOT", tmp_path)
    rules.clauses.cache_clear()
    try:
        r = CLIENT.get("/v1/rules/A-4.2", headers={"Accept-Language": "de"})
        assert r.status_code == 503 and "(ENOENT)" in r.get_json()["detail"]
        assert "No such file" not in r.get_json()["detail"]
    finally:
        monkeypatch.undo()
        rules.clauses.cache_clear()


@pytest.mark.parametrize(
    ("setup", "said"),
    [
        ({"seats": 2, "sead": 1}, "unknown set-up field 'sead'; did you mean 'seed', 'seats'?"),
        ({**FDP, "seats": 2, "market": 5}, "did you mean 'market_size'?"),
        ({"seats": 2, "Variant": "basic"}, "did you mean 'variant'?"),
    ],
)
def test_an_unknown_set_up_field_suggests_the_closest(setup: dict[str, Any], said: str) -> None:
    en = _in_every_language("/v1/games", setup)
    assert en["code"] == "unknown_field" and said in en["detail"]
    far = _in_every_language("/v1/games", {"seats": 2, "zzz": 1})
    assert far["detail"] == "unknown set-up field 'zzz'"
