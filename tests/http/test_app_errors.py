"""Every error path: each answer is a documented 4xx problem+json with a stable code, the
clause where a rule applies and a JSON pointer into the request body; never a 500."""

from __future__ import annotations

import copy
import io
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from http_support import POSTS, check_response, finished_game, mid_game, schema_errors

import engine.architectura as arch
from engine.errors import SHORT_REPR, short_repr
from engine.games import GAMES, engine


@pytest.fixture(scope="module")
def state() -> dict[str, Any]:
    return arch.new_game({"seats": 2, "seed": 7})


def problem(r: Any, path: str, status: int, code: str, method: str = "POST") -> dict[str, Any]:
    assert r.status_code == status, r.get_json()
    assert r.mimetype == "application/problem+json"
    body: dict[str, Any] = check_response(method, path, r)
    assert body["code"] == code, body
    assert body["status"] == status
    assert body["type"] == f"urn:card-referee:problem:{code}"
    return body


# -- malformed requests: 400 ----------------------------------------------------------------


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize(
    "raw",
    [b"{", b"", b"   ", b'{"state": NaN}', b"[1, 2", b"\xff\xfe{}", b"[" * 5000 + b"]" * 5000],
)
def test_malformed_json(client: Any, path: str, raw: bytes) -> None:
    r = client.post(path, data=raw, content_type="application/json")
    body = problem(r, path, 400, "malformed_json")
    assert body["pointer"] == ""


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("value", [[], [1], 3, "state", None, True])
def test_body_must_be_an_object(client: Any, path: str, value: Any) -> None:
    r = client.post(path, data=json.dumps(value), content_type="application/json")
    body = problem(r, path, 400, "invalid_request")
    assert body["pointer"] == ""


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded", None])
def test_body_must_be_json(client: Any, path: str, ctype: str | None) -> None:
    headers = {"Content-Type": ctype} if ctype else {}
    r = client.post(path, data=b'{"seats": 2, "seed": 1}', headers=headers)
    problem(r, path, 415, "unsupported_media_type")


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("coding", ["gzip", "br", "x-made-up", "gzip, identity"])
def test_a_body_with_a_content_coding_is_refused(client: Any, path: str, coding: str) -> None:
    """Audit of 2026-11-30: a Content-Encoding was ignored, so a plain body labelled gzip was
    read as JSON and a real gzip body was 400 "not valid UTF-8". A coding the service does
    not read is 415 (RFC 9110, 15.5.16), saying which it reads."""
    headers = {"Content-Type": "application/json", "Content-Encoding": coding}
    r = client.post(path, data=b'{"seats": 2, "seed": 1}', headers=headers)
    body = problem(r, path, 415, "unsupported_media_type")
    assert "Content-Encoding" in body["detail"] and r.headers["Accept-Encoding"] == "identity"


def test_an_identity_content_coding_is_read(client: Any) -> None:
    headers = {"Content-Type": "application/json", "Content-Encoding": "Identity"}
    assert (
        client.post("/v1/games", data=b'{"seats": 2, "seed": 1}', headers=headers).status_code
        == 200
    )


def test_json_suffix_media_type_is_accepted(client: Any) -> None:
    r = client.post(
        "/v1/games", data=b'{"seats": 2, "seed": 1}', content_type="application/vnd.x+json"
    )
    assert r.status_code == 200


@pytest.mark.parametrize(
    ("path", "body", "pointers"),
    [
        ("/v1/games", {"game": "chess", "seats": 5}, {"/game"}),
        ("/v1/legal-moves", {}, {"/state"}),
        ("/v1/legal-moves", {"state": []}, {"/state"}),
        ("/v1/legal-moves", {"state": {}, "catalog": "reference"}, {"/catalog"}),
        ("/v1/resolve", {"state": {}}, {"/decisions"}),
        ("/v1/resolve", {"state": {}, "decisions": {}}, {"/decisions"}),
        ("/v1/resolve", {"state": {}, "decisions": [{}, 3]}, {"/decisions/1"}),
        ("/v1/resolve", {"state": 1, "decisions": [1], "x": 2}, {"/state", "/decisions/0", "/x"}),
        ("/v1/validate", {"state": "x"}, {"/state"}),
        ("/v1/view", {"state": {}}, {"/seat"}),
        ("/v1/view", {"state": {}, "seat": "0"}, {"/seat"}),
        ("/v1/view", {"state": {}, "seat": -1}, {"/seat"}),
        ("/v1/score", {"state": None}, {"/state"}),
        ("/v1/replay", {"decisions": []}, {""}),
        ("/v1/replay", {"state": {}, "setup": {"seats": 2, "seed": 1}, "decisions": []}, {""}),
        ("/v1/replay", {"setup": [], "decisions": []}, {"/setup"}),
        ("/v1/replay", {"setup": {"seats": 2, "seed": 1}}, {"/decisions"}),
        ("/v1/replay", {"setup": {"seats": 2, "seed": 1}, "decisions": [[]]}, {"/decisions/0"}),
    ],
)
def test_wrong_types_list_every_field(
    client: Any, path: str, body: dict[str, Any], pointers: set[str]
) -> None:
    r = client.post(path, json=body)
    p = problem(r, path, 400, "invalid_request")
    assert {x["pointer"] for x in p["problems"]} == pointers
    assert p["pointer"] == p["problems"][0]["pointer"]
    if len(pointers) > 1:
        assert f"and {len(pointers) - 1} more" in p["detail"]


