"""Fora de Prumo over HTTP: every endpoint through Flask's test client with real states, each
response checked against openapi.yaml (documented status, media type, body schema); illegal
decisions and forged states refused as 422 problems naming the clause and the pointer."""

from __future__ import annotations

import copy
import random
from functools import cache
from typing import Any

import pytest
from fdp_support import arrange, fresh
from http_support import check_response, schema_errors

import engine.architectura as arch
import engine.fora_de_prumo as fdp

State = dict[str, Any]
GAME = "fora-de-prumo"


def call(client: Any, path: str, body: Any) -> tuple[int, Any]:
    """POST `body`; the answer must be what openapi.yaml documents for the operation."""
    r = client.post(path, json=body)
    return r.status_code, check_response("POST", path, r)


def play(state: State, decisions: int, seed: int) -> tuple[State, list[dict[str, Any]]]:
    """Up to `decisions` random listed options, applied by the engine; (state, log)."""
    rnd = random.Random(seed)
    log: list[dict[str, Any]] = []
    for _ in range(decisions):
        if state["game_over"]:
            break
        d = rnd.choice(state["pending"]["options"])
        state, _ = fdp.apply(state, d)
        log.append(d)
    return state, log


@cache
def _finished(seats: int, seed: int) -> tuple[State, list[dict[str, Any]], dict[str, Any]]:
    setup = {"game": GAME, "seats": seats, "seed": seed}
    state, log = play(fdp.new_game(setup), 10_000, seed)
    assert state["game_over"]
    return state, log, setup


def finished(seats: int = 2, seed: int = 5) -> tuple[State, list[dict[str, Any]], dict[str, Any]]:
    """A whole random game: (final state, decision log, set-up); a fresh copy each call."""
    return copy.deepcopy(_finished(seats, seed))


def ability(name: str) -> str:
    cat = fdp.builtin_catalogs()["reference"]
    return next(c.id for c in cat.cards.values() if c.ability == name)


def first_of(state: State, **fields: Any) -> dict[str, Any]:
    """The first listed option with these fields."""
    return next(
        o for o in state["pending"]["options"] if all(o.get(k) == v for k, v in fields.items())
    )


def listed(state: State, **fields: Any) -> State:
    """Apply the first listed option with these fields."""
    return fdp.apply(state, first_of(state, **fields))[0]


# -- /v1/games ------------------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "market_size"), [(2, 4), (3, 5), (4, 6)])
def test_new_game_for_each_seat_count_and_market(client: Any, seats: int, market_size: int) -> None:
    setup = {"game": GAME, "seats": seats, "seed": 11, "market_size": market_size}
    setup["first_seat"] = seats - 1
    status, body = call(client, "/v1/games", setup)
    assert status == 200
    state = body["state"]
    assert state.pop("history") == {"setup": {**setup, "catalog": "reference"}, "decisions": []}
    assert state == fdp.new_game(setup)
    assert state["game"] == GAME and len(state["seats"]) == seats
    assert len(state["market"]) == market_size  # F-1.7
    assert state["pending"]["seat"] == seats - 1 and state["pending"]["kind"] == "buy"


def test_new_game_defaults(client: Any) -> None:
    status, body = call(client, "/v1/games", {"game": GAME, "seats": 2, "seed": 3})
    assert status == 200
    state = body["state"]
    assert state["market_size"] == 5 and state["first_seat"] == 0
    assert state["catalog"]["id"] == "reference"


@pytest.mark.parametrize(
    ("extra", "code", "clause", "pointer"),
    [
        ({"seats": 5}, "invalid_seat_count", "F-1.1", "/seats"),
        ({"market_size": 7}, "invalid_market_size", "F-1.7", "/market_size"),
        ({"first_seat": 2}, "invalid_first_seat", "F-R5", "/first_seat"),
        ({"colours": ["red", "blue"]}, "unknown_field", "F-1", "/colours"),
        ({"catalog": "nope"}, "unknown_catalog", "F-2.1", "/catalog"),
    ],
)
def test_new_game_refusals_name_clause_and_pointer(
    client: Any, extra: dict[str, Any], code: str, clause: str, pointer: str
) -> None:
    status, problem = call(client, "/v1/games", {"game": GAME, "seats": 2, "seed": 1, **extra})
    assert (status, problem["code"], problem["clause"], problem["pointer"]) == (
        422,
        code,
        clause,
        pointer,
    )


