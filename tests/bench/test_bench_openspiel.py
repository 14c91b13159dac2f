"""benchmarks/openspiel_strength.py's `SpielState`: our engines as OpenSpiel's ISMCTS reads a
state. What its search relies on, checked on every registered game without OpenSpiel itself
(an optional install): the decider's information state is the same in every world sampled
from its view (OpenSpiel's ISMCTS asserts it at the root) and differs once the game moves on;
an action's id is the same in every world and applies that action; a clone is a state of its
own."""

from __future__ import annotations

import random
from typing import Any

import pytest

from benchmarks.openspiel_strength import ActionIds, SpielState
from engine.games import GAMES, engine


def _middle(game: str, seed: int) -> Any:
    """A seeded random game's state after a few decisions, a choice pending."""
    eng = engine(game)
    g = eng.new_game_internal(eng.tournament_setup(seed, 2, None))
    rnd = random.Random(seed)
    for _ in range(12):
        opts = eng.legal_actions(g)
        eng.apply_action(g, opts[rnd.randrange(len(opts))])
    while len(eng.legal_actions(g)) < 2:
        eng.apply_action(g, eng.legal_actions(g)[0])
    return eng, g


@pytest.mark.parametrize("game", GAMES)
def test_the_deciders_information_state_is_its_view_in_every_world(game: str) -> None:
    eng, g = _middle(game, 3)
    ids = ActionIds()
    seat = eng.current_player(g)
    sampler = eng.WorldSampler(eng.game_view(g, seat), None)
    rnd = random.Random(0)
    state = SpielState(eng, g, ids)
    worlds = [SpielState(eng, sampler.sample(rnd), ids) for _ in range(5)]
    key = state.information_state_string()
    assert all(w.information_state_string() == key for w in worlds)
    assert all(w.legal_actions() == state.legal_actions() for w in worlds)
    # the other seat's information state tells worlds apart where its hand differs
    other = 1 - seat
    assert len({w.information_state_string(other) for w in worlds}) > 1
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(seat) != key


@pytest.mark.parametrize("game", GAMES)
def test_an_action_id_applies_its_action_and_a_clone_is_its_own_state(game: str) -> None:
    eng, g = _middle(game, 4)
    ids = ActionIds()
    state = SpielState(eng, g.copy(), ids)
    legal = state.legal_actions()
    assert legal == list(range(len(legal)))  # first seen, numbered in order
    clone = state.clone()
    last = legal[-1]
    clone.apply_action(last)
    assert state.legal_actions() == legal  # the original did not move
    expected = g.copy()
    eng.apply_action(expected, eng.legal_actions(g)[-1])
    assert eng.game_view(clone.g, 0) == eng.game_view(expected, 0)
    assert not state.is_chance_node() and not state.is_terminal()
    while not clone.is_terminal():
        clone.apply_action(clone.legal_actions()[0])
    assert clone.current_player() == -4  # pyspiel's terminal player id
    assert clone.returns() == list(eng.returns(clone.g))