def test_field_problem_codes(client: Any) -> None:
    r = client.post("/v1/view", json={"seat": "x", "colour": 1})
    p = problem(r, "/v1/view", 400, "invalid_request")
    codes = {x["pointer"]: x["code"] for x in p["problems"]}
    assert codes == {
        "/seat": "invalid_field",
        "/state": "missing_field",
        "/colour": "unknown_field",
    }


def test_pointer_tokens_are_escaped(client: Any) -> None:
    r = client.post("/v1/legal-moves", json={"state": {}, "a/b~c": 1})
    p = problem(r, "/v1/legal-moves", 400, "invalid_request")
    assert p["pointer"] == "/a~1b~0c"
    # a set-up's unknown field is its engine's, pointed at the same way
    r = client.post("/v1/games", json={"seats": 2, "seed": 1, "a/b~c": 1})
    assert problem(r, "/v1/games", 422, "unknown_field")["pointer"] == "/a~1b~0c"


def test_decision_count_limits(make_app: Any, state: dict[str, Any]) -> None:
    client = make_app(MAX_DECISIONS=3).test_client()
    r = client.post("/v1/resolve", json={"state": state, "decisions": []})
    assert problem(r, "/v1/resolve", 400, "invalid_request")["pointer"] == "/decisions"
    r = client.post("/v1/resolve", json={"state": state, "decisions": [{}] * 4})
    assert "MAX_DECISIONS" in problem(r, "/v1/resolve", 400, "invalid_request")["detail"]
    # a replay reads a whole game's decisions, up to MAX_HISTORY
    r = client.post("/v1/replay", json={"state": state, "decisions": [{}] * 4})
    assert r.status_code == 200 and r.get_json()["ok"] is False  # read, and {} is refused
    client = make_app(MAX_HISTORY=3).test_client()
    r = client.post("/v1/replay", json={"state": state, "decisions": [{}] * 4})
    assert "MAX_HISTORY" in problem(r, "/v1/replay", 400, "invalid_request")["detail"]


# -- size limit: 413 ------------------------------------------------------------------------


@pytest.mark.parametrize("path", POSTS)
def test_body_over_the_limit(make_app: Any, path: str) -> None:
    client = make_app(MAX_CONTENT_LENGTH=1000).test_client()
    body = json.dumps({"seats": 2, "seed": 1, "pad": "x" * 1000}).encode()
    r = client.post(path, data=body, content_type="application/json")
    p = problem(r, path, 413, "body_too_large")
    assert "1000 bytes" in p["detail"]


def test_default_limit_is_two_mib(client: Any, state: dict[str, Any]) -> None:
    pad = "x" * (2 * 1024 * 1024)
    r = client.post("/v1/legal-moves", json={"state": state, "pad": pad})
    problem(r, "/v1/legal-moves", 413, "body_too_large")
    # just under the limit is read (and refused for its unknown field, not its size)
    r = client.post("/v1/legal-moves", json={"state": state, "pad": pad[:1_000_000]})
    problem(r, "/v1/legal-moves", 400, "invalid_request")


def test_limit_applies_without_content_length(make_app: Any) -> None:
    client = make_app(MAX_CONTENT_LENGTH=1000).test_client()
    stream = io.BytesIO(b'{"seats": 2, "seed": 1, "pad": "' + b"x" * 5000 + b'"}')
    chunked = {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}
    # a server that handles chunked bodies (gunicorn) says so with wsgi.input_terminated
    env = {"wsgi.input_terminated": True}
    r = client.post("/v1/games", input_stream=stream, headers=chunked, environ_overrides=env)
    problem(r, "/v1/games", 413, "body_too_large")
    small = io.BytesIO(b'{"seats": 2, "seed": 1}')
    r = client.post("/v1/games", input_stream=small, headers=chunked, environ_overrides=env)
    assert r.status_code == 200


def test_max_body_bytes_env(monkeypatch: pytest.MonkeyPatch) -> None:
    from app import create_app

    monkeypatch.setenv("MAX_BODY_BYTES", "500")
    app = create_app()
    assert app.config["MAX_CONTENT_LENGTH"] == 500
    monkeypatch.setenv("MAX_BODY_BYTES", "lots")
    with pytest.raises(ValueError, match="MAX_BODY_BYTES"):
        create_app()