def test_new_game_envelope_errors_are_400(client: Any) -> None:
    """Only `game` is the envelope's: the number of seats is the game's (F-1.1), as
    Architectura's is (A-1.1), whatever the number (tests/http/test_setup_values.py)."""
    status, problem = call(client, "/v1/games", {"game": GAME, "seats": 17, "seed": 1})
    assert (status, problem["code"], problem["clause"], problem["pointer"]) == (
        422,
        "invalid_seat_count",
        "F-1.1",
        "/seats",
    )
    status, problem = call(client, "/v1/games", {"game": "chess", "seats": 2, "seed": 1})
    assert (status, problem["pointer"]) == (400, "/game")


# -- /v1/legal-moves and /v1/resolve ----------------------------------------------------------


def test_every_listed_option_resolves(client: Any) -> None:
    state, _ = play(fresh(3, 4), 13, 4)  # seat 0's second lay step: spaces, site cards, pass
    assert state["pending"]["kind"] == "lay"
    status, moves = call(client, "/v1/legal-moves", {"state": state})
    assert status == 200
    assert moves == fdp.legal_decisions(state)
    assert moves["pending"]["options"] == moves["options"] and moves["game_over"] is False
    assert {o["type"] for o in moves["options"]} >= {"lay", "pass"}
    for option in moves["options"]:
        status, out = call(client, "/v1/resolve", {"state": state, "decisions": [option]})
        assert status == 200, out
        assert out["events"] and all(e["decision"] == 0 for e in out["events"])
        assert out["pending"] == out["state"]["pending"]
        assert out["state"] == fdp.apply(state, option)[0]


def test_resolve_batch_equals_one_by_one(client: Any) -> None:
    start = fresh(4, 21)
    end, log = play(start, 30, 21)
    status, out = call(client, "/v1/resolve", {"state": start, "decisions": log})
    assert status == 200 and out["state"] == end
    assert out["events"][-1]["decision"] == len(log) - 1
    assert {e["decision"] for e in out["events"]} == set(range(len(log)))


EVENT_TYPES = {
    "bought",
    "looked",
    "skipped",
    "laid",
    "converted",
    "cloned",
    "passed",
    "refilled",
    "end_triggered",
    "final_round",
    "game_over",
}


def test_whole_games_in_one_batch_give_every_event_and_the_scores(client: Any) -> None:
    """2, 3 and 4 seats: each whole game resolved in one request, its full event log and a seat's
    copy checked against the document; together they hold every event type."""
    seen: set[str] = set()
    for seats in (2, 3, 4):
        final, log, setup = finished(seats, 40 + seats)
        body = {"state": fdp.new_game(setup), "decisions": log}
        status, out = call(client, "/v1/resolve", body)
        assert status == 200
        assert out["state"] == final and out["game_over"] is True and out["pending"] is None
        assert out["scores"] == final["scores"] == out["state"]["scores"]
        kinds = [e["type"] for e in out["events"]]
        assert kinds[-1] == "game_over" and "end_triggered" in kinds and "final_round" in kinds
        seen.update(kinds)
        status, theirs = call(client, "/v1/resolve", {**body, "events_for": 1})
        assert status == 200 and len(theirs["events"]) == len(out["events"])
        assert call(client, "/v1/legal-moves", {"state": out["state"]})[1] == {
            "pending": None,
            "options": [],
            "game_over": True,
        }
    assert seen == EVENT_TYPES


