"""POST /v1/record: a finished game written down as a versioned record that /v1/replay
accepts unchanged (ok: true, the same final state); a record whose header does not match its
replay (rules version, catalog, result) is refused, as is a log with an illegal decision."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from http_support import check_response, make_app

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
    assert header["format"] == "referee-record/1" and header["game"] == eng.GAME_ID
    assert header["rules_version"] == eng.RULES_VERSION == final["rules_version"]
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


@pytest.mark.parametrize("encrypt", [False, True], ids=["sealed", "encrypted"])
def test_a_record_from_a_sealed_state_carries_it_as_sent(encrypt: bool) -> None:
    client = make_app(STATE_SECRET="s" * 32, STATE_ENCRYPT=encrypt).test_client()
    state = client.post("/v1/games", json={"seats": 2, "seed": 8}).get_json()["state"]
    assert ("seats" not in state) if encrypt else ("seal" in state)  # encrypted, or sealed
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
    forged = {**rec, "state": {**state, "rng": "0" * 16}} if not encrypt else None
    if forged is not None:  # a changed start is refused by its seal, record or not
        assert client.post("/v1/replay", json=forged).get_json()["code"] == "state_tampered"