# -- routing: 404, 405 ----------------------------------------------------------------------


def test_unknown_path(client: Any) -> None:
    r = client.get("/v1/nothing")
    assert r.status_code == 404 and r.mimetype == "application/problem+json"
    assert r.get_json()["code"] == "not_found"
    assert "X-Request-ID" in r.headers


def test_unknown_catalog(client: Any) -> None:
    r = client.get("/v1/catalogs/chess")
    p = problem(r, "/v1/catalogs/{catalog_id}", 404, "unknown_catalog", "GET")
    assert p["clause"] == "A-10"
    assert "reference" in p["detail"]


@pytest.mark.parametrize(
    ("path", "template"),
    [("/v1/catalogs", "/v1/catalogs"), ("/v1/catalogs/reference", "/v1/catalogs/{catalog_id}")],
)
def test_an_unknown_game_of_the_catalogs_is_quoted_bounded(
    client: Any, path: str, template: str
) -> None:
    """A 10,000-character `?game=` is named in at most SHORT_REPR characters (the sentence of
    engine.games.unknown_game, as for a set-up's or a state's game), the known games listed."""
    r = client.get(path, query_string={"game": "x" * 10_000})
    p = problem(r, template, 404, "unknown_game", "GET")
    assert p["detail"] == f"Unknown game {short_repr('x' * 10_000)}; known: {', '.join(GAMES)}."
    assert len(p["detail"]) < SHORT_REPR + 100


def test_an_unknown_catalog_id_is_quoted_bounded(client: Any) -> None:
    r = client.get("/v1/catalogs/" + "c" * 5_000)
    p = problem(r, "/v1/catalogs/{catalog_id}", 404, "unknown_catalog", "GET")
    assert short_repr("c" * 5_000) in p["detail"] and len(p["detail"]) < SHORT_REPR + 200


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [("get", "/v1/resolve", "POST"), ("put", "/v1/games", "POST"), ("post", "/healthz", "GET")],
)
def test_method_not_allowed(client: Any, method: str, path: str, allowed: str) -> None:
    r = getattr(client, method)(path)
    assert r.status_code == 405 and r.mimetype == "application/problem+json"
    assert r.get_json()["code"] == "method_not_allowed"
    assert allowed in r.headers["Allow"]


def test_conditional_requests_for_static_files_fail_as_problems(client: Any) -> None:
    """werkzeug answers a Range past a static file's end (416) and a failed If-Match (412, a
    status it sets on the file's own answer): both are problems, 416 keeping Content-Range."""
    size = len(client.get("/static/play.js").data)
    r = client.get("/static/play.js", headers={"Range": f"bytes={size}-"})
    assert r.status_code == 416 and r.mimetype == "application/problem+json"
    assert r.get_json()["code"] == "range_not_satisfiable"
    assert r.headers["Content-Range"] == f"bytes */{size}"
    r = client.get("/static/play.js", headers={"If-Match": '"not-its-etag"'})
    assert r.status_code == 412 and r.mimetype == "application/problem+json"
    assert r.get_json()["code"] == "precondition_failed"
    assert "ETag" not in r.headers  # not the file's answer
    ok = client.get("/static/play.js", headers={"Range": "bytes=0-9"})
    assert ok.status_code == 206 and len(ok.data) == 10


@pytest.mark.parametrize("header", ["bytes=0-9,20-29", "items=0-1", "bytes=abc", "bytes=5-1"])
def test_a_range_werkzeug_should_not_read_is_ignored(client: Any, header: str) -> None:
    """Several ranges, another unit or a malformed range were a 416 "outside the resource",
    which they are not (audit of 2026-11-29): such a Range is ignored, the whole file sent
    (RFC 9110, 14.2)."""
    full = client.get("/static/play.js").data
    r = client.get("/static/play.js", headers={"Range": header})
    assert r.status_code == 200 and r.data == full and "Content-Range" not in r.headers


# -- rule and consistency errors: 422 -------------------------------------------------------


def test_illegal_decision_names_index_clause_and_reason(client: Any, state: dict[str, Any]) -> None:
    options = arch.legal_decisions(state)["options"]
    first = options[0]
    after, _ = arch.apply(state, first)
    second = arch.legal_decisions(after)["options"][0]
    bad = {"seat": 0, "type": "play", "card": state["seats"][0]["hand"][0], "cell": [1, 1]}
    r = client.post("/v1/resolve", json={"state": state, "decisions": [first, second, bad]})
    p = problem(r, "/v1/resolve", 422, "not_your_decision")
    assert p["index"] == 2
    assert p["clause"] == "A-3"
    assert p["pointer"] == "/decisions/2/seat"
    assert "state" not in p and "events" not in p  # nothing applied, nothing half-applied


