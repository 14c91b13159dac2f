"""benchmarks/inference.py and the seer (benchmarks/variants.py), the measurements of what
guessing hidden hands is worth (docs/model.md, "Weighting sampled worlds"): the seer deals
the true hands, the weighting favours hands its choice model makes likely, and both bots
search only worlds consistent with their seat's view."""

from __future__ import annotations

import math
import random

from ai.base import Budget
from ai.tournament import play_game
from benchmarks import inference, variants
from engine.games import engine

ARCH = engine("architectura")


def test_a_hand_holding_a_better_card_than_the_one_played_is_less_likely() -> None:
    """Card 0 was played. A hand holding card 9 (worth more) was less likely to play it than
    a hand of cards worth less; beta 0 weighs every hand alike."""
    values = {0: 0.5, 1: 0.2, 2: 0.3, 9: 0.9}
    hands, w = inference.hand_weights([1, 2, 9], 2, 0, False, values, 10.0)
    weight = dict(zip(hands, w, strict=True))
    assert weight[(1, 2)] > weight[(1, 9)] and weight[(1, 2)] > weight[(2, 9)]
    assert math.isclose(weight[(1, 2)], 1 / (1 + math.exp(-3) + math.exp(-2)))
    _, even = inference.hand_weights([1, 2, 9], 2, 0, False, values, 0.0)
    assert all(math.isclose(x, 1 / 3) for x in even)
    # drawn after the play: each card of the hand in turn is the one it did not choose from
    _, drew = inference.hand_weights([1, 2, 9], 2, 0, True, values, 10.0)
    assert math.isclose(drew[0], (1 / (1 + math.exp(-3)) + 1 / (1 + math.exp(-2))) / 2)


def test_the_seer_deals_the_true_hand_and_the_weighted_sampler_a_possible_one() -> None:
    g = ARCH.new_game_internal({"seats": 2, "seed": 3})
    view = ARCH.game_view(g, 0)
    inner = ARCH.WorldSampler(view)
    seer = variants.SeerSampler(inner, [list(h) for h in g.hands])
    pool = sorted(g.hands[1] + g.decks[1])
    rnd = random.Random(1)
    for _ in range(5):
        world = seer.sample(rnd)
        assert world.hands[1] == g.hands[1] and sorted(world.hands[1] + world.decks[1]) == pool
        assert world.hands[0] == g.hands[0]  # the viewer's own hand is its own
    only = tuple(sorted(pool[:3]))  # a weighting that allows one hand only
    weighted = inference.InferenceSampler(inner, {1: ([only], [1.0])})
    for _ in range(5):
        world = weighted.sample(rnd)
        assert tuple(world.hands[1]) == only and sorted(world.hands[1] + world.decks[1]) == pool


def test_self_determinization_deals_the_viewers_own_hand_again_in_its_share_of_worlds() -> None:
    """`SelfDealSampler` (docs/model.md, "Self-determinization"): at p = 1 every world deals
    the viewer a hand from its own unseen cards, at p = 0 none; the other seats' as before."""
    g = ARCH.new_game_internal({"seats": 2, "seed": 3})
    inner = ARCH.WorldSampler(ARCH.game_view(g, 0))
    mine, theirs = sorted(g.hands[0] + g.decks[0]), sorted(g.hands[1] + g.decks[1])
    rnd = random.Random(2)
    dealt = [variants.SelfDealSampler(inner, 1.0).sample(rnd) for _ in range(20)]
    assert all(sorted(w.hands[0] + w.decks[0]) == mine for w in dealt)
    assert all(sorted(w.hands[1] + w.decks[1]) == theirs for w in dealt)
    assert len({tuple(sorted(w.hands[0])) for w in dealt}) > 5  # not the true hand each time
    kept = [variants.SelfDealSampler(inner, 0.0).sample(rnd) for _ in range(20)]
    assert all(w.hands[0] == g.hands[0] for w in kept)
    bot = variants.self_deal_bot(Budget(iterations=20), 0.5)
    assert bot.choose(ARCH.game_view(g, g.seat), 1).iterations == 20


def test_the_inference_bot_plays_whole_games_from_the_last_plays() -> None:
    """Its weighting runs (the other seat has played) and every choice is legal."""
    bot = inference.inference_bot(Budget(iterations=20), 10.0)
    inference.LAST_PLAY.clear()
    shares, _, count = play_game(1, [bot, bot], observe=inference.record_play)
    assert math.isclose(sum(shares), 1.0) and min(count) > 5
    assert set(inference.LAST_PLAY) == {0, 1}


def test_the_probe_scores_true_hands_and_beta_0_tells_nothing() -> None:
    """`python -m benchmarks.inference`'s score: at beta 0 every hand weighs alike, so the
    true hand scores exactly the uniform deal's log-ratio, 0."""
    gains = inference.hand_information(1, "model:10it", [0.0, 20.0])
    assert len(gains[0.0]) == len(gains[20.0]) > 5
    assert all(math.isclose(x, 0.0, abs_tol=1e-12) for x in gains[0.0])
    assert any(abs(x) > 1e-6 for x in gains[20.0])
    assert ARCH.game_view.__module__ != "benchmarks.inference"  # the wrap is undone


def test_the_oracle_scores_the_true_hand_against_other_hands() -> None:
    """`python -m benchmarks.inference --oracle`: with no other hand the true hand is scored
    against itself (0 exactly); with some, each score is at most log(hands), and the plays
    scored are a sample of the games' plays."""
    alone = inference.oracle_information(1, alternatives=0, runs=2)
    assert len(alone) == 3 and all(x == 0.0 for x in alone)
    scored = inference.oracle_information(1, alternatives=3, runs=4)
    assert len(scored) == 3 and all(x <= math.log(4) + 1e-12 for x in scored)
    # the hands are dealt in: some other hand changes the chance of the play
    assert any(x != 0.0 for x in scored), scored
