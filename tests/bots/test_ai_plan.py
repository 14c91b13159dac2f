"""plan="turn" stops at chance: a plan never plays a card its seat has not seen.

A plan ends at the first decision whose events include one of its game's CHANCE_EVENTS (a
mulligan's new hand, an Obelisk shuffle, a draw, a coordenadora's look, a refill), incomplete
(`turn_complete: false`) when the turn still asks the seat after it; and it is made from the
seat's view alone, so a state and its seat's view (the answer of /v1/view) get the same plan,
step for step, for every registered game.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from ai_support import hide_differently
from fdp_support import PASS, SKIP, arrange, fresh, lay, play
from http_support import check_response

from ai.redis_server import RedisServer
from ai.service import suggest
from engine.games import GAMES, GameModule, engine

# the settings each position is planned with: a small search, and the random bot whose seeds
# pick the rarer options (a mulligan, an Obelisk exchange, a look) now and then
SETTINGS: list[dict[str, Any]] = [
    {"budget": {"iterations": 20}, "seed": 1},
    *({"bot": "random", "seed": s} for s in range(3)),
]


def _random_line(
    eng: GameModule, setup: dict[str, Any], seed: int, stops: set[int]
) -> list[dict[str, Any]]:
    """The states reached after each of `stops` random decisions from `setup`."""
    state = eng.new_game(setup)
    rnd = random.Random(seed)
    out = []
    for k in range(max(stops) + 1):
        moves = eng.legal_decisions(state)
        if moves["game_over"]:
            break
        if k in stops:
            out.append(state)
        state, _ = eng.apply_all(state, [rnd.choice(moves["options"])])
    return out


def _architectura_positions() -> list[dict[str, Any]]:
    """First turns (each with a mulligan to choose; with the Obelisk in every deck, also its
    exchange, A-3.1a), and later turns of the basic and the advanced game (draws, A-3.5, and
    effect choices), 2 and 3 seats."""
    eng = engine("architectura")
    obelisk = {"obelisk": "temple"}  # the Obelisk replaces the Temple
    out = []
    for seed in range(5):
        for setup in (
            eng.tournament_setup(seed, 2, None),
            {"seats": 2, "seed": seed, "variant": "advanced", "replacements": [obelisk] * 2},
            eng.tournament_setup(seed, 3, "advanced"),
        ):
            out += _random_line(eng, setup, seed, {0, 1, 2, 5, 11})
    return out


def _fdp_coordenadora(seed: int) -> list[dict[str, Any]]:
    """Seat 0 with the coordenadora in its site (F-6.1): its buy step, where it may look at
    the deck's top two cards, and its final turn (F-R26), where the look is one more option."""
    s = arrange(fresh(2, seed=seed), hands={0: ["PE01", "PE06", "MA06"]})
    s = play(s, SKIP, lay("PE01"), SKIP, PASS)
    buy_step = s
    s = play(s, SKIP, lay("PE06"), SKIP, PASS, SKIP, lay("MA06"), SKIP, PASS)
    s = play(s, SKIP, PASS, PASS)  # two passes in a row: the final round, seat 1 first
    return [buy_step, s]


def _fdp_positions() -> list[dict[str, Any]]:
    """Buy steps (a purchase refills the market, F-3.6), lay steps and looks, 2 and 3 seats."""
    eng = engine("fora-de-prumo")
    out = []
    for seed in range(4):
        for seats in (2, 3):
            out += _random_line(eng, eng.tournament_setup(seed, seats, None), seed, {0, 1, 6, 30})
        out += _fdp_coordenadora(38 + seed)
    return out


POSITIONS = {"architectura": _architectura_positions, "fora-de-prumo": _fdp_positions}


def test_every_game_has_its_positions() -> None:
    assert set(POSITIONS) == set(GAMES)


def _chance(eng: GameModule, events: list[dict[str, Any]]) -> set[str]:
    return {ev["type"] for ev in events} & eng.CHANCE_EVENTS


def _same_turn(state: dict[str, Any], before: dict[str, Any]) -> bool:
    """The seat that decided in `before` decides again in the same turn."""
    return (
        not state["game_over"]
        and state["turn"]["number"] == before["turn"]["number"]
        and state["pending"]["seat"] == before["pending"]["seat"]
    )


def check_plan(eng: GameModule, state: dict[str, Any], out: dict[str, Any]) -> set[str]:
    """The plan's steps applied with the engine, one by one: a chance event only in the last
    step's events; `turn_complete` false exactly when the seat still decides in the same turn
    after the last step, and then that step had a chance event (no deadline here). Returns
    the chance events of the last step."""
    s, chance = state, set()
    for i, step in enumerate(out["turn"]):
        assert not chance, f"step {i} follows a chance event ({chance})"
        s, events = eng.apply_all(s, [step["decision"]])
        chance = _chance(eng, events)
    more = _same_turn(s, state)
    assert out["turn_complete"] is not more
    if more:
        assert chance, "a plan cut short with no chance event and no deadline"
    return chance