@pytest.mark.parametrize(
    ("decision", "code", "clause", "pointer"),
    [
        (
            {"type": "play", "card": "blue.nothing", "cell": [1, 1]},
            "unknown_card",
            "A-1.3",
            "/card",
        ),
        (
            {"type": "play", "card": "green.villa", "cell": [1, 1]},
            "card_not_in_hand",
            "A-3.2",
            "/card",
        ),
        (
            {"type": "play", "card": "blue.villa", "cell": [1, 3]},
            "cell_not_eligible",
            "A-4.1",
            "/cell",
        ),
        ({"type": "play", "card": "blue.villa", "cell": [9, 1]}, "invalid_cell", "A-1.2", "/cell"),
        ({"type": "teleport"}, "unknown_decision_type", None, "/type"),
        ({"type": "pass", "extra": 1}, "malformed_decision", None, "/extra"),
        (
            {"type": "rotate", "target": "blue.villa", "steps": 1},
            "wrong_decision_type",
            "A-3",
            "/type",
        ),
    ],
)
def test_illegal_decisions(
    client: Any,
    state: dict[str, Any],
    decision: dict[str, Any],
    code: str,
    clause: str | None,
    pointer: str,
) -> None:
    assert "blue.villa" in state["seats"][0]["hand"]
    r = client.post("/v1/resolve", json={"state": state, "decisions": [decision]})
    p = problem(r, "/v1/resolve", 422, code)
    assert p.get("clause") == clause
    assert p["pointer"] == "/decisions/0" + pointer
    assert p["index"] == 0


def test_decision_after_game_over(client: Any) -> None:
    final, _ = finished_game(2, 5)
    r = client.post("/v1/resolve", json={"state": final, "decisions": [{"type": "pass"}]})
    p = problem(r, "/v1/resolve", 422, "game_over")
    assert p["clause"] == "A-3.7"


@pytest.mark.parametrize(
    "path",
    ["/v1/legal-moves", "/v1/resolve", "/v1/view", "/v1/score", "/v1/review", "/v1/position"],
)
def test_inconsistent_state_lists_every_problem(client: Any, path: str) -> None:
    bad = mid_game()
    bad["seats"][0]["tokens"] = 0
    bad["seats"][1]["hand"].append(bad["seats"][3]["deck"][0])
    body: dict[str, Any] = {"state": bad}
    if path == "/v1/resolve":
        body["decisions"] = [arch.legal_decisions(mid_game())["options"][0]]
    if path == "/v1/view":
        body["seat"] = 0
    if path == "/v1/review":  # the game from this state on (a state alone needs its history)
        body.update(decisions=[], budget={"iterations": 1})
    p = problem(client.post(path, json=body), path, 422, "invalid_state")
    pointers = [x["pointer"] for x in p["problems"]]
    assert "/state/seats/0/tokens" in pointers
    assert any(x.startswith("/state/seats/1/hand/") for x in pointers)
    assert p["pointer"] == pointers[0]
    assert p["detail"].endswith("more)")


@pytest.mark.parametrize(
    ("mutate", "pointer"),
    [
        (lambda s: s.update(game="chess"), "/state/game"),
        (lambda s: s.update(rules_version="0.1"), "/state/rules_version"),
        (lambda s: s.update(catalog={"id": "reference", "hash": "sha256:00"}), "/state/catalog"),
        (lambda s: s.update(seats=s["seats"][:1]), "/state/seats"),
        (lambda s: s["seats"][0].update(hand=["purple.well"]), "/state/seats/0/hand/0"),
        (lambda s: s.update(rng="z"), "/state/rng"),
        (lambda s: s.update(pending={"seat": 1}), "/state/pending"),
        (lambda s: s.update(resolving=[]), "/state/resolving"),
        (lambda s: s.update(city=[]), "/state/city"),
        (lambda s: s.update(extra=1), "/state/extra"),
    ],
)
def test_inconsistent_states(client: Any, state: dict[str, Any], mutate: Any, pointer: str) -> None:
    bad = copy.deepcopy(state)
    mutate(bad)
    p = problem(
        client.post("/v1/legal-moves", json={"state": bad}), "/v1/legal-moves", 422, "invalid_state"
    )
    assert pointer in [x["pointer"] for x in p["problems"]]
    r = client.post("/v1/validate", json={"state": bad})
    report = check_response("POST", "/v1/validate", r)
    assert report["valid"] is False
    assert report["problems"] == p["problems"]


def test_view_unknown_seat(client: Any, state: dict[str, Any]) -> None:
    r = client.post("/v1/view", json={"state": state, "seat": 2})
    p = problem(r, "/v1/view", 422, "unknown_seat")
    assert p["pointer"] == "/seat" and p["clause"] == "A-1.1"