def coordenadora_and_teorica() -> tuple[State, str, str]:
    """Seat 0 with the coordenadora and the teórica in its site and a concept to clone onto,
    reached through listed options only; returns (state at seat 0's buy step, concept, card
    to clone)."""
    coord, teorica = ability("coordenadora"), ability("teorica")
    s = fresh(2, 9)
    hand = s["seats"][0]["hand"]
    concept = next(c for c in hand if c.startswith("CO"))
    spare = next(c for c in hand if c not in (concept,) and not c.startswith("SP"))
    s = arrange(s, hands={0: [coord, teorica, concept, spare]})
    for card in (coord, teorica, concept):
        s = listed(s, type="skip")
        s = listed(s, type="lay", card=card)
        s = listed(s, type="skip")
        s = listed(s, type="pass")
    assert s["seats"][0]["work"]["site"] == [coord, teorica, concept]
    return s, concept, spare


def test_look_buy_from_deck_and_clone_events_per_seat(client: Any) -> None:
    """F-6.1/F-R19 and F-6.6 over HTTP: the looker's copy of the events has the seen cards,
    the card bought from the deck and the clone card; the other seat's copy withholds them."""
    s, concept, spare = coordenadora_and_teorica()
    top = s["deck"][:2]
    turn = [
        first_of(s, type="look"),
        {"seat": 0, "type": "buy", "card": top[1]},
        {"seat": 0, "type": "clone", "card": spare, "target": concept},
    ]
    full = call(client, "/v1/resolve", {"state": s, "decisions": turn})[1]
    mine = call(client, "/v1/resolve", {"state": s, "decisions": turn, "events_for": 0})[1]
    theirs = call(client, "/v1/resolve", {"state": s, "decisions": turn, "events_for": 1})[1]
    assert full["state"] == mine["state"] == theirs["state"]
    assert full["state"]["seats"][0]["work"]["clones"] == [{"target": concept, "card": spare}]
    assert mine["events"] == full["events"]
    by_type = {e["type"]: e for e in full["events"]}
    assert by_type["looked"]["cards"] == top and by_type["bought"]["from"] == "deck"
    hidden = {e["type"]: e for e in theirs["events"]}
    assert "cards" not in hidden["looked"] and hidden["looked"]["hidden"] == "cards"
    assert hidden["looked"]["count"] == 2
    assert "card" not in hidden["bought"] and hidden["bought"]["hidden"] == "card"
    assert "card" not in hidden["cloned"] and hidden["cloned"]["target"] == concept


def test_events_for_a_seat_beyond_the_game(client: Any) -> None:
    state = fresh(2, 1)
    status, problem = call(
        client, "/v1/resolve", {"state": state, "decisions": [{"type": "skip"}], "events_for": 3}
    )
    assert (status, problem["code"], problem["pointer"]) == (422, "unknown_seat", "/events_for")
    assert problem["clause"] == "F-1.1", (
        "events_for out of range must name the game's own seat clause (SEATS_CLAUSE), "
        f"not Architectura's A-1.1; got {problem['clause']}"
    )


# -- illegal decisions: 422, nothing applied, the clause and the pointer ------------------------


def with_space_at_origin() -> tuple[State, str]:
    """Seat 0 to buy, a space at the origin of its building and another space in its hand."""
    s = fresh(2, 7)
    space = next(c for c in s["seats"][0]["hand"] if c.startswith("SP"))
    other = next(c for c in s["market"] if c.startswith("SP"))
    s = listed(s, type="buy", card=other)
    s = listed(s, type="lay", card=space, x=0, y=0)
    s = listed(s, type="skip")
    s = listed(s, type="pass")
    return s, other


def final_turn() -> State:
    rnd = random.Random(3)
    state = fresh(2, 3)
    while state["pending"]["kind"] != "final":
        state = fdp.apply(state, rnd.choice(state["pending"]["options"]))[0]
    return state


SKIP = {"type": "skip"}


