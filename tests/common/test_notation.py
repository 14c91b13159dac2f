"""Decision notation (engine/<game>/notation.py): every legal option of real games is written
and read back to the same decision; strings are accepted wherever a decision object is
(/v1/resolve, /v1/replay) with the same outcome; events name their decision on request;
malformed notation is a 422 `invalid_notation` naming the decision."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest
from http_support import check_response, make_app

from engine.games import GameModule, engine

CLIENT = make_app().test_client()

SETUPS: list[dict[str, Any]] = [
    {"seats": 2, "seed": 3},
    {"seats": 3, "seed": 11, "variant": "advanced"},
    {"seats": 4, "seed": 5, "variant": "advanced"},
    {"game": "fora-de-prumo", "seats": 2, "seed": 3},
    {"game": "fora-de-prumo", "seats": 4, "seed": 8},
]


def play(setup: dict[str, Any], seed: int) -> tuple[GameModule, list[list[dict[str, Any]]]]:
    """A complete game of seeded random choices: the options offered at every step."""
    eng = engine(setup.get("game", "architectura"))
    rng = random.Random(seed)
    state = eng.new_game(setup)
    offered: list[list[dict[str, Any]]] = []
    while not state["game_over"]:
        options = eng.legal_decisions(state)["options"]
        offered.append(options)
        state, _ = eng.apply_all(state, [rng.choice(options)])
    return eng, offered


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s.get('game', 'arch')}-{s['seats']}")
def test_every_option_of_a_game_round_trips(setup: dict[str, Any]) -> None:
    eng, offered = play(setup, 1)
    kinds = set()
    for options in offered:
        written = [eng.decision_notation(o) for o in options]
        assert None not in written
        assert len(set(written)) == len(options), "two options share a notation"
        for o, text in zip(options, written, strict=True):
            assert text is not None
            back = eng.decision_from_notation(text)
            assert back == {k: v for k, v in o.items() if k != "seat"}, text
            assert " " not in text and len(text) < 40
            kinds.add(o["type"])
    assert len(kinds) >= 3


def test_architectura_names_never_read_as_a_decision_word() -> None:
    """A Fora de Prumo card id that the notation writes alone (`pass`) is refused by its
    catalog (audit F1: the lay was read back as a pass). Architectura needs no such rule: a
    card is named `colour.id` and neither part may hold a `.`, so no name is a decision word,
    even when its colour and its id are ones (every option still reads back to itself)."""
    eng = engine("architectura")
    doc = eng.builtin_catalogs()["reference"].to_json()
    words = {"palace": "pass", "villa": "decline", "well": "mulligan", "park": "apply"}
    text = orjson.dumps({**doc, "id": "words", "colours": list(words.values())}).decode()
    for card, word in words.items():
        text = text.replace(f'"{card}"', f'"{word}"')
    g = eng.new_game_internal(
        {"seats": 4, "seed": 2, "variant": "advanced", "catalog": orjson.loads(text)}
    )
    rnd, written = random.Random(1), set()
    while not g.over:
        options = eng.legal_actions(g)
        for a in options:
            d = eng.action_to_json(g, eng.current_player(g), a)
            notation = eng.decision_notation(d)
            assert notation is not None
            assert eng.decision_from_notation(notation) == {
                k: v for k, v in d.items() if k != "seat"
            }
            written.add(notation)
        eng.apply_action(g, options[rnd.randrange(len(options))])
    assert any(w.startswith(("pass.pass@", "decline.decline@")) for w in written)


# per game: a malformed text, and what the refusal says about it
MALFORMED = {
    "architectura": [
        ("blue.palace", "needs its cell"),
        ("blue.palace@0x,1", "does not read"),
        ("rotate:green.villa", "needs its steps"),
        ("rotate:green.villa/1", "does not read"),
        ("fountain:blue.x@1,1", "has no card"),
        ("destroy:red.park@1,1", "has no cell"),
        ("fly:blue.palace@1,1", "unknown decision type"),
        ("x" * 300, "longer than"),
        ("", "needs its card"),
        # one spelling of a number, one of a decision: these were read and rewritten
        ("blue.palace@01,2", "does not read"),
        ("rotate:green.villa/+01", "does not read"),
        ("blue.palace@1,2\n", "does not read"),
    ],
    "fora-de-prumo": [
        ("buy:", "buy:CARD"),
        ("buy:PR01/deck", "has no source"),
        ("SP09@0,0r4", "CARD@x,yrR"),
        ("convert:PE03", "convert:CARD>TARGET"),
        ("build:SP09", "unknown decision type"),
        ("SP09@0,0r0 ", "CARD@x,yrR"),
        ("SP09@00,0r0", "CARD@x,yrR"),
        ("SP09@-0,0r0", "CARD@x,yrR"),
        ("SP09@0,0r0\n", "CARD@x,yrR"),
    ],
}


@pytest.mark.parametrize(
    ("game", "text", "why"), [(game, *row) for game, rows in MALFORMED.items() for row in rows]
)
def test_malformed_notation_is_refused_with_a_reason(game: str, text: str, why: str) -> None:
    from engine.errors import IllegalDecision

    with pytest.raises(IllegalDecision) as e:
        engine(game).decision_from_notation(text, "/decisions/3")
    assert e.value.code == "invalid_notation"
    assert why in e.value.detail
    assert e.value.pointer == "/decisions/3" and e.value.clause


def _new(setup: dict[str, Any]) -> dict[str, Any]:
    r = CLIENT.post("/v1/games", json=setup)
    assert r.status_code == 200
    state: dict[str, Any] = r.get_json()["state"]
    return state


@pytest.mark.parametrize("setup", [SETUPS[0], SETUPS[3]], ids=["architectura", "fora-de-prumo"])
def test_resolve_takes_notation_like_objects(setup: dict[str, Any]) -> None:
    eng = engine(setup.get("game", "architectura"))
    state = _new(setup)
    objects, texts = [], []
    s = state
    for _ in range(4):  # a few decisions, then the same batch as strings
        option = s["pending"]["options"][-1]
        objects.append(option)
        texts.append(eng.decision_notation(option))
        s = CLIENT.post("/v1/resolve", json={"state": s, "decisions": [option]}).get_json()["state"]
    as_objects = CLIENT.post("/v1/resolve", json={"state": state, "decisions": objects})
    as_texts = CLIENT.post("/v1/resolve", json={"state": state, "decisions": texts})
    mixed = CLIENT.post("/v1/resolve", json={"state": state, "decisions": [texts[0], *objects[1:]]})
    assert as_texts.status_code == 200
    assert as_texts.get_json() == as_objects.get_json() == mixed.get_json()
    check_response("POST", "/v1/resolve", as_texts)


@pytest.mark.parametrize("setup", [SETUPS[0], SETUPS[3]], ids=["architectura", "fora-de-prumo"])
def test_events_name_their_decision_on_request(setup: dict[str, Any]) -> None:
    eng = engine(setup.get("game", "architectura"))
    state = _new(setup)
    option = state["pending"]["options"][0]
    plain = CLIENT.post("/v1/resolve", json={"state": state, "decisions": [option]}).get_json()
    assert all("notation" not in ev for ev in plain["events"])
    r = CLIENT.post("/v1/resolve", json={"state": state, "decisions": [option], "notation": True})
    body = check_response("POST", "/v1/resolve", r)
    assert body["events"]
    for ev in body["events"]:
        assert ev["notation"] == eng.decision_notation(option)
        assert {k: v for k, v in ev.items() if k != "notation"} in plain["events"]


def test_a_bad_string_in_a_batch_is_a_422_naming_it() -> None:
    state = _new(SETUPS[0])
    first = engine("architectura").decision_notation(state["pending"]["options"][0])
    r = CLIENT.post("/v1/resolve", json={"state": state, "decisions": [first, "blue.nowhere@@"]})
    body = check_response("POST", "/v1/resolve", r)
    assert r.status_code == 422
    assert body["code"] == "invalid_notation" and body["index"] == 1
    assert body["pointer"] == "/decisions/1" and body["clause"] == "A-3"
    assert "blue.nowhere@@" in body["detail"]


def test_a_readable_string_that_breaks_a_rule_is_that_rule() -> None:
    state = _new(SETUPS[0])
    r = CLIENT.post("/v1/resolve", json={"state": state, "decisions": ["blue.palace@1,5"]})
    body = check_response("POST", "/v1/resolve", r)
    assert r.status_code == 422 and body["index"] == 0
    assert body["code"] in ("card_not_in_hand", "cell_not_eligible")
    assert body["pointer"].startswith("/decisions/0/")


@pytest.mark.parametrize("bad", [17, None, [], "", "x" * 201, True])
def test_a_decision_neither_object_nor_string_is_a_400(bad: Any) -> None:
    state = _new(SETUPS[0])
    r = CLIENT.post("/v1/resolve", json={"state": state, "decisions": [bad]})
    body = check_response("POST", "/v1/resolve", r)
    assert r.status_code == 400 and body["code"] == "invalid_request"


def test_replay_stops_at_an_unreadable_string_as_at_an_illegal_decision() -> None:
    eng = engine("architectura")
    setup = SETUPS[0]
    state = _new(setup)
    log: list[Any] = []
    s = state
    for _ in range(3):
        option = s["pending"]["options"][0]
        log.append(eng.decision_notation(option))
        s = CLIENT.post("/v1/resolve", json={"state": s, "decisions": [option]}).get_json()["state"]
    r = CLIENT.post("/v1/replay", json={"setup": setup, "decisions": [*log, "nonsense!", log[0]]})
    body = check_response("POST", "/v1/replay", r)
    assert body["ok"] is False and body["applied"] == 3
    assert body["error"]["code"] == "invalid_notation" and body["error"]["index"] == 3
    assert body["state"]["turn"] == s["turn"] and body["state"]["seats"] == s["seats"]
    # an illegal decision before the unreadable one is the one reported
    r = CLIENT.post("/v1/replay", json={"setup": setup, "decisions": ["mulligan", "pass", "?"]})
    body = check_response("POST", "/v1/replay", r)
    assert body["ok"] is False and body["error"]["code"] != "invalid_notation"