@pytest.mark.parametrize(
    ("setup", "code", "pointer", "clause"),
    [
        ({"seats": 2, "seed": 1, "first_seat": 2}, "invalid_first_seat", "/first_seat", "A-1.4"),
        (
            {"seats": 2, "seed": 1, "replacements": [{"museum": "well"}]},
            "replacements_in_basic_game",
            "/replacements",
            "A-1.5",
        ),
        (
            {"seats": 2, "seed": 1, "variant": "advanced", "replacements": [{"museum": "palace"}]},
            "illegal_replacement",
            "/replacements/0/museum",
            "A-1.5",
        ),
        (
            {"seats": 2, "seed": 1, "variant": "advanced", "replacements": [{}, {}, {}]},
            "invalid_replacements",
            "/replacements",
            "A-1.5",
        ),
        (
            {"seats": 2, "seed": 1, "colours": ["red", "red"]},
            "invalid_colours",
            "/colours",
            "A-1.1",
        ),
        (
            {"seats": 3, "seed": 1, "colours": ["red", "blue"]},
            "invalid_colours",
            "/colours",
            "A-1.1",
        ),
        ({"seats": 2, "seed": 1, "catalog": "chess"}, "unknown_catalog", "/catalog", "A-10"),
    ],
)
def test_setup_errors(
    client: Any, setup: dict[str, Any], code: str, pointer: str, clause: str
) -> None:
    p = problem(client.post("/v1/games", json=setup), "/v1/games", 422, code)
    assert p["pointer"] == pointer and p["clause"] == clause
    # the same set-up inside a replay points into /setup
    r = client.post("/v1/replay", json={"setup": setup, "decisions": []})
    p = problem(r, "/v1/replay", 422, code)
    assert p["pointer"] == "/setup" + pointer


@pytest.mark.parametrize(
    ("path", "body", "problems"),
    [
        ("/v1/games", {}, [("missing_field", "/seats")]),
        ("/v1/games", {"seats": "2", "seed": 1}, [("invalid_seat_count", "/seats")]),
        ("/v1/games", {"seats": 2.5, "seed": 1}, [("invalid_seat_count", "/seats")]),
        ("/v1/games", {"seats": True, "seed": 1}, [("invalid_seat_count", "/seats")]),
        (
            "/v1/games",
            {"seats": 5, "seed": -1},
            [("invalid_seat_count", "/seats"), ("invalid_seed", "/seed")],
        ),
        ("/v1/games", {"seats": 2, "seed": 2**64}, [("invalid_seed", "/seed")]),
        (
            "/v1/games",
            {"seats": 2, "seed": 1, "variant": "expert"},
            [("invalid_variant", "/variant")],
        ),
        (
            "/v1/games",
            {"seats": 2, "seed": 1, "first_seat": 4},
            [("invalid_first_seat", "/first_seat")],
        ),
        ("/v1/games", {"seats": 2, "seed": 1, "colours": "red"}, [("invalid_colours", "/colours")]),
        (
            "/v1/games",
            {"seats": 2, "seed": 1, "colours": [1, 2]},
            [("invalid_colours", "/colours")],
        ),
        (
            "/v1/games",
            {"seats": 2, "seed": 1, "replacements": {"a": "b"}},
            [("invalid_replacements", "/replacements")],
        ),
        (
            "/v1/games",
            {"seats": 2, "seed": 1, "replacements": [{"a": 3}]},
            [
                ("replacements_in_basic_game", "/replacements"),
                ("illegal_replacement", "/replacements/0/a"),
            ],
        ),
        ("/v1/games", {"seats": 2, "seed": 1, "catalog": 5}, [("unknown_catalog", "/catalog")]),
        ("/v1/games", {"seats": 2, "seed": 1, "catalog": ""}, [("unknown_catalog", "/catalog")]),
        (
            "/v1/replay",
            {"setup": {"seats": 1}, "decisions": []},
            [("invalid_seat_count", "/setup/seats")],
        ),
    ],
)
def test_set_up_values_are_read_by_the_engine(
    client: Any, path: str, body: dict[str, Any], problems: list[tuple[str, str]]
) -> None:
    """A set-up's values are its game's (as a state's are): every bad one is a 422 naming
    its clause, listed with its pointer (they were 400s of the schema: tests/http/test_setup_values.py
    shows both games answer alike)."""
    p = problem(client.post(path, json=body), path, 422, problems[0][0])
    assert [(x["code"], x["pointer"]) for x in p["problems"]] == problems
    assert all(
        x["clause"].startswith("A-1") for x in p["problems"] if x["code"] != "unknown_catalog"
    )
    assert p["pointer"] == p["problems"][0]["pointer"]
    if len(problems) > 1:
        assert f"and {len(problems) - 1} more" in p["detail"]


# each game's set-up, and the clause that lists its fields (A-1, F-1)
GAME_SETUPS = {
    "architectura": ({"seats": 2, "seed": 1}, "A-1"),
    "fora-de-prumo": ({"game": "fora-de-prumo", "seats": 2, "seed": 1}, "F-1"),
}


