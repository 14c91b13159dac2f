"""ISMCTS's greedy prior at the root (`IsmctsBot(prior_widening=C)`, docs/bots.md): the root's
options ranked by the greedy one-ply margin, searched best first and only the best few
(progressive widening); deterministic for a view and a seed, blind to what the seat cannot
see. Every registered game."""

from __future__ import annotations

import math
from typing import Any

import pytest
from ai_support import same_answer_behind_the_view, seat_view, slow_search, stats, wide_position

from ai import mcts, review
from ai.bots import LEVELS, Budget, IsmctsBot, SearchResult, margin
from ai.mcts import greedy_ranking
from ai.model import learned_search, model_for, model_ranking
from engine.games import GAMES, engine, info


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_prior_searches_only_the_greedy_best_options(game_id: str) -> None:
    state = wide_position(game_id)
    view = seat_view(state)
    eng = engine(game_id)
    g = eng.load(state)
    seat = view["view_of"]
    values = {}
    for a in eng.legal_actions(g):
        h = g.copy()
        eng.apply_action(h, a)
        values[a] = margin(eng, h, seat)
    res = IsmctsBot(Budget(iterations=16), prior_widening=1.0).choose(view, 3)
    searched = [o.action for o in res.options if o.visits > 0]
    left = [o.action for o in res.options if o.visits == 0]
    # at most max(2, ceil(1.0 * sqrt(16))) options, each worth at least any option left out
    assert 2 <= len(searched) <= math.ceil(math.sqrt(16))
    assert min(values[a] for a in searched) >= max(values[a] for a in left)
    assert sum(o.visits for o in res.options) == res.iterations == 16
    # control: without the prior, 16 iterations try every one of the (8 or more) options
    plain = IsmctsBot(Budget(iterations=16), prior_widening=0.0).choose(view, 3)
    assert sum(1 for o in plain.options if o.visits > 0) >= 8


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_prior_is_deterministic_and_reads_only_the_view(game_id: str) -> None:
    same_answer_behind_the_view(IsmctsBot(Budget(iterations=60), prior_widening=2.0), game_id)


@pytest.mark.parametrize("game_id", list(GAMES))
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_default_is_the_games_measured_prior(game_id: str, level: str) -> None:
    """`IsmctsBot(budget)` (every level) searches with the game's own setting
    (`GameInfo.bot_prior`): its constant up to its largest iteration budget, else none; where
    that is a prior, the search is another than without one."""
    view = seat_view(wide_position(game_id, least=12))
    widening, most = info(game_id).bot_prior
    budget = LEVELS[level]
    assert budget.iterations is not None
    own = widening if budget.iterations <= most else 0.0
    default = IsmctsBot(budget).choose(view, 2)
    assert stats(default) == stats(IsmctsBot(budget, prior_widening=own).choose(view, 2))
    if own > 0:
        plain = IsmctsBot(budget, prior_widening=0.0).choose(view, 2)
        assert stats(plain) != stats(default)
        bound = max(2, math.ceil(own * math.sqrt(budget.iterations)))
        assert sum(1 for o in default.options if o.visits) <= bound


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_time_budget_searches_without_the_prior(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """How many iterations a time budget makes is not known beforehand: no prior."""

    def ranking(*args: Any) -> Any:
        raise AssertionError("ranked")

    monkeypatch.setattr(mcts, "greedy_ranking", ranking)
    view = seat_view(wide_position(game_id, least=12))
    assert IsmctsBot(Budget(time_ms=20)).choose(view, 1).iterations > 0
    if info(game_id).bot_prior[0] > 0:  # control: the same game's easy level ranks
        with pytest.raises(AssertionError, match="ranked"):
            IsmctsBot(LEVELS["easy"]).choose(view, 1)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_review_searches_every_option(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A review needs the value of the option played, whatever the greedy bot thinks of it:
    its search has no prior (16 iterations try each of 12 or more options)."""
    results: list[SearchResult] = []

    class Spy(IsmctsBot):
        def pick(self, start: Any, seed: int, deadline: float | None) -> SearchResult:
            results.append(super().pick(start, seed, deadline))
            return results[-1]

    monkeypatch.setattr(review, "IsmctsBot", Spy)
    state = wide_position(game_id, least=12)
    eng = engine(game_id)
    view = seat_view(state)
    g = eng.load(state)
    seat = view["view_of"]
    played = eng.legal_actions(g)[-1]
    task = {
        "index": 0,
        "seat": seat,
        "view": view,
        "played": eng.action_to_json(g, seat, played),
        "seed": 1,
    }
    review.review_task(task, Budget(iterations=16))
    assert len(results) == 1 and len(results[0].options) >= 12
    assert all(o.visits > 0 for o in results[0].options)


def test_a_learned_search_on_a_time_budget_takes_its_models_prior(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A model may name a root prior for time budgets (`Model.prior`: Fora de Prumo's file
    names 1.0, docs/model.md): the root's options ranked by the model one ply later, searched
    best first and only the best few. An iteration budget keeps the game's greedy prior, a bot
    given its own constant keeps it, a model without a prior (Architectura's) gives none."""
    fdp, arch = engine("fora-de-prumo"), engine("architectura")
    fdp_model, arch_model = model_for(fdp), model_for(arch)
    assert fdp_model is not None and arch_model is not None
    assert fdp_model.prior == 1.0 and arch_model.prior is None
    timed = learned_search(Budget(time_ms=100))
    assert timed.prior(fdp) == (1.0, model_ranking)
    assert timed.prior(arch) == (0.0, greedy_ranking)
    widening, most = info("fora-de-prumo").bot_prior
    assert LEVELS["medium"].iterations == most  # medium is the largest level it serves
    assert learned_search(LEVELS["medium"]).prior(fdp) == (widening, greedy_ranking)
    assert learned_search(Budget(time_ms=100), 0.0).prior(fdp) == (0.0, greedy_ranking)
    # on the virtual clock (a time budget made deterministic): a few options, the plain many
    view = seat_view(wide_position("fora-de-prumo", least=30))
    slow_search(monkeypatch, fdp, 0.0001)
    res = learned_search(Budget(time_ms=100)).choose(view, 1)
    searched = sum(1 for o in res.options if o.visits)
    assert res.iterations >= 10 and searched <= max(2, math.ceil(math.sqrt(res.iterations + 1)))
    plain = learned_search(Budget(time_ms=100), 0.0).choose(view, 1)
    assert sum(1 for o in plain.options if o.visits) > searched
