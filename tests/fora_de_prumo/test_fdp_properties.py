"""Properties over random games (2 to 4 seats, markets of 4, 5 and 6; 2,000 complete games by
hypothesis, derandomized for CI, and 18 games checked position by position): the cards in use
are conserved, every building is one legally connected group, every listed option is accepted
and its near misses refused, the JSON round trip is exact, replays are byte-identical, the
in-memory face agrees with the JSON face, and views never leak what their seat cannot know."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from fdp_support import PASS, SKIP, arrange, deep_list, fresh, lay, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.fora_de_prumo as fdp
from engine import canonical
from engine.errors import IllegalDecision, InvalidState
from engine.fora_de_prumo.building import building_errors
from engine.fora_de_prumo.model import Game
from engine.fora_de_prumo.setup import cards_in_use

PLACEMENT_CODES = {"cell_occupied", "no_connection", "first_space_at_origin", "invalid_rotation"}
CONFIGS = [(n, k, 10 * n + k + s) for n in (2, 3, 4) for k in (4, 5, 6) for s in (0, 100)]


def zones(g: Game) -> list[str]:
    out = list(g.deck) + list(g.market)
    for s in range(g.n):
        out += g.hands[s] + g.works[s].all_cards()
    return out


def check_invariants(g: Game) -> None:
    assert Counter(zones(g)) == Counter(cards_in_use(g.cat, g.n))  # each card once (F-1.3)
    for s in range(g.n):
        w = g.works[s]
        equipe = w.has_ability(g.cat, "equipe_de_obras")
        assert building_errors(g.cat, w.building, w.converted, equipe) == []  # F-4.1
        assert g.buildings[s].placements == w.building


def near_misses(g: Game, seat: int, opts: list[Any]) -> list[dict[str, Any]]:
    """Decisions one step away from a listed one that are not listed themselves."""
    listed = {tuple(sorted(fdp.action_to_json(g, seat, a).items())) for a in opts}
    out = []
    for a in opts[:40]:
        d = fdp.action_to_json(g, seat, a)
        if d["type"] == "lay" and "x" in d:
            for dx, dy, dr in ((1, 0, 0), (0, -1, 0), (0, 0, 1), (3, 3, 0), (0, 0, 4)):
                m = {**d, "x": d["x"] + dx, "y": d["y"] + dy, "r": d["r"] + dr}
                if tuple(sorted(m.items())) not in listed:
                    out.append(m)
    return out


def random_game(seats: int, k: int, seed: int, check: bool) -> tuple[dict[str, Any], list[Any]]:
    """Play at random with the JSON face, checking each position; returns (setup, decisions)."""
    setup = {"seats": seats, "seed": seed, "market_size": k}
    state = fdp.new_game(setup)
    g = fdp.new_game_internal(setup)  # the in-memory face, driven with the same choices
    rnd = random.Random(seed)
    decisions = []
    works_before = [s["work"] for s in state["seats"]]
    while not state["game_over"]:
        assert canonical.dumps(fdp.game_to_json(g)) == canonical.dumps(state)
        for before, seat_now in zip(works_before, state["seats"], strict=True):
            for key, laid in before.items():  # F-R9: what is laid stays, in order
                assert seat_now["work"][key][: len(laid)] == laid
        works_before = [s["work"] for s in state["seats"]]
        if check:
            assert fdp.validate(state) == []
            assert fdp.game_to_json(fdp.load(state)) == state
            check_invariants(g)
            seat = state["pending"]["seat"]
            opts = fdp.legal_actions(g)
            for a in rnd.sample(opts, min(len(opts), 25)):
                probe = g.copy()
                fdp.apply_internal(probe, fdp.action_to_json(g, seat, a))
            for m in near_misses(g, seat, opts):
                with pytest.raises(IllegalDecision) as e:
                    fdp.apply_internal(g.copy(), m)
                assert e.value.code in PLACEMENT_CODES, m
                assert e.value.clause and e.value.pointer in ("/x", "/r")
            for view_seat in range(g.n):
                check_view(g, view_seat, rnd)
            # probes and samples work on copies: the game itself is untouched (copy-on-write)
            assert canonical.dumps(fdp.game_to_json(g)) == canonical.dumps(state)
        i = rnd.randrange(len(state["pending"]["options"]))
        d = state["pending"]["options"][i]
        assert fdp.action_to_json(g, state["pending"]["seat"], fdp.legal_actions(g)[i]) == d
        fdp.apply_action(g, fdp.legal_actions(g)[i])
        state, _ = fdp.apply(state, d)
        decisions.append(d)
    assert canonical.dumps(fdp.game_to_json(g)) == canonical.dumps(state)
    assert fdp.validate(state) == []
    return setup, decisions


def check_view(g: Game, seat: int, rnd: random.Random) -> None:
    """F-R6: the view, and every world sampled from it, look the same to `seat`; nothing the
    seat cannot know is in it, except the names of its unseen cards."""
    v = fdp.game_view(g, seat)
    text = canonical.dumps({k: x for k, x in v.items() if k != "unseen"})
    hidden = set(g.deck[len(g.peeked_on_deck()) if seat == g.seat else 0 :])
    for j in range(g.n):
        if j != seat:
            hidden |= set(g.hands[j]) | {c for _, c in g.works[j].clones}
    if g.bought is not None and not g.bought_from_deck():
        hidden.discard(g.bought)  # a market purchase is public (F-1.10)
    if seat != g.seat and g.bought_from_deck():
        hidden.add(g.bought or "")
    for c in hidden:
        assert f'"{c}"' not in text, (c, seat)
    assert sorted(hidden - {""}) == v["unseen"]
    world = fdp.WorldSampler(v).sample(rnd)
    assert canonical.dumps(fdp.game_view(world, seat)) == canonical.dumps(v)
    assert fdp.validate(fdp.game_to_json(world)) == []
    if seat == fdp.current_player(g):  # the decider's options are the same in every world
        assert fdp.legal_actions(world) == fdp.legal_actions(g)


@pytest.mark.parametrize(("seats", "k", "seed"), CONFIGS)
def test_random_games_keep_every_invariant(seats: int, k: int, seed: int) -> None:
    random_game(seats, k, seed, check=True)


@pytest.mark.parametrize(("seats", "k", "seed"), [(2, 5, 11), (3, 4, 12), (4, 6, 13)])
def test_replay_is_byte_identical(seats: int, k: int, seed: int) -> None:
    setup, decisions = random_game(seats, k, seed, check=False)
    a = fdp.replay({"setup": setup}, decisions)
    b = fdp.replay({"setup": setup}, decisions)
    assert a["ok"] and a["applied"] == len(decisions)
    assert canonical.dumps(a) == canonical.dumps(b)
    assert a["state"]["game_over"]
    state, events = fdp.apply_all(fdp.new_game(setup), decisions)
    assert canonical.dumps(state) == canonical.dumps(a["state"])
    assert events == a["events"]


def test_F_R6_sampled_worlds_keep_the_lookers_cards_on_top() -> None:
    s = arrange(fresh(2, seed=51), hands={0: ["PE01"]}, deck_top=["MA01", "MA02"])
    s = play(s, SKIP, lay("PE01"), SKIP, PASS, {"type": "look"})
    g = fdp.load(s)
    mine = fdp.WorldSampler(fdp.game_view(g, 0))
    theirs = fdp.WorldSampler(fdp.game_view(g, 1))
    rnd = random.Random(1)
    tops = set()
    for _ in range(20):
        w = mine.sample(rnd)
        assert w.deck[:2] == ["MA01", "MA02"] and w.peeked == ["MA01", "MA02"]
        o = theirs.sample(rnd)
        assert o.peeked == o.deck[:2]
        tops.add(tuple(o.deck[:2]))
        assert fdp.validate(fdp.game_to_json(o)) == []
    assert len(tops) > 1  # the other seat does not know them: re-dealt


def test_F_R6_sampled_worlds_after_a_deck_purchase() -> None:
    s = arrange(fresh(2, seed=52), hands={0: ["PE01"]}, deck_top=["MA01", "MA02"])
    s = play(s, SKIP, lay("PE01"), SKIP, PASS, {"type": "look"}, {"type": "buy", "card": "MA01"})
    g = fdp.load(s)
    v1 = fdp.game_view(g, 1)
    sampler = fdp.WorldSampler(v1)
    rnd = random.Random(2)
    for _ in range(10):
        w = sampler.sample(rnd)
        assert w.bought in w.hands[0] and w.bought in w.peeked
        assert canonical.dumps(fdp.game_view(w, 1)) == canonical.dumps(v1)
        assert fdp.validate(fdp.game_to_json(w)) == []
    assert fdp.WorldSampler(fdp.game_view(g, 0)).sample(rnd).deck[0] == "MA02"


def test_F_R6_views_hide_other_hands_deck_rng_and_options() -> None:
    s = fresh(3, seed=53)
    assert fdp.player_view(s, 1)["pending"]["options"] is None
    assert fdp.player_view(s, 0)["pending"]["options"] == s["pending"]["options"]
    v = fdp.player_view(s, 2)
    assert v["rng"] is None and v["deck"] is None and v["view_of"] == 2
    assert v["seats"][0]["hand"] is None and v["seats"][0]["hand_count"] == 5
    with pytest.raises(IllegalDecision):
        fdp.player_view(s, 3)


def test_F_R42_a_market_purchase_is_public_during_its_turn() -> None:
    s = fresh(2, seed=54)
    card = s["market"][1]
    s = play(s, {"type": "buy", "card": card})
    v = fdp.player_view(s, 1)
    assert v["turn"]["bought"] == card and v["turn"]["bought_from"] == "market"
    assert card not in v["unseen"]
    sampler = fdp.WorldSampler(v)
    rnd = random.Random(3)
    for _ in range(10):
        w = sampler.sample(rnd)
        assert w.hands[0][-1] == card and len(w.hands[0]) == 6
        assert canonical.dumps(fdp.game_view(w, 1)) == canonical.dumps(v)


@pytest.mark.parametrize(
    "forge",
    [
        lambda v: v["seats"][1].update(hand_count=v["seats"][1]["hand_count"] + 1),
        lambda v: v["seats"][1].update(hand_count=-1),
        lambda v: v["seats"][1].update(hand_count="5"),
        lambda v: v["unseen"].pop(),
        lambda v: v["unseen"].append(v["market"][0]),
        lambda v: v["unseen"].extend([deep_list(5000), deep_list(5000)]),
        lambda v: v.update(view_of=1),
        lambda v: v.update(extra=1),
        lambda v: v.pop("turn"),
        lambda v: v["turn"].update(peeked_count=2),
        lambda v: v.update(seats={}),
        lambda v: v.update(deck_count=0),
    ],
)
def test_F_R6_a_forged_view_samples_no_world(forge: Any) -> None:
    v = fdp.player_view(fresh(2, seed=55), 0)
    assert fdp.WorldSampler(v).base.n == 2
    forge(v)
    with pytest.raises(InvalidState):
        fdp.WorldSampler(v)


# -- many games (hypothesis) ---------------------------------------------------------------------

MANY_GAMES = 2000  # hypothesis examples, each one complete game


def play_fast_checked(seats: int, k: int, seed: int, pick: random.Random) -> Game:
    """A whole game on the in-memory face with random listed options; the cheap invariants at
    every position: every card in use is in exactly one place (F-1.3) and every building is
    one legally connected group (F-4.1)."""
    g = fdp.new_game_internal({"seats": seats, "seed": seed, "market_size": k})
    while not g.over:
        check_invariants(g)
        opts = fdp.legal_actions(g)
        assert opts, "a game that is not over has a decision to take"
        fdp.apply_action(g, opts[pick.randrange(len(opts))])
    check_invariants(g)
    return g


@settings(
    max_examples=MANY_GAMES,
    deadline=None,
    derandomize=True,  # the same games on every run (CI)
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seats=st.integers(2, 4),
    k=st.integers(4, 6),
    seed=st.integers(0, 2**31 - 1),
    choices=st.integers(0, 2**31 - 1),
)
def test_thousands_of_random_games_conserve_cards_and_buildings(
    seats: int, k: int, seed: int, choices: int
) -> None:
    """F-1.3, F-4.1, F-8: any set-up (2-4 seats, markets of 4-6) and any sequence of listed options ends in a scored game
    that kept every invariant; its final state reads back exactly and is valid."""
    g = play_fast_checked(seats, k, seed, random.Random(choices))
    state = fdp.game_to_json(g)
    assert state["game_over"] and len(state["scores"]["seats"]) == seats
    assert state["scores"]["winners"]  # F-8.12, F-R32: someone wins (ties share)
    assert fdp.validate(state) == []
    assert canonical.dumps(fdp.game_to_json(fdp.load(state))) == canonical.dumps(state)