@pytest.mark.parametrize("game", GAME_SETUPS)
def test_an_unknown_set_up_field_is_one_problem_in_every_game(client: Any, game: str) -> None:
    """The same problem, the same answer in both games and wherever a set-up is read
    (/v1/games, a replay's set-up, a state's history recorded): 422 `unknown_field` citing the
    game's set-up clause, beside the set-up's other problems (the engines read it)."""
    setup, clause = GAME_SETUPS[game]
    state = client.post("/v1/games", json=setup).get_json()["state"]
    hist = state["history"]
    forged = {**state, "history": {**hist, "setup": {**hist["setup"], "bogus": 1}}}
    for path, body, at in [
        ("/v1/games", {**setup, "bogus": 1}, ""),
        ("/v1/replay", {"setup": {**setup, "bogus": 1}, "decisions": []}, "/setup"),
        ("/v1/record", {"state": forged}, "/state/history/setup"),
    ]:
        p = problem(client.post(path, json=body), path, 422, "unknown_field")
        assert (p["clause"], p["pointer"]) == (clause, f"{at}/bogus"), path
        assert p["detail"] == "unknown set-up field 'bogus'"
        assert [(x["code"], x["clause"]) for x in p["problems"]] == [("unknown_field", clause)]
    both = {**setup, "first_seat": 3, "bogus": 1}  # the other problems are listed too
    p = problem(client.post("/v1/games", json=both), "/v1/games", 422, "unknown_field")
    assert [x["code"] for x in p["problems"]] == ["unknown_field", "invalid_first_seat"]


@pytest.mark.parametrize(("game", "clause"), [("architectura", "A-10"), ("fora-de-prumo", "F-2.8")])
def test_an_unknown_field_of_a_set_up_catalog_is_one_problem_in_every_game(
    client: Any, game: str, clause: str
) -> None:
    """A custom catalog's unknown field is a bad catalog in both games, as it is beside a
    state: 422 `invalid_catalog` citing the game's catalog clause, each problem listed."""
    from engine.games import engine

    setup = GAME_SETUPS[game][0]
    doc = {**engine(game).builtin_catalogs()["reference"].to_json(), "bogus": 1}
    state = client.post("/v1/games", json=setup).get_json()["state"]
    for path, body, at in [
        ("/v1/games", {**setup, "catalog": doc}, "/catalog"),
        ("/v1/replay", {"setup": {**setup, "catalog": doc}, "decisions": []}, "/setup/catalog"),
        ("/v1/legal-moves", {"state": state, "catalog": doc}, "/catalog"),
    ]:
        p = problem(client.post(path, json=body), path, 422, "invalid_catalog")
        assert (p["clause"], p["pointer"]) == (clause, f"{at}/bogus"), path
        assert [x["code"] for x in p["problems"]] == ["catalog_unknown_field"]


def test_setup_lists_several_problems(client: Any) -> None:
    r = client.post(
        "/v1/games",
        json={"seats": 2, "seed": 1, "first_seat": 3, "variant": "advanced", "colours": ["a", "b"]},
    )
    p = problem(r, "/v1/games", 422, "invalid_first_seat")
    assert [x["pointer"] for x in p["problems"]] == ["/first_seat", "/colours"]


def bad_catalog() -> dict[str, Any]:
    doc = copy.deepcopy(arch.builtin_catalogs()["reference"].to_json())
    doc["id"] = "Bad Id"
    doc["cards"][1]["values"] = [4, 3]
    return doc


def test_invalid_custom_catalog(client: Any, state: dict[str, Any]) -> None:
    doc = bad_catalog()
    p = problem(
        client.post("/v1/games", json={"seats": 2, "seed": 1, "catalog": doc}),
        "/v1/games",
        422,
        "invalid_catalog",
    )
    pointers = [x["pointer"] for x in p["problems"]]
    assert "/catalog/id" in pointers
    assert any(x.startswith("/catalog/cards/1") for x in pointers)
    assert p["clause"] == "A-10"
    for path in ("/v1/legal-moves", "/v1/validate", "/v1/score"):
        r = client.post(path, json={"state": state, "catalog": doc})
        p2 = problem(r, path, 422, "invalid_catalog")
        assert [x["pointer"] for x in p2["problems"]] == pointers
    r = client.post(
        "/v1/replay", json={"setup": {"seats": 2, "seed": 1, "catalog": doc}, "decisions": []}
    )
    p3 = problem(r, "/v1/replay", 422, "invalid_catalog")
    assert [x["pointer"] for x in p3["problems"]] == ["/setup" + x for x in pointers]


def test_replay_from_an_inconsistent_state(client: Any, state: dict[str, Any]) -> None:
    bad = copy.deepcopy(state)
    bad["seats"][0]["tokens"] = 1
    r = client.post("/v1/replay", json={"state": bad, "decisions": []})
    p = problem(r, "/v1/replay", 422, "invalid_state")
    assert p["pointer"] == "/state/seats/0/tokens"