def uncached(turn: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A plan's steps without whether each came from the cache."""
    return [{k: v for k, v in step.items() if k != "cached"} for step in turn]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_plan_from_a_state_is_the_plan_from_its_view(make_app: Any, game_id: str) -> None:
    """Through the HTTP API: for many positions and settings, the plan from a state equals
    the plan from its seat's /v1/view answer, step for step (same decisions, iterations,
    length and turn_complete); neither plays past a chance event. Not the same cache use: a
    state's entries are that state's, a view's its sender's (ai/service.py, the scope), so a
    later step planned from one view may find an earlier position's entry."""
    eng = engine(game_id)
    from_state = make_app(REDIS_URL=None).test_client()
    from_view = make_app(REDIS_URL=None).test_client()
    seen: Counter[tuple[str, bool]] = Counter()
    lengths: Counter[int] = Counter()
    for state in POSITIONS[game_id]():
        seat = state["pending"]["seat"]
        r = from_view.post("/v1/view", json={"state": state, "seat": seat})
        view = check_response("POST", "/v1/view", r)
        for settings in SETTINGS:
            body = {"seat": seat, "plan": "turn", **settings}
            a = from_state.post("/v1/suggest", json={"state": state, **body})
            b = from_view.post("/v1/suggest", json={"view": view, **body})
            planned = check_response("POST", "/v1/suggest", a)
            assert b.status_code == 200, b.get_json()
            assert uncached(b.get_json()["turn"]) == uncached(planned["turn"]), (
                state["turn"],
                settings,
            )
            assert b.get_json()["turn_complete"] is planned["turn_complete"]
            assert planned["turn"][0]["decision"] == planned["decision"]
            for kind in check_plan(eng, state, planned):
                seen[(kind, planned["turn_complete"])] += 1
            lengths[len(planned["turn"])] += 1
    # the positions reach every chance event of the game, mid-turn (the plan cut there) or
    # at the turn's end, and some plans have more than one step
    mid_turn = {"architectura": {"mulligan", "obelisk_taken"}, "fora-de-prumo": {"looked"}}
    at_end = {"architectura": {"drew"}, "fora-de-prumo": {"refilled"}}
    assert {k for k, complete in seen if not complete} == mid_turn[game_id], seen
    assert {k for k, complete in seen if complete} == at_end[game_id], seen
    assert mid_turn[game_id] | at_end[game_id] == eng.CHANCE_EVENTS
    assert max(lengths) > 1, lengths


def _seed_choosing(state: dict[str, Any], decision: dict[str, Any]) -> int:
    """A seed with which the random bot's first decision in `state` is `decision`."""
    seat = state["pending"]["seat"]
    for seed in range(100):
        if suggest(state, seat, bot="random", seed=seed)["decision"] == decision:
            return seed
    raise AssertionError(f"the random bot never chooses {decision}")


def _chance_first() -> list[tuple[str, dict[str, Any], int, dict[str, Any]]]:
    """(game, state, random bot's seed, its first decision): a decision with a chance event
    after which the same seat decides again in the same turn. Architectura: a mulligan
    (A-3.1b) and an Obelisk exchange (A-3.1a) in a first turn; Fora de Prumo: the
    coordenadora's look (F-6.1 / F-R19) in a buy step and in a final turn (F-R26)."""
    arch = engine("architectura")
    first = arch.new_game({"seats": 2, "seed": 0})
    obelisk = arch.new_game(
        {"seats": 2, "seed": 1, "variant": "advanced", "replacements": [{"obelisk": "temple"}] * 2}
    )
    exchange = next(d for d in obelisk["pending"]["options"] if d["type"] == "obelisk")
    cases = [
        ("architectura", first, {"seat": 0, "type": "mulligan"}),
        ("architectura", obelisk, exchange),
        *(("fora-de-prumo", s, {"seat": 0, "type": "look"}) for s in _fdp_coordenadora(38)),
    ]
    return [(g, state, _seed_choosing(state, d), d) for g, state, d in cases]


def _plans(game_id: str, state: dict[str, Any], seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The plans of the random bot (`seed`) from the state and from its seat's view."""
    seat = state["pending"]["seat"]
    view = engine(game_id).player_view(state, seat)
    return (
        suggest(state, seat, bot="random", seed=seed, plan="turn"),
        suggest(None, seat, view=view, bot="random", seed=seed, plan="turn"),
    )


def test_regression_a_plan_from_a_state_stops_at_chance() -> None:
    """The finding: from a state (not a view), after a mulligan the plan's next step played
    the card the real deck dealt (and after a coordenadora's look it bought with the deck's
    cards in view). Now that decision is the plan's last step, incomplete, from the state as
    from the view; yet the same seat still decides in that turn after it: a plan that went
    on would have planned that decision from the real deck."""
    for game_id, state, seed, decision in _chance_first():
        eng = engine(game_id)
        after, events = eng.apply_all(state, [decision])
        assert _chance(eng, events), events
        assert _same_turn(after, state)  # more to decide: the plan stopped before it
        for out in _plans(game_id, state, seed):
            assert [s["decision"] for s in out["turn"]] == [decision], game_id
            assert out["turn_complete"] is False


def test_regression_an_encrypted_state_keeps_its_deck_from_the_plan(
    make_app: Any, redis_server: RedisServer
) -> None:
    """The finding's threat: with STATE_ENCRYPT a client holds a state it cannot read, and a
    plan past a mulligan named the card the hidden deck dealt. Through the HTTP API, the plan
    from the encrypted state ends at the mulligan, as the plan from its seat's view does."""
    guarded = {"STATE_ANTI_ROLLBACK": True, "REDIS_URL": redis_server.url}
    client = make_app(
        STATE_SECRET="test-secret-0123456789abcdefghijk", STATE_ENCRYPT=True, **guarded
    ).test_client()
    r = client.post("/v1/games", json={"seats": 2, "seed": 0})
    state = check_response("POST", "/v1/games", r)["state"]
    assert "sealed" in state and "seats" not in state  # nothing of the deal readable
    body = {"seat": 0, "bot": "random", "seed": 0, "plan": "turn"}
    r = client.post("/v1/suggest", json={"state": state, **body})
    planned = check_response("POST", "/v1/suggest", r)
    assert [s["decision"] for s in planned["turn"]] == [{"seat": 0, "type": "mulligan"}]
    assert planned["turn_complete"] is False
    view = check_response(
        "POST", "/v1/view", client.post("/v1/view", json={"state": state, "seat": 0})
    )
    seen = check_response(
        "POST", "/v1/suggest", client.post("/v1/suggest", json={"view": view, **body})
    )
    assert (seen["turn"][0]["decision"], seen["turn_complete"]) == (planned["decision"], False)
    assert len(seen["turn"]) == 1


def test_the_chance_events_alone_end_a_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's CHANCE_EVENTS end a plan with no sampled world to compare (the worlds are
    a second guard, for a reveal a game does not declare); and they are what ends it: with
    them emptied as well, the same plans go on past the chance event."""
    import ai.service as service

    monkeypatch.setattr(service, "PLAN_CHECK_WORLDS", 0)
    cases = _chance_first()
    for game_id, state, seed, decision in cases:
        for out in _plans(game_id, state, seed):
            assert [s["decision"] for s in out["turn"]] == [decision], game_id
            assert out["turn_complete"] is False
    for game_id in GAMES:
        monkeypatch.setattr(engine(game_id), "CHANCE_EVENTS", frozenset())
    for game_id, state, seed, decision in cases:
        out = _plans(game_id, state, seed)[0]
        assert out["turn"][0]["decision"] == decision and len(out["turn"]) > 1, game_id


def test_a_plan_from_a_state_does_not_depend_on_cards_its_seat_cannot_see() -> None:
    """States that differ only in what the seat cannot see (the other hands and every deck
    re-dealt, the generator changed) get the same plan, mulligans and Obelisk exchanges
    included: before the fix, the step after a mulligan followed the real deck."""
    eng = engine("architectura")
    cut = 0
    for state in _architectura_positions()[:30]:
        seat = state["pending"]["seat"]
        for seed in range(3):
            out = suggest(state, seat, bot="random", seed=seed, plan="turn")
            for k in range(3):
                other = hide_differently(state, seat, random.Random(k))
                assert eng.player_view(other, seat) == eng.player_view(state, seat)
                again = suggest(other, seat, bot="random", seed=seed, plan="turn")
                assert (again["turn"], again["turn_complete"]) == (
                    out["turn"],
                    out["turn_complete"],
                )
            cut += not out["turn_complete"]
    assert cut > 0  # some of these plans stopped at a mulligan or an Obelisk exchange


@pytest.mark.parametrize("game_id", list(GAMES))
def test_chance_events_are_events_the_game_writes(game_id: str) -> None:
    """Each game's CHANCE_EVENTS names events its engine really writes (no misspelled name
    that would never stop a plan): all of them appear in the logs of random games."""
    eng = engine(game_id)
    written: set[str] = set()
    for state in POSITIONS[game_id]():
        rnd = random.Random(len(written))
        for _ in range(40):
            moves = eng.legal_decisions(state)
            if moves["game_over"]:
                break
            state, events = eng.apply_all(state, [rnd.choice(moves["options"])])
            written |= {e["type"] for e in events}
    assert written >= eng.CHANCE_EVENTS, eng.CHANCE_EVENTS - written