def illegal_cases() -> list[tuple[str, State, list[dict[str, Any]], str, str, str]]:
    s0 = fresh(2, 7)
    market, hand = s0["market"], s0["seats"][0]["hand"]
    space = next(c for c in hand if c.startswith("SP"))
    built, other = with_space_at_origin()
    final = final_turn()
    seat = final["pending"]["seat"]
    over, _, _ = finished(2, 5)
    return [
        ("another_seat", s0, [{"seat": 1, "type": "skip"}], "not_your_decision", "F-3", "/0/seat"),
        (
            "buy_twice",
            s0,
            [{"type": "buy", "card": market[0]}, {"type": "buy", "card": market[1]}],
            "already_bought",
            "F-R7",
            "/1/type",
        ),
        (
            "not_in_hand",
            s0,
            [SKIP, {"type": "lay", "card": market[0]}],
            "card_not_in_hand",
            "F-3.3",
            "/1/card",
        ),
        (
            "first_space_off_origin",
            s0,
            [SKIP, {"type": "lay", "card": space, "x": 1, "y": 0, "r": 0}],
            "first_space_at_origin",
            "F-R10",
            "/1/x",
        ),
        (
            "overlap",
            built,
            [SKIP, {"type": "lay", "card": other, "x": 0, "y": 0, "r": 0}],
            "cell_occupied",
            "F-4.3",
            "/1/x",
        ),
        (
            "connects_to_nothing",
            built,
            [SKIP, {"type": "lay", "card": other, "x": 5, "y": 5, "r": 0}],
            "no_connection",
            "F-4.3",
            "/1/x",
        ),
        (
            "rotation",
            s0,
            [SKIP, {"type": "lay", "card": space, "x": 0, "y": 0, "r": 4}],
            "invalid_rotation",
            "F-2.4",
            "/1/r",
        ),
        ("look_alone", s0, [{"type": "look"}], "no_coordenadora", "F-6.1", "/0/type"),
        ("unknown_card", s0, [{"type": "buy", "card": "ZZ99"}], "unknown_card", "F-2.1", "/0/card"),
        (
            "lay_in_buy_step",
            s0,
            [{"type": "lay", "card": space}],
            "wrong_decision_type",
            "F-3.1",
            "/0/type",
        ),
        ("unknown_type", s0, [{"type": "fly"}], "malformed_decision", "F-3", "/0/type"),
        (
            "extra_field",
            s0,
            [{"type": "skip", "cell": 1}],
            "malformed_decision",
            "F-2.7",
            "/0/cell",
        ),
        (
            "final_buy",
            final,
            [{"seat": seat, "type": "buy", "card": final["market"][0]}],
            "purchase_must_be_laid",
            "F-8.2",
            "/0/type",
        ),
        ("after_the_end", over, [{"type": "pass"}], "game_over", "F-8.4", ""),
    ]


CASES = illegal_cases()