# -- the catch-all, and the logs ------------------------------------------------------------


class Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        from app.logging import JsonFormatter

        self.lines.append(JsonFormatter().format(record))


@contextmanager
def access_lines() -> Iterator[Capture]:
    """The access lines written meanwhile, each as JsonFormatter formats its record (a second
    handler on "app.access", which also sends the line down the record path)."""
    access = logging.getLogger("app.access")
    cap = Capture()
    access.addHandler(cap)
    old = access.level
    access.setLevel(logging.INFO)
    try:
        yield cap
    finally:
        access.removeHandler(cap)
        access.setLevel(old)


def test_unexpected_error_is_a_logged_500_without_details(app: Any) -> None:

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("secret internals")

    cap = Capture()
    logging.getLogger("app.errors").addHandler(cap)
    try:
        r = app.test_client().get("/boom", headers={"X-Request-ID": "r1"})
    finally:
        logging.getLogger("app.errors").removeHandler(cap)
    assert r.status_code == 500 and r.mimetype == "application/problem+json"
    body = r.get_json()
    assert body["code"] == "internal_error" and "secret" not in json.dumps(body)
    assert body["request_id"] == "r1"
    logged = json.loads(cap.lines[0])
    assert logged["request_id"] == "r1"
    assert "secret internals" in logged["exc"]


def test_one_json_log_line_per_request(make_app: Any, state: dict[str, Any]) -> None:
    app = make_app(LOG_LEVEL="INFO")
    client = app.test_client()
    with access_lines() as cap:
        client.post("/v1/legal-moves", json={"state": state}, headers={"X-Request-ID": "abc"})
        client.post("/v1/resolve", data=b"{", content_type="application/json")
        client.get("/nowhere")
    assert len(cap.lines) == 3
    lines = [json.loads(x) for x in cap.lines]
    assert all("\n" not in x for x in cap.lines)
    first = lines[0]
    assert first["method"] == "POST" and first["path"] == "/v1/legal-moves"
    assert first["status"] == 200 and first["request_id"] == "abc"
    assert isinstance(first["duration_ms"], float) and first["duration_ms"] >= 0
    assert first["bytes_in"] > 0 and first["bytes_out"] > 0
    assert [x["status"] for x in lines] == [200, 400, 404]


def test_access_line_written_directly_is_the_formatters_line(
    make_app: Any, state: dict[str, Any]
) -> None:
    """With the usual configuration the access line skips the LogRecord (app/logging.py,
    issue 10); it must be the line JsonFormatter writes for the record, field for field."""
    app = make_app(LOG_LEVEL="INFO")
    client = app.test_client()
    access = logging.getLogger("app.access")
    ours = [h for h in logging.getLogger("app").handlers if getattr(h, "_architectura", False)]
    assert len(ours) == 1 and isinstance(ours[0], logging.StreamHandler)
    buf = io.StringIO()
    old_stream = ours[0].setStream(buf)
    old_level = access.level
    access.setLevel(logging.INFO)
    body = {"state": state}
    try:
        client.post("/v1/legal-moves", json=body, headers={"X-Request-ID": "same"})
        with access_lines() as cap:  # a second handler: the record path
            client.post("/v1/legal-moves", json=body, headers={"X-Request-ID": "same"})
    finally:
        ours[0].setStream(old_stream)
        access.setLevel(old_level)
    written = buf.getvalue().splitlines()
    assert len(written) == 2  # the direct line, then the record's through our handler
    direct, via_record = json.loads(written[0]), json.loads(cap.lines[0])
    assert json.loads(written[1]) == via_record
    assert list(direct) == list(via_record)  # same fields, same order
    for key in direct:
        if key not in ("ts", "duration_ms"):
            assert direct[key] == via_record[key], key
    assert direct["logger"] == "app.access" and direct["request_id"] == "same"
    assert len(direct["ts"]) == len(via_record["ts"]) and direct["ts"].endswith("+00:00")


def test_odd_content_length_is_logged_not_a_crash(make_app: Any) -> None:
    """A Content-Length the server passes on but that is not a number ("²" is a digit to
    str.isdigit, not to int) counts as no body in the access line; the answer is unchanged.
    Was: a ValueError in the access log's hook."""
    app = make_app(LOG_LEVEL="INFO")
    with access_lines() as cap:
        r = app.test_client().get("/healthz", environ_overrides={"CONTENT_LENGTH": "\u00b2"})
    assert r.status_code == 200
    assert json.loads(cap.lines[0])["bytes_in"] == 0


