"""POST /v1/record: a finished game written down as a versioned record that /v1/replay
accepts unchanged (ok: true, the same final state); a record whose header does not match its
replay (rules version, catalog, result) is refused, as is a log with an illegal decision."""

from __future__ import annotations

import copy
import random
from typing import Any

import orjson
import pytest
from fdp_support import big_catalog, stalling_game, two_engineers_catalog
from http_support import check_response, make_app, schema_errors

from ai.redis_server import RedisServer
from app.settings import DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_DECISIONS
from engine.games import engine

CLIENT = make_app().test_client()


def finished_game(setup: dict[str, Any], seed: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A complete game of seeded random options over HTTP: (decisions, final state)."""
    rng = random.Random(seed)
    state = CLIENT.post("/v1/games", json=setup).get_json()["state"]
    log = []
    while not state["game_over"]:
        option = rng.choice(state["pending"]["options"])
        log.append(option)
        r = CLIENT.post("/v1/resolve", json={"state": state, "decisions": [option]})
        state = r.get_json()["state"]
    return log, state


@pytest.mark.parametrize(
    "setup",
    [
        {"seats": 2, "seed": 42},
        {"seats": 3, "seed": 9, "variant": "advanced"},
        {"game": "fora-de-prumo", "seats": 3, "seed": 4},
    ],
    ids=["architectura-2", "architectura-3-advanced", "fora-de-prumo-3"],
)
def test_a_finished_game_recorded_replays_unchanged(setup: dict[str, Any]) -> None:
    log, final = finished_game(setup, 7)
    r = CLIENT.post("/v1/record", json={"setup": setup, "decisions": log})
    rec = check_response("POST", "/v1/record", r)
    assert r.status_code == 200
    eng = engine(setup.get("game", "architectura"))
    header = rec["record"]
    assert header["format"] == "referee-record/1" and header["game"] == eng.INFO.id
    assert header["rules_version"] == eng.INFO.rules_version == final["rules_version"]
    assert header["catalog"] == final["catalog"] and header["catalog"]["hash"].startswith("sha256:")
    assert header["result"] == {
        "game_over": True,
        "decisions": len(log),
        "scores": final["scores"],
    }
    assert rec["decisions"] == [eng.decision_notation(d) for d in log]
    assert all(isinstance(d, str) for d in rec["decisions"])
    assert rec["setup"]["seed"] == setup["seed"]

    replayed = CLIENT.post("/v1/replay", json=rec)
    body = check_response("POST", "/v1/replay", replayed)
    assert body["ok"] is True and body["applied"] == len(log)
    assert body["state"] == final


def test_a_record_from_a_state_and_of_an_unfinished_game() -> None:
    log, _ = finished_game({"seats": 2, "seed": 5}, 1)
    start = CLIENT.post(
        "/v1/replay", json={"setup": {"seats": 2, "seed": 5}, "decisions": log[:6]}
    ).get_json()["state"]
    rec = CLIENT.post("/v1/record", json={"state": start, "decisions": log[6:10]}).get_json()
    assert rec["state"] == start and "setup" not in rec
    assert rec["record"]["result"]["game_over"] is False
    assert rec["record"]["result"]["decisions"] == 4
    body = CLIENT.post("/v1/replay", json=rec).get_json()
    assert body["ok"] is True and body["applied"] == 4


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("rules_version",), "architectura-rules/0.9"),
        (("format",), "referee-record/2"),
        (("game",), "fora-de-prumo"),
        (("catalog", "hash"), "sha256:" + "0" * 64),
        (("result", "scores"), None),
        (("result", "decisions"), 3),
    ],
)
def test_a_record_that_does_not_match_its_replay_is_refused(
    path: tuple[str, ...], value: Any
) -> None:
    setup = {"seats": 2, "seed": 42}
    log, _ = finished_game(setup, 3)
    rec = CLIENT.post("/v1/record", json={"setup": setup, "decisions": log}).get_json()
    forged = copy.deepcopy(rec)
    target = forged["record"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    r = CLIENT.post("/v1/replay", json=forged)
    body = check_response("POST", "/v1/replay", r)
    assert r.status_code == 422 and body["code"] == "record_mismatch"
    assert body["pointer"] == f"/record/{path[0]}"


@pytest.mark.parametrize(
    "extra",
    [{"composed": True}, {"composed": False}, {"signed_by": "the referee"}, {"a/b": 1}],
    ids=["composed", "composed-false", "signed_by", "escaped"],
)
def test_a_record_header_holds_nothing_its_replay_does_not_give(extra: dict[str, Any]) -> None:
    """Audit F6: only the fields a replay gives were compared, so a dealt game's header could
    claim it started from a composed state, or carry a key the service never wrote (a
    signature), and still be accepted. Each is a record_mismatch at that field, whether the
    log is legal or not (an illegal one's header keeps its result, which is not compared)."""
    setup = {"seats": 2, "seed": 42}
    log, _ = finished_game(setup, 3)
    rec = CLIENT.post("/v1/record", json={"setup": setup, "decisions": log}).get_json()
    broken = {**rec, "decisions": [*rec["decisions"][:5], "??"]}  # replays to ok: false
    assert CLIENT.post("/v1/replay", json=broken).get_json()["ok"] is False
    (key,) = extra
    for sent in (rec, broken):
        forged = {**sent, "record": {**sent["record"], **extra}}
        r = CLIENT.post("/v1/replay", json=forged)
        body = check_response("POST", "/v1/replay", r)
        assert r.status_code == 422 and body["code"] == "record_mismatch", body
        assert body["pointer"] == "/record/" + key.replace("/", "~1")
        assert "remove it" in body["detail"] and "rules_version" in body["detail"]
    assert not schema_errors("RecordHeader", rec["record"])


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_a_composed_state_and_its_record_keep_the_contract(game: str) -> None:
    """Audit F5: StateInput did not list `composed`, so a request sending a composed state
    back broke the request schemas, and /v1/record's answer, whose `state` is one, broke its
    response schema. The state as /v1/position builds it, each request that sends it back,
    the record and the state its replay answers are all checked against the contract."""
    eng = engine(game)
    text = eng.position_of(eng.new_game({"game": game, "seats": 3, "seed": 2}))
    built = CLIENT.post("/v1/position", json={"position": text}).get_json()["state"]
    assert built["composed"] is True and not schema_errors("StateInput", built)
    body = {"state": built, "decisions": [built["pending"]["options"][0]]}
    for name in ("ResolveRequest", "ReplayRequest", "RecordRequest"):
        assert not schema_errors(name, body), name
    for name in ("StateRequest", "PositionRequest"):
        assert not schema_errors(name, {"state": built}), name
    assert not schema_errors("ViewRequest", {"state": built, "seat": 1})
    r = CLIENT.post("/v1/record", json=body)
    rec = check_response("POST", "/v1/record", r)
    assert r.status_code == 200 and rec["state"] == built and rec["record"]["composed"] is True
    assert not schema_errors("ReplayRequest", rec)  # the record is a replay request
    replayed = check_response("POST", "/v1/replay", CLIENT.post("/v1/replay", json=rec))
    assert replayed["ok"] is True and not schema_errors("StateInput", replayed["state"])


def test_a_record_whose_decisions_were_changed_does_not_replay_to_its_result() -> None:
    setup = {"seats": 2, "seed": 42}
    log, _ = finished_game(setup, 3)
    rec = CLIENT.post("/v1/record", json={"setup": setup, "decisions": log}).get_json()
    rec["decisions"] = rec["decisions"][:-1]  # the last decision dropped
    r = CLIENT.post("/v1/replay", json=rec)
    assert r.status_code == 422 and r.get_json()["pointer"] == "/record/result"


def test_an_illegal_log_is_not_recorded() -> None:
    setup = {"seats": 2, "seed": 42}
    log, _ = finished_game(setup, 3)
    bad = [*log[:4], log[0], *log[5:]]  # a decision out of turn
    r = CLIENT.post("/v1/record", json={"setup": setup, "decisions": bad})
    body = check_response("POST", "/v1/record", r)
    assert r.status_code == 422 and body["index"] == 4
    assert body["pointer"].startswith("/decisions/4")
    r = CLIENT.post("/v1/record", json={"setup": setup, "decisions": [*log[:2], "??"]})
    body = check_response("POST", "/v1/record", r)
    assert r.status_code == 422 and body["code"] == "invalid_notation" and body["index"] == 2


def test_a_record_from_a_sealed_state_carries_it_as_sent() -> None:
    # an encrypted running game's record is refused: tests/http/test_trust.py
    client = make_app(STATE_SECRET="test-secret-0123456789abcdefghijk").test_client()
    state = client.post("/v1/games", json={"seats": 2, "seed": 8}).get_json()["state"]
    assert "seal" in state
    rng = random.Random(4)
    options = client.post("/v1/legal-moves", json={"state": state}).get_json()["options"]
    first = rng.choice(options)
    after = client.post("/v1/resolve", json={"state": state, "decisions": [first]}).get_json()
    second = after["pending"]["options"][0]
    r = client.post("/v1/record", json={"state": state, "decisions": [first, second]})
    assert r.status_code == 200, r.get_json()
    rec = r.get_json()
    assert rec["state"] == state  # byte for byte the document sent, seal and all
    replayed = client.post("/v1/replay", json=rec).get_json()
    assert replayed["ok"] is True and replayed["applied"] == 2
    forged = {**rec, "state": {**state, "rng": "0" * 16}}
    # a changed start is refused by its seal, record or not
    assert client.post("/v1/replay", json=forged).get_json()["code"] == "state_tampered"


# -- a record from a state alone: its history (app/history.py) -------------------------------

TWO_SEATS = [{"seats": 2, "seed": 42}, {"game": "fora-de-prumo", "seats": 2, "seed": 4}]
TWO_SEAT_IDS = ["architectura-2", "fora-de-prumo-2"]


def without_history(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "history"}


@pytest.mark.parametrize("setup", TWO_SEATS, ids=TWO_SEAT_IDS)
def test_a_finished_game_is_recorded_from_its_last_state_alone(setup: dict[str, Any]) -> None:
    log, final = finished_game(setup, 11)
    eng = engine(setup.get("game", "architectura"))
    history = final["history"]
    assert history["setup"]["seed"] == setup["seed"] and len(history["decisions"]) == len(log)
    r = CLIENT.post("/v1/record", json={"state": final})
    rec = check_response("POST", "/v1/record", r)
    assert r.status_code == 200, rec
    assert set(rec) == {"record", "setup", "decisions"}  # a record from the set-up
    assert rec["record"]["result"] == {
        "game_over": True,
        "decisions": len(log),
        "scores": final["scores"],
    }
    assert rec["record"]["rules_version"] == eng.INFO.rules_version
    assert rec["record"]["catalog"] == final["catalog"]
    assert rec["decisions"] == [eng.decision_notation(d) for d in log]
    # the same record as the one written from the set-up and the decisions the client kept
    kept = CLIENT.post("/v1/record", json={"setup": setup, "decisions": log}).get_json()
    assert rec == kept

    replayed = CLIENT.post("/v1/replay", json=rec)
    body = check_response("POST", "/v1/replay", replayed)
    assert body["ok"] is True and body["applied"] == len(log)
    assert body["state"] == final  # the history too: each decision in one spelling


@pytest.mark.parametrize("setup", TWO_SEATS, ids=TWO_SEAT_IDS)
def test_every_answered_state_carries_its_history(setup: dict[str, Any]) -> None:
    eng = engine(setup.get("game", "architectura"))
    start = CLIENT.post("/v1/games", json=setup).get_json()["state"]
    assert start["history"]["decisions"] == []
    assert start["history"]["setup"]["seed"] == setup["seed"]
    first = start["pending"]["options"][0]
    # a decision sent in notation is kept as the object it reads as (no seat)
    text = eng.decision_notation(first)
    after = CLIENT.post("/v1/resolve", json={"state": start, "decisions": [text]}).get_json()
    canonical = {k: v for k, v in first.items() if k != "seat"}
    assert after["state"]["history"]["decisions"] == [canonical]
    second = after["pending"]["options"][0]
    # a replay from a state with a history extends it, one from a set-up writes it whole
    from_state = CLIENT.post(
        "/v1/replay", json={"state": after["state"], "decisions": [second]}
    ).get_json()
    from_setup = CLIENT.post(
        "/v1/replay", json={"setup": setup, "decisions": [first, second]}
    ).get_json()
    assert from_state["state"] == from_setup["state"]
    assert len(from_setup["state"]["history"]["decisions"]) == 2
    # a replay stopped by an illegal decision keeps only what it applied
    stopped = CLIENT.post(
        "/v1/replay", json={"setup": setup, "decisions": [first, first]}
    ).get_json()
    assert stopped["ok"] is False and stopped["state"]["history"] == after["state"]["history"]
    # the readers take a state with its history as they take one without
    for path in ("/v1/legal-moves", "/v1/score", "/v1/validate"):
        with_it = CLIENT.post(path, json={"state": after["state"]})
        assert with_it.status_code == 200, with_it.get_json()
        assert (
            with_it.get_json()
            == CLIENT.post(path, json={"state": without_history(after["state"])}).get_json()
        )
    assert CLIENT.post("/v1/validate", json={"state": after["state"]}).get_json()["valid"]


@pytest.mark.parametrize("setup", TWO_SEATS, ids=TWO_SEAT_IDS)
def test_no_seat_sees_the_history(setup: dict[str, Any]) -> None:
    """The set-up's seed would reveal every hidden card: views, a bot's suggestion and the
    seat's picture are made from the state without it."""
    start = CLIENT.post("/v1/games", json=setup).get_json()["state"]
    state = CLIENT.post(
        "/v1/resolve", json={"state": start, "decisions": [start["pending"]["options"][0]]}
    ).get_json()["state"]
    seed = str(setup["seed"])
    for seat in (0, 1):
        r = CLIENT.post("/v1/view", json={"state": state, "seat": seat})
        view = check_response("POST", "/v1/view", r)
        assert "history" not in view and "setup" not in str(view)
        assert (
            view
            == CLIENT.post(
                "/v1/view", json={"state": without_history(state), "seat": seat}
            ).get_json()
        )
        picture = CLIENT.post("/v1/render", json={"state": state, "seat": seat})
        assert picture.status_code == 200
        assert picture.data == (
            CLIENT.post("/v1/render", json={"state": without_history(state), "seat": seat}).data
        )
    r = CLIENT.post(
        "/v1/suggest", json={"state": state, "seat": state["pending"]["seat"], "level": "easy"}
    )
    assert r.status_code == 200, r.get_json()
    assert "history" not in r.get_json() and f'"seed": {seed}' not in r.get_data(as_text=True)


def _forge(state: dict[str, Any], change: Any) -> dict[str, Any]:
    forged = copy.deepcopy(state)
    change(forged["history"])
    return forged


FORGERIES = {
    "another_seed": lambda h: h["setup"].update(seed=h["setup"]["seed"] + 1),
    "a_decision_dropped": lambda h: h["decisions"].pop(),
    "two_decisions_swapped": lambda h: h["decisions"].insert(0, h["decisions"].pop(1)),
    "a_decision_added": lambda h: h["decisions"].append(h["decisions"][0]),
    "another_game": lambda h: h["setup"].update(game="fora-de-prumo"),
}


@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_a_forged_history_makes_no_record(forgery: str) -> None:
    _, final = finished_game({"seats": 2, "seed": 42}, 3)
    forged = _forge(final, FORGERIES[forgery])
    r = CLIENT.post("/v1/record", json={"state": forged})
    body = check_response("POST", "/v1/record", r)
    assert r.status_code == 422 and body["code"] == "history_mismatch", body
    assert body["pointer"].startswith("/state/history")


def test_a_forged_state_with_a_true_history_makes_no_record() -> None:
    _, final = finished_game({"game": "fora-de-prumo", "seats": 2, "seed": 4}, 3)
    forged = {**final, "rng": "0123456789abcdef"}  # a consistent state, not this game's
    r = CLIENT.post("/v1/record", json={"state": forged})
    body = check_response("POST", "/v1/record", r)
    assert r.status_code == 422 and body["code"] == "history_mismatch"
    assert "'rng' differs" in body["detail"] and body["pointer"] == "/state/history"
    # an inconsistent one is refused as a state, with its problems
    forged = copy.deepcopy(final)
    forged["scores"]["winners"] = [1 - forged["scores"]["winners"][0]]
    r = CLIENT.post("/v1/record", json={"state": forged})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid_state"


def test_a_state_without_history_is_refused_with_a_way_to_get_one() -> None:
    start = CLIENT.post("/v1/games", json={"seats": 2, "seed": 1}).get_json()["state"]
    position = CLIENT.post("/v1/position", json={"state": start}).get_json()["position"]
    built = CLIENT.post("/v1/position", json={"position": position}).get_json()["state"]
    assert "history" not in built and built["composed"] is True  # nothing replays to it
    r = CLIENT.post("/v1/record", json={"state": without_history(start)})
    body = check_response("POST", "/v1/record", r)
    assert r.status_code == 422 and body["code"] == "no_history"
    assert "/v1/games" in body["detail"] and "`setup` and `decisions`" in body["detail"]
    r = CLIENT.post("/v1/record", json={"state": built})  # says why: it was composed
    body = check_response("POST", "/v1/record", r)
    assert r.status_code == 422 and body["code"] == "no_history"
    assert "composed from a position" in body["detail"]
    assert "`state` and `decisions`" in body["detail"]
    # and a state without one goes on without one
    after = CLIENT.post(
        "/v1/resolve", json={"state": built, "decisions": [built["pending"]["options"][0]]}
    ).get_json()["state"]
    assert "history" not in after


@pytest.mark.parametrize(
    ("history", "code", "pointer"),
    [
        ([], "invalid_history", "/state/history"),
        ({"setup": {}, "decisions": [], "more": 1}, "invalid_history", "/state/history"),
        ({"setup": 7, "decisions": []}, "invalid_history", "/state/history/setup"),
        ({"setup": {}, "decisions": {}}, "invalid_history", "/state/history/decisions"),
        ({"setup": {}, "decisions": [{}] * 6}, "history_too_long", "/state/history/decisions"),
    ],
)
def test_a_malformed_or_overlong_history_is_refused_by_every_reader(
    history: Any, code: str, pointer: str
) -> None:
    client = make_app(MAX_HISTORY=5).test_client()
    state = client.post("/v1/games", json={"seats": 2, "seed": 1}).get_json()["state"]
    for path in ("/v1/legal-moves", "/v1/validate", "/v1/record"):
        r = client.post(path, json={"state": {**state, "history": history}})
        body = check_response("POST", path, r)
        assert r.status_code == 422 and (body["code"], body["pointer"]) == (code, pointer)


@pytest.mark.parametrize(
    ("change", "code", "pointer"),
    [
        (lambda h: h["decisions"].append("blue.villa@1,1"), "invalid_history", "/decisions/1"),
        # a set-up's value is its game's to refuse (422 naming the clause), as in /v1/games
        (lambda h: h["setup"].update(seats=9), "invalid_seat_count", "/setup/seats"),
        (lambda h: h["setup"].update(game=9), "invalid_history", "/setup/game"),
        # a field its type does not have: malformed, before anything replays it (issue 22)
        (
            lambda h: h["decisions"].append({"type": "play", "x": "y" * 10**5}),
            "invalid_history",
            "/decisions/1/x",
        ),
    ],
    ids=["a_string", "a_bad_setup", "a_setup_of_no_game", "an_oversized_decision"],
)
def test_a_history_that_is_not_one_makes_no_record(change: Any, code: str, pointer: str) -> None:
    state = CLIENT.post("/v1/games", json={"seats": 2, "seed": 1}).get_json()["state"]
    state = CLIENT.post(
        "/v1/resolve", json={"state": state, "decisions": [state["pending"]["options"][0]]}
    ).get_json()["state"]
    r = CLIENT.post("/v1/record", json={"state": _forge(state, change)})
    body = check_response("POST", "/v1/record", r)
    assert r.status_code == 422 and body["code"] == (code or "history_mismatch"), body
    assert body["pointer"] == "/state/history" + pointer
    assert len(r.data) < 4096  # an oversized decision is not echoed back


def test_a_game_longer_than_a_record_goes_on_without_history() -> None:
    """Beyond MAX_HISTORY decisions (here 3)."""
    client = make_app(MAX_HISTORY=3).test_client()
    state = client.post("/v1/games", json={"seats": 2, "seed": 42}).get_json()["state"]
    lengths = []
    for _ in range(4):
        out = client.post(
            "/v1/resolve", json={"state": state, "decisions": [state["pending"]["options"][0]]}
        )
        state = out.get_json()["state"]
        lengths.append(len(state["history"]["decisions"]) if "history" in state else None)
    assert lengths == [1, 2, 3, None]
    refused = client.post("/v1/record", json={"state": state}).get_json()
    # says why this game, started with /v1/games, has none (it said only such games have one)
    assert refused["code"] == "no_history" and "for its first 3 decisions" in refused["detail"]


def test_the_longest_games_keep_their_record() -> None:
    """F-8.3: four seats that pass whenever a pass does not end the game, with a custom
    catalog of 500 cards (F-2.8's most), play 8,551 decisions. Was: past MAX_DECISIONS (2,000)
    the game went on without a history and could never be recorded (422 `no_history`), and
    its decisions could not be replayed in one request (400). A history now holds MAX_HISTORY
    decisions, more than any set-up allows (engine/fora_de_prumo/flow.py `longest_game`)."""
    doc = big_catalog(500)
    setup = {"game": "fora-de-prumo", "seats": 4, "seed": 3, "catalog": doc}
    decisions = stalling_game(setup)
    assert len(decisions) > 4 * DEFAULT_MAX_DECISIONS
    half = len(decisions) // 2
    out = CLIENT.post("/v1/replay", json={"setup": setup, "decisions": decisions[:half]})
    state = check_response("POST", "/v1/replay", out)["state"]
    # played on with /v1/resolve (at most MAX_DECISIONS a request): the history follows
    for start in range(half, len(decisions), DEFAULT_MAX_DECISIONS):
        batch = decisions[start : start + DEFAULT_MAX_DECISIONS]
        body = {"state": state, "decisions": batch, "catalog": doc}
        r = CLIENT.post("/v1/resolve", json=body)
        state = check_response("POST", "/v1/resolve", r)["state"]
    assert state["game_over"] and len(state["history"]["decisions"]) == len(decisions)
    r = CLIENT.post("/v1/record", json={"state": state, "catalog": doc})
    rec = check_response("POST", "/v1/record", r)
    assert r.status_code == 200 and len(rec["decisions"]) == len(decisions)
    replayed = CLIENT.post("/v1/replay", json=rec).get_json()
    assert replayed["ok"] is True and replayed["state"] == state
    assert len(orjson.dumps({"state": state, "catalog": doc})) < DEFAULT_MAX_BODY_BYTES / 2


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_a_game_set_up_with_the_reference_document_is_recorded_from_its_state(game: str) -> None:
    """The reference catalog's document sent as a custom catalog is the reference catalog
    (the same id and hash): its history names it by id, and its record needs no document.
    Was: 422 `unknown_catalog`, "send it as `catalog` with the state"."""
    doc = engine(game).builtin_catalogs()["reference"].to_json()
    setup = {"game": game, "seats": 2, "seed": 5}
    state = CLIENT.post("/v1/games", json={**setup, "catalog": doc}).get_json()["state"]
    assert state["history"]["setup"]["catalog"] == "reference"
    r = CLIENT.post("/v1/record", json={"state": state})
    rec = check_response("POST", "/v1/record", r)
    plain = CLIENT.post("/v1/games", json=setup).get_json()["state"]
    assert plain == state  # the same game as one set up by the catalog's id, and its record
    assert (
        r.status_code == 200 and rec == CLIENT.post("/v1/record", json={"state": plain}).get_json()
    )


def test_a_custom_catalog_game_is_recorded_with_its_catalog() -> None:
    doc = engine("architectura").builtin_catalogs()["reference"].to_json()
    doc = {**copy.deepcopy(doc), "id": "house", "name": "House rules catalog"}
    doc["cards"][0]["values"] = [1, 2, 3, 6]  # a different Well: a different hash
    setup = {"seats": 2, "seed": 6, "catalog": doc}
    state = CLIENT.post("/v1/games", json=setup).get_json()["state"]
    # the history names the catalog, as the state does, rather than carry the document
    assert state["history"]["setup"]["catalog"] == state["catalog"]
    rng = random.Random(2)
    while not state["game_over"]:
        option = rng.choice(state["pending"]["options"])
        body = {"state": state, "decisions": [option], "catalog": doc}
        state = CLIENT.post("/v1/resolve", json=body).get_json()["state"]
    r = CLIENT.post("/v1/record", json={"state": state})
    problem = check_response("POST", "/v1/record", r)
    assert r.status_code == 422 and problem["code"] == "unknown_catalog"
    assert "catalog" in problem["detail"] and problem["pointer"] == "/catalog"
    r = CLIENT.post("/v1/record", json={"state": state, "catalog": doc})
    rec = check_response("POST", "/v1/record", r)
    assert r.status_code == 200, rec
    assert rec["setup"]["catalog"] == doc and rec["record"]["catalog"] == state["catalog"]
    replayed = CLIENT.post("/v1/replay", json=rec).get_json()
    assert replayed["ok"] is True and replayed["state"] == state
    other = {**doc, "cards": [{**doc["cards"][0], "values": [1, 2, 3, 7]}, *doc["cards"][1:]]}
    r = CLIENT.post("/v1/record", json={"state": state, "catalog": other})
    problem = check_response("POST", "/v1/record", r)  # not the state's catalog: as anywhere
    assert r.status_code == 422 and problem["code"] == "invalid_state", problem
    assert [p["pointer"] for p in problem["problems"]] == ["/state/catalog"]


@pytest.mark.parametrize(
    "secret", [None, "test-secret-0123456789abcdefghijk"], ids=["plain", "sealed"]
)
def test_a_catalog_the_history_cannot_replay_is_said_to_be_the_wrong_one(secret: Any) -> None:
    """Fora de Prumo with one card more (PE10): sent the reference cards under the same id,
    the history's replay fails. It was blamed on the history, "changed after the service
    issued it", even under a seal that proves it was not; now the catalog is named."""
    doc = two_engineers_catalog()
    wrong = {**copy.deepcopy(doc), "cards": doc["cards"][:-1]}  # the same id, no PE10
    client = make_app(**({"STATE_SECRET": secret} if secret else {})).test_client()
    setup = {"game": "fora-de-prumo", "seats": 2, "seed": 3, "catalog": doc}
    state = client.post("/v1/games", json=setup).get_json()["state"]
    rng = random.Random(4)
    for _ in range(30):
        option = rng.choice(state["pending"]["options"])
        body = {"state": state, "decisions": [option], "catalog": doc}
        state = client.post("/v1/resolve", json=body).get_json()["state"]
    assert check_response(
        "POST", "/v1/record", client.post("/v1/record", json={"state": state, "catalog": doc})
    )["decisions"]
    r = client.post("/v1/record", json={"state": state, "catalog": wrong})
    problem = check_response("POST", "/v1/record", r)
    assert r.status_code == 422 and problem["code"] == "invalid_state", problem
    assert [p["pointer"] for p in problem["problems"]] == ["/state/catalog"], problem


@pytest.mark.parametrize("encrypt", [False, True], ids=["sealed", "encrypted"])
def test_a_sealed_state_is_recorded_from_its_history(
    redis_server: RedisServer, encrypt: bool
) -> None:
    guarded = {"STATE_ANTI_ROLLBACK": True, "REDIS_URL": redis_server.url} if encrypt else {}
    client = make_app(
        STATE_SECRET="test-secret-0123456789abcdefghijk", STATE_ENCRYPT=encrypt, **guarded
    ).test_client()
    setup = {"game": "fora-de-prumo", "seats": 2, "seed": 8}
    state = client.post("/v1/games", json=setup).get_json()["state"]
    assert ("history" not in state) if encrypt else ("history" in state)  # hidden when encrypted
    rng = random.Random(5)
    played, over = 0, False
    while not over and (encrypt or played < 12):
        options = client.post("/v1/legal-moves", json={"state": state}).get_json()["options"]
        out = client.post("/v1/resolve", json={"state": state, "decisions": [rng.choice(options)]})
        state, over, played = out.get_json()["state"], out.get_json()["game_over"], played + 1
        if encrypt and played == 12:  # running: its record would name the seed (issue 22)
            r = client.post("/v1/record", json={"state": state})
            refused = check_response("POST", "/v1/record", r)
            assert r.status_code == 403 and refused["code"] == "encrypted_running_game"
    r = client.post("/v1/record", json={"state": state})
    rec = check_response("POST", "/v1/record", r)
    assert r.status_code == 200 and rec["record"]["result"]["decisions"] == played, rec
    assert rec["setup"] == {**setup, "catalog": "reference"}  # the seed and all
    replayed = client.post("/v1/replay", json=rec).get_json()
    assert replayed["ok"] is True and replayed["applied"] == played
    view = client.post("/v1/view", json={"state": replayed["state"], "seat": 0}).get_json()
    mine = client.post("/v1/view", json={"state": state, "seat": 0}).get_json()
    assert view == mine  # the same position


@pytest.mark.parametrize(
    ("extra", "pointer"),
    [
        ({"record": {"format": "referee-record/1"}}, "/record"),
        ({"notation": True}, "/notation"),
    ],
)
def test_a_record_from_a_state_alone_takes_only_the_state_and_its_catalog(
    extra: dict[str, Any], pointer: str
) -> None:
    """A record header (or `notation`) belongs to a replay request: beside a state alone it
    would be ignored, so it is refused (the contract allows only `state` and `catalog`)."""
    state = CLIENT.post("/v1/games", json={"seats": 2, "seed": 1}).get_json()["state"]
    r = CLIENT.post("/v1/record", json={"state": state, **extra})
    body = check_response("POST", "/v1/record", r)
    assert r.status_code == 400 and body["code"] == "invalid_request"
    assert body["pointer"] == pointer


@pytest.mark.parametrize("path", ["/v1/replay", "/v1/record"])
@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_a_catalog_beside_a_set_up_is_refused_not_ignored(path: str, game: str) -> None:
    """A set-up reads only its own catalog (setup.catalog): a `catalog` beside it was silently
    ignored, and /v1/record echoed it unread into the record (found by schemathesis: a
    Fora de Prumo catalog with a null card phase beside an Architectura set-up, answered 200).
    It is a 400 pointing at /catalog that says where the catalog goes; inside the set-up the
    same document is read."""
    doc = engine(game).builtin_catalogs()["reference"].to_json()
    setup = {"game": game, "seats": 2, "seed": 5}
    r = CLIENT.post(path, json={"setup": setup, "decisions": [], "catalog": doc})
    body = check_response("POST", path, r)
    assert r.status_code == 400 and body["code"] == "invalid_request", body
    assert body["pointer"] == "/catalog" and "setup.catalog" in body["detail"]
    r = CLIENT.post(
        path,
        json={"setup": setup, "decisions": [], "catalog": doc},
        headers={"Accept-Language": "pt"},
    )
    assert "setup.catalog" in r.get_json()["detail"] and "catálogo" in r.get_json()["detail"]
    r = CLIENT.post(path, json={"setup": {**setup, "catalog": doc}, "decisions": []})
    assert r.status_code == 200, r.get_json()


@pytest.mark.parametrize(
    ("catalog", "status"),
    [("fora-de-prumo", 422), ("junk", 422), ("architectura", 200)],
)
def test_a_catalog_beside_a_state_alone_is_read_as_every_endpoint_reads_it(
    catalog: str, status: int
) -> None:
    """A record from a state of the reference catalog with a `catalog` beside it: ignored
    until now (200 whatever it was); read as /v1/legal-moves reads it, a catalog that is not
    the state's is a 422 invalid_catalog, the state's own one is accepted."""
    state = CLIENT.post("/v1/games", json={"seats": 2, "seed": 1}).get_json()["state"]
    doc = {"junk": 1} if catalog == "junk" else engine(catalog).builtin_catalogs()["reference"]
    body = {"state": state, "catalog": doc if catalog == "junk" else doc.to_json()}
    r = CLIENT.post("/v1/record", json=body)
    problem = check_response("POST", "/v1/record", r)
    legal = CLIENT.post("/v1/legal-moves", json=body)
    assert r.status_code == legal.status_code == status, problem
    if status == 422:
        assert problem["code"] == legal.get_json()["code"] == "invalid_catalog"
        assert problem["pointer"].startswith("/catalog")


def test_a_forged_history_is_refused_in_the_client_language_through_and_through() -> None:
    """The engine's reason why a decision of the history is illegal is translated with the
    sentence that quotes it (the whole detail, not its frame alone)."""
    state = CLIENT.post("/v1/games", json={"seats": 2, "seed": 1}).get_json()["state"]
    state = CLIENT.post(
        "/v1/resolve", json={"state": state, "decisions": [state["pending"]["options"][0]]}
    ).get_json()["state"]
    forged = _forge(state, FORGERIES["another_seed"])
    r = CLIENT.post("/v1/record", json={"state": forged}, headers={"Accept-Language": "pt"})
    body = check_response("POST", "/v1/record", r)
    assert r.status_code == 422 and body["code"] == "history_mismatch"
    assert "histórico" in body["detail"] and "não está na sua mão" in body["detail"], body
    assert "is not in your hand" not in body["detail"]


def test_a_bad_set_up_in_a_history_names_its_field() -> None:
    """A history whose set-up the set-up schema refuses (its `game` is no game: a set-up's
    other values are its engine's, tests/http/test_setup_values.py) points at the field, lists its
    problems, and says so in a sentence (no Python repr of marshmallow's messages), in the
    client's language too."""
    state = CLIENT.post("/v1/games", json={"seats": 2, "seed": 1}).get_json()["state"]
    forged = _forge(state, lambda h: h["setup"].update(seats="two", game="chess"))
    r = CLIENT.post("/v1/record", json={"state": forged})
    body = check_response("POST", "/v1/record", r)
    assert r.status_code == 422 and body["code"] == "invalid_history"
    assert body["pointer"] == "/state/history/setup/game"
    assert {p["pointer"] for p in body["problems"]} == {"/state/history/setup/game"}
    assert "{" not in body["detail"] and "[" not in body["detail"], body["detail"]
    pt = CLIENT.post("/v1/record", json={"state": forged}, headers={"Accept-Language": "pt"})
    assert "Must be one of" not in pt.get_json()["detail"], pt.get_json()["detail"]