@pytest.mark.parametrize(
    ("state", "decisions", "code", "clause", "pointer"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_illegal_decisions_are_refused_with_clause_and_pointer(
    client: Any, state: State, decisions: list[dict[str, Any]], code: str, clause: str, pointer: str
) -> None:
    status, problem = call(client, "/v1/resolve", {"state": state, "decisions": decisions})
    index = len(decisions) - 1
    expected_pointer = f"/decisions{pointer}" if pointer else f"/decisions/{index}"
    got = (status, problem["code"], problem["clause"], problem["pointer"], problem["index"])
    assert got == (422, code, clause, expected_pointer, index), problem
    assert problem["detail"] and problem["type"].endswith(code)
    # the same log replayed: the same error, the state before it
    status, out = call(client, "/v1/replay", {"state": state, "decisions": decisions})
    assert status == 200 and out["ok"] is False and out["applied"] == index
    assert out["error"]["code"] == code and out["error"]["index"] == index
    assert out["state"] == fdp.apply_all(state, decisions[:index])[0]


# -- forged states: 422 on every endpoint, every problem with its clause and pointer ----------


def forged_states() -> list[tuple[str, State, str, str, str]]:
    s0 = fresh(2, 7)
    two_places = copy.deepcopy(s0)
    two_places["seats"][1]["hand"].append(two_places["market"][0])
    built, other = with_space_at_origin()
    overlap = copy.deepcopy(built)
    hand = overlap["seats"][0]["hand"]
    hand.remove(other)
    overlap["seats"][0]["work"]["building"].append({"card": other, "x": 0, "y": 0, "r": 0})
    apart = copy.deepcopy(overlap)
    apart["seats"][0]["work"]["building"][1].update(x=7, y=7)
    off_origin = copy.deepcopy(built)
    off_origin["seats"][0]["work"]["building"][0].update(x=3)
    unknown = copy.deepcopy(s0)
    unknown["game"] = "chess"
    building = "/state/seats/0/work/building"
    return [
        ("card_in_two_places", two_places, "duplicate_card", "F-1.3", "/state/market/0"),
        ("overlap", overlap, "cell_occupied", "F-4.3", f"{building}/1"),
        ("disconnected", apart, "no_connection", "F-4.3", f"{building}/1"),
        ("first_space_off_origin", off_origin, "first_space_at_origin", "F-R10", f"{building}/0"),
        ("unknown_game", unknown, "unknown_game", "", "/state/game"),
    ]


FORGED = forged_states()


@pytest.mark.parametrize(
    ("state", "code", "clause", "pointer"), [f[1:] for f in FORGED], ids=[f[0] for f in FORGED]
)
def test_forged_states_are_refused_everywhere(
    client: Any, state: State, code: str, clause: str, pointer: str
) -> None:
    def named(problems: list[dict[str, Any]]) -> bool:
        return any(
            (p["code"], p.get("clause", ""), p["pointer"]) == (code, clause, pointer)
            for p in problems
        )

    status, report = call(client, "/v1/validate", {"state": state})
    assert status == 200 and report["valid"] is False
    assert named(report["problems"]), report["problems"]
    bodies = {
        "/v1/legal-moves": {"state": state},
        "/v1/resolve": {"state": state, "decisions": [{"type": "pass"}]},
        "/v1/view": {"state": state, "seat": 0},
        "/v1/score": {"state": state},
        "/v1/replay": {"state": state, "decisions": []},
        "/v1/suggest": {"state": state, "seat": 0, "bot": "random"},
    }
    for path, body in bodies.items():
        status, problem = call(client, path, body)
        assert status == 422 and problem["code"] == "invalid_state", (path, problem)
        assert named(problem["problems"]), (path, problem["problems"])


def test_validate_a_valid_state(client: Any) -> None:
    state, _ = play(fresh(3, 2), 25, 2)
    assert call(client, "/v1/validate", {"state": state})[1] == {"valid": True, "problems": []}


# -- /v1/view -------------------------------------------------------------------------------


def test_view_hides_hands_deck_peeks_and_clone_cards(client: Any) -> None:
    s, concept, spare = coordenadora_and_teorica()
    looked = listed(s, type="look")
    mine = call(client, "/v1/view", {"state": looked, "seat": 0})[1]
    theirs = call(client, "/v1/view", {"state": looked, "seat": 1})[1]
    assert mine["turn"]["peeked"] == looked["deck"][:2] == looked["turn"]["peeked"]
    assert theirs["turn"]["peeked"] is None and theirs["turn"]["peeked_count"] == 2
    assert mine["pending"]["options"] == looked["pending"]["options"]
    assert theirs["pending"]["options"] is None
    for view, seat in ((mine, 0), (theirs, 1)):
        other = 1 - seat
        assert view["view_of"] == seat and view["rng"] is None and view["deck"] is None
        assert view["deck_count"] == len(looked["deck"])
        assert view["seats"][seat]["hand"] == looked["seats"][seat]["hand"]
        assert view["seats"][other]["hand"] is None
        assert view["seats"][other]["hand_count"] == len(looked["seats"][other]["hand"])
        assert set(looked["seats"][other]["hand"]) <= set(view["unseen"])
    clone = {"seat": 0, "type": "clone", "card": spare, "target": concept}
    cloned = fdp.apply_all(looked, [{"seat": 0, "type": "skip"}, clone])[0]
    theirs = call(client, "/v1/view", {"state": cloned, "seat": 1})[1]
    assert theirs["seats"][0]["work"]["clones"] == [{"target": concept, "card": None}]
    assert spare in theirs["unseen"]
    mine = call(client, "/v1/view", {"state": cloned, "seat": 0})[1]
    assert mine["seats"][0]["work"]["clones"] == [{"target": concept, "card": spare}]


def test_view_of_a_seat_beyond_the_game(client: Any) -> None:
    status, problem = call(client, "/v1/view", {"state": fresh(2, 1), "seat": 3})
    assert (status, problem["code"], problem["clause"], problem["pointer"]) == (
        422,
        "unknown_seat",
        "F-1.1",
        "/seat",
    )


# -- /v1/score ------------------------------------------------------------------------------


def test_score_now_and_final_with_every_component(client: Any) -> None:
    status, now = call(client, "/v1/score", {"state": fresh(3, 1)})
    assert status == 200 and now["final"] is False
    # nothing built: every seat 0, the tie-break finds no difference (F-8.12)
    assert [s["total"] for s in now["seats"]] == [0, 0, 0]
    assert now["winners"] == [0, 1, 2] and now["decided_by"] == "shared"
    for seats in (2, 3, 4):
        final, _, _ = finished(seats, 40 + seats)
        status, out = call(client, "/v1/score", {"state": final})
        assert status == 200 and out["final"] is True
        assert {k: v for k, v in out.items() if k != "final"} == final["scores"]
        assert out["clause"] == "F-8.12"
        for seat in out["seats"]:
            parts = ("qualified_connections", "materials", "people", "concepts", "projects")
            assert seat["total"] == sum(seat[k] for k in parts) + seat["complete_projects"]
            assert seat["connections"] == seat["measures"]["connections"]
        assert sum(s["total"] for s in out["seats"]) > 0
        # the winners follow F-8.12: total, then connections, then spaces
        key = [(s["total"], s["connections"], s["spaces"]) for s in out["seats"]]
        assert out["winners"] == [i for i, k in enumerate(key) if k == max(key)]


def test_score_of_a_finished_state_without_its_scores(client: Any) -> None:
    """StateInput: `scores` may be left out and is recomputed (as for Architectura)."""
    final, _, _ = finished(2, 5)
    slim = {k: v for k, v in final.items() if k != "scores"}
    status, out = call(client, "/v1/score", {"state": slim})
    assert status == 200, (
        "a finished Fora de Prumo state without `scores` must have them recomputed (F-8.4), "
        f"not be refused as inconsistent_scores: {out}"
    )
    assert {k: v for k, v in out.items() if k != "final"} == final["scores"]


# -- /v1/replay -----------------------------------------------------------------------------


def test_replay_from_setup_and_from_state(client: Any) -> None:
    final, log, setup = finished(3, 8)
    status, out = call(client, "/v1/replay", {"setup": setup, "decisions": log})
    assert status == 200 and out["ok"] is True and out["applied"] == len(log)
    assert len(out["state"].pop("history")["decisions"]) == len(log)
    assert out["state"] == final and "error" not in out
    start = fdp.new_game(setup)  # no history: none in the answer
    status, out = call(client, "/v1/replay", {"state": start, "decisions": log})
    assert status == 200 and out["state"] == final
    k = len(log) // 2
    disputed = [*log[:k], {**log[k], "seat": (log[k]["seat"] + 1) % 3}, *log[k + 1 :]]
    status, out = call(client, "/v1/replay", {"setup": setup, "decisions": disputed})
    assert status == 200 and out["ok"] is False and out["applied"] == k
    assert (out["error"]["code"], out["error"]["clause"], out["error"]["pointer"]) == (
        "not_your_decision",
        "F-3",
        f"/decisions/{k}/seat",
    )
    assert len(out["state"].pop("history")["decisions"]) == k  # what was applied
    assert out["state"] == fdp.apply_all(start, log[:k])[0]


def test_replay_with_a_bad_setup(client: Any) -> None:
    status, problem = call(
        client,
        "/v1/replay",
        {"setup": {"game": GAME, "seats": 2, "seed": 1, "market_size": 3}, "decisions": []},
    )
    assert (status, problem["code"], problem["pointer"]) == (
        422,
        "invalid_market_size",
        "/setup/market_size",
    )


# -- catalogs -------------------------------------------------------------------------------


def test_catalogs_of_fora_de_prumo(client: Any) -> None:
    ref = fdp.builtin_catalogs()["reference"]
    listing = check_response("GET", "/v1/catalogs", client.get("/v1/catalogs?game=fora-de-prumo"))
    assert listing == {
        "game": GAME,
        "catalogs": [{"id": "reference", "name": ref.name, "hash": ref.hash, "cards": 62}],
    }
    r = client.get("/v1/catalogs/reference?game=fora-de-prumo")
    one = check_response("GET", "/v1/catalogs/{catalog_id}", r)
    assert one["catalog"] == ref.to_json() and one["hash"] == ref.hash
    assert len(one["catalog"]["cards"]) == 62 and "colours" not in one
    r = client.get("/v1/catalogs/nope?game=fora-de-prumo")
    problem = check_response("GET", "/v1/catalogs/{catalog_id}", r)
    assert (r.status_code, problem["code"], problem["clause"]) == (404, "unknown_catalog", "F-10")
    r = client.get("/v1/catalogs?game=chess")
    assert (r.status_code, check_response("GET", "/v1/catalogs", r)["code"]) == (
        404,
        "unknown_game",
    )


def test_a_custom_catalog_travels_with_the_state(client: Any) -> None:
    doc = copy.deepcopy(fdp.builtin_catalogs()["reference"].to_json())
    doc["id"], doc["name"] = "house", "House cards"
    next(c for c in doc["cards"] if c["type"] == "project")["value"] = 9
    status, body = call(client, "/v1/games", {"game": GAME, "seats": 2, "seed": 4, "catalog": doc})
    assert status == 200
    state = body["state"]
    assert state["catalog"]["id"] == "house"
    status, problem = call(client, "/v1/legal-moves", {"state": state})
    assert status == 422 and problem["problems"][0]["code"] == "unknown_catalog"
    moves = call(client, "/v1/legal-moves", {"state": state, "catalog": doc})[1]
    body = {"state": state, "decisions": [moves["options"][0]], "catalog": doc}
    assert call(client, "/v1/resolve", body)[0] == 200
    bad = {**doc, "cards": [{"id": "X", "type": "space"}]}
    status, problem = call(
        client, "/v1/games", {"game": GAME, "seats": 2, "seed": 4, "catalog": bad}
    )
    assert status == 422 and problem["clause"] == "F-2.8"
    assert all(p["pointer"].startswith("/catalog") for p in problem["problems"])


@pytest.mark.parametrize("word", ["look", "skip", "pass"])
@pytest.mark.parametrize("path", ["/v1/games", "/v1/record"])
def test_a_card_named_like_a_decision_word_is_refused(client: Any, path: str, word: str) -> None:
    """Audit F1: a custom card `pass` was accepted; its lay was written `pass` in the
    history and the record, which read it back as a pass (or an illegal look or skip), so
    the service blamed the client for a history it wrote itself. The catalog is refused
    where it is sent (F-2.8), naming the card's id."""
    doc = copy.deepcopy(fdp.builtin_catalogs()["reference"].to_json())
    doc["id"] = "two-engineers"
    engineer = {"type": "person", "name": "Engenheira", "gloss": "engineer", "phase": 1}
    doc["cards"].append({"id": word, **engineer, "min_players": 2, "ability": "engenheiro"})
    setup = {"game": GAME, "seats": 2, "seed": 1, "catalog": doc}
    body, at = (
        ({"setup": setup, "decisions": []}, "/setup") if path == "/v1/record" else (setup, "")
    )
    status, problem = call(client, path, body)
    assert (status, problem["code"], problem["clause"]) == (422, "invalid_catalog", "F-2.8")
    assert problem["pointer"] == f"{at}/catalog/cards/62/id", problem
    assert [p["code"] for p in problem["problems"]] == ["catalog_value"]


# -- /v1/suggest ----------------------------------------------------------------------------


@pytest.mark.parametrize("bot", ["ismcts", "greedy", "random"])
def test_suggest_chooses_a_listed_option(client: Any, bot: str) -> None:
    state, _ = play(fresh(2, 6), 9, 6)
    seat = state["pending"]["seat"]
    body = {"state": state, "seat": seat, "bot": bot, "budget": {"iterations": 20}, "seed": 3}
    if bot != "ismcts":
        del body["budget"]
    status, out = call(client, "/v1/suggest", body)
    assert status == 200, out
    assert out["decision"] in state["pending"]["options"] and out["bot"] == bot
    assert [o["decision"] for o in out["stats"]["options"]] == state["pending"]["options"]
    # the contract holds an answer to one game: an Architectura decision among them breaks it
    mixed = copy.deepcopy(out)
    mixed["stats"]["options"][0]["decision"] = {"seat": 0, "type": "play", "card": "blue.well"}
    assert schema_errors("SuggestResult", mixed) and not schema_errors("SuggestResult", out)
    status, problem = call(client, "/v1/suggest", {**body, "seat": 1 - seat})
    assert (status, problem["code"], problem["clause"]) == (422, "not_your_decision", "F-3")


# -- the document's schemas are strict --------------------------------------------------------


def test_the_fora_de_prumo_schemas_refuse_near_misses() -> None:
    """The contract is not a `type: object`: real documents pass, near misses fail."""
    state, _ = play(fresh(3, 2), 25, 2)
    assert not schema_errors("GameState", state)
    assert schema_errors("GameState", {**state, "colours": []})  # an unknown field
    assert schema_errors("GameState", {**state, "turn": {**state["turn"], "step": "draw"}})
    assert schema_errors("ForaDePrumoState", arch.new_game({"seats": 2, "seed": 1}))
    assert schema_errors("ArchitecturaState", state)
    for option in state["pending"]["options"]:
        assert not schema_errors("ForaDePrumoDecision", option)
    near_misses = [
        {"seat": 0, "type": "lay", "card": "SP01", "x": 0},  # a position needs x, y and r
        {"seat": 0, "type": "lay", "card": "SP01", "x": 0, "y": 0, "r": 4},
        {"seat": 0, "type": "lay", "card": "SP01", "from": "hand"},
        {"seat": 0, "type": "buy"},
        {"seat": 0, "type": "convert", "designer": "PE03"},
        {"seat": 0, "type": "skip", "card": "SP01"},
        {"seat": 0, "type": "play", "card": "SP01"},
    ]
    for d in near_misses:
        assert schema_errors("ForaDePrumoDecision", d), d
    assert not schema_errors("GameSetup", {"seats": 2, "seed": 1})
    assert not schema_errors("GameSetup", {"game": GAME, "seats": 4, "seed": 1, "market_size": 6})
    assert schema_errors("GameSetup", {"game": GAME, "seats": 2, "seed": 1, "variant": "basic"})
    assert schema_errors("GameSetup", {"game": GAME, "seats": 2, "seed": 1, "market_size": 3})
    looked = {"type": "looked", "seat": 0, "count": 2, "clause": "F-6.1", "decision": 0}
    assert not schema_errors("ForaDePrumoEvent", {**looked, "hidden": "cards"})
    assert schema_errors("ForaDePrumoEvent", {**looked, "hidden": "card"})
    ref = fdp.builtin_catalogs()["reference"].summary()
    assert not schema_errors("CatalogSummary", ref)
    assert schema_errors("ForaDePrumoCatalogSummary", {**ref, "colours": ["red"]})


# -- determinism ----------------------------------------------------------------------------


def test_responses_are_byte_identical(make_app: Any, client: Any) -> None:
    state, _ = play(fresh(4, 9), 20, 9)
    option = state["pending"]["options"][-1]
    body = {"state": state, "decisions": [option]}
    bodies = {client.post("/v1/resolve", json=body).data for _ in range(2)}
    bodies.add(make_app().test_client().post("/v1/resolve", json=body).data)
    assert len(bodies) == 1