def test_integral_numbers_are_integers(client: Any) -> None:
    """JSON Schema counts 3.0 as an integer; so does the envelope (never a boolean)."""
    r = client.post(
        "/v1/games", data=b'{"seats": 3.0, "seed": 1e2}', content_type="application/json"
    )
    assert r.status_code == 200
    state = check_response("POST", "/v1/games", r)["state"]
    assert state.pop("history")["setup"]["seats"] == 3  # an int, in the history too
    assert state == arch.new_game({"seats": 3, "seed": 100})


# -- a final newline is not part of an id (Python's `$` matched before it) -------------------


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
@pytest.mark.parametrize("where", ["card", "catalog"])
def test_an_id_ending_in_a_newline_is_refused(client: Any, game: str, where: str) -> None:
    """Was accepted: a card `well\\n` was dealt, and once played its decision's notation
    broke the game's history (422 `invalid_history` on the service's own state) and its
    record (a replay stopped at it)."""
    doc = engine(game).builtin_catalogs()["reference"].to_json()
    doc["id"] = "newline"
    if where == "card":
        doc["cards"][0]["id"] += "\n"
    else:
        doc["id"] += "\n"
    r = client.post("/v1/games", json={"game": game, "seats": 2, "seed": 1, "catalog": doc})
    p = problem(r, "/v1/games", 422, "invalid_catalog")
    pointer = "/catalog/cards/0/id" if where == "card" else "/catalog/id"
    assert pointer in [x["pointer"] for x in p["problems"]]


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_a_generator_state_is_read_as_written_or_refused(client: Any, game: str) -> None:
    """Architectura read upper case (or `0x`, `_`, a sign: int() takes them) and wrote it back
    lower-cased: a silently fixed state."""
    state = client.post("/v1/games", json={"game": game, "seats": 2, "seed": 1}).get_json()
    state = state["state"]
    for rng in (state["rng"].upper(), "0x" + state["rng"][2:], state["rng"][:8] + "_" + "1" * 7):
        r = client.post("/v1/validate", json={"state": {**state, "rng": rng}})
        assert r.status_code == 200
        assert [p["code"] for p in r.get_json()["problems"]] == ["invalid_rng"], rng


def test_a_decision_in_notation_with_a_final_newline_is_refused(client: Any) -> None:
    """Was read as the decision without it (the event's notation dropped the newline)."""
    state = client.post("/v1/games", json={"seats": 2, "seed": 1}).get_json()["state"]
    written = engine("architectura").decision_notation(state["pending"]["options"][0])
    r = client.post("/v1/resolve", json={"state": state, "decisions": [written + "\n"]})
    assert problem(r, "/v1/resolve", 422, "invalid_notation")["pointer"] == "/decisions/0"


def test_a_path_cannot_break_or_disguise_its_access_line(make_app: Any) -> None:
    """A path holding U+0085, U+2028 (line breaks to str.splitlines) or U+202E (shown
    reversed) made one access line read as several, one of them reversed: JSON lets them
    through unescaped (audit of 2026-11-29). The line holds them escaped, and reads back the
    same path."""
    app = make_app(LOG_LEVEL="INFO")
    odd = "/x\u0085y\u2028z\u2029\u202eabc\u200f\u00e9"
    with access_lines() as cap:
        r = app.test_client().get(odd)
    assert r.status_code == 404
    (line,) = cap.lines
    assert len(line.splitlines()) == 1 and line.isprintable()
    assert "\\u0085" in line and "\\u202e" in line and "\u00e9" in line  # é as it is
    assert json.loads(line)["path"] == odd


def test_a_body_in_a_transfer_coding_the_service_does_not_decode_is_a_501(make_app: Any) -> None:
    """gunicorn takes `gzip, chunked` and hands the app the coded bytes: a mislabelled body
    was read as JSON (audit of 2026-11-29). A POST, whose body is read, is refused; a GET's
    body is never read."""
    client = make_app().test_client()
    coded = {"Transfer-Encoding": "gzip, chunked"}
    r = client.post("/v1/validate", json={}, headers=coded)
    assert r.status_code == 501 and r.get_json()["code"] == "unsupported_transfer_coding"
    assert not schema_errors("Problem", r.get_json())
    assert (
        client.post("/v1/validate", json={}, headers={"Transfer-Encoding": "chunked"}).status_code
        != 501
    )
    assert client.get("/healthz", headers=coded).status_code == 200


@pytest.mark.parametrize("path", ["/v1//rules", "/v1/catalogs//x", "/static//play.js"])
def test_repeated_slashes_are_an_unknown_path_not_a_redirect(make_app: Any, path: str) -> None:
    """werkzeug merged them with a 308 HTML redirect to a URL built from the client's Host
    header, outside the error handlers (audit of 2026-11-29)."""
    r = make_app().test_client().get(path, headers={"Host": "evil.example"})
    assert r.status_code == 404 and r.mimetype == "application/problem+json"
    assert "Location" not in r.headers and r.get_json()["code"] == "not_found"
