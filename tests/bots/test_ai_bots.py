"""The bots: legal, deterministic for a seed, fair (they read only the seat's view)."""

from __future__ import annotations

import random
import time

import pytest
from ai_support import hide_differently, lab_state, midgame, play_checked, slow_search

import engine.architectura as arch
from ai.bots import (
    DEADLINE_CHECK_STEPS,
    LEVELS,
    Bot,
    Budget,
    GreedyBot,
    IsmctsBot,
    RandomBot,
    make_bot,
    margin,
    parse_bot_spec,
)
from ai.service import suggest
from engine.canonical import digest
from engine.errors import IllegalDecision, SetupError


def view_of(state: dict[str, object], seat: int | None = None) -> dict[str, object]:
    g = arch.load(state)
    s = arch.current_player(g) if seat is None else seat
    assert s is not None
    return arch.player_view(arch.game_to_json(g), s)


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot(), IsmctsBot(Budget(iterations=60))])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_bot_chooses_a_legal_option(bot: object, seed: int) -> None:
    state = midgame(seed, decisions=6 + seed)
    g = arch.load(state)
    res = bot.choose(view_of(state), seed)  # type: ignore[attr-defined]
    assert res.action in arch.legal_actions(g)


def test_ismcts_is_deterministic_for_a_seed_and_varies_with_it() -> None:
    state = midgame(11)
    view = view_of(state)
    bot = IsmctsBot(Budget(iterations=150))
    a = bot.choose(view, 5)
    b = bot.choose(view, 5)
    assert a.action == b.action
    assert [(o.action, o.visits, o.value) for o in a.options] == [
        (o.action, o.visits, o.value) for o in b.options
    ]
    assert a.iterations == 150
    assert sum(o.visits for o in a.options) == 150
    others = [bot.choose(view, s) for s in range(6, 12)]
    assert any([o.visits for o in r.options] != [o.visits for o in a.options] for r in others), (
        "the seed must matter"
    )


@pytest.mark.parametrize("seed", [3, 21, 40])
def test_hidden_information_does_not_change_the_suggestion(seed: int) -> None:
    """Fair by construction: only what the seat cannot see differs, and with the same seed
    the suggestion and every statistic are identical."""
    state = midgame(seed, decisions=7)
    seat = arch.legal_decisions(state)["pending"]["seat"]
    other = hide_differently(state, seat, random.Random(seed))
    assert arch.validate(other) == []
    assert other != state
    assert other["seats"][1 - seat]["hand"] != state["seats"][1 - seat]["hand"]
    # the view (information set) is the same, and the service's answer too
    assert digest(view_of(state, seat)) == digest(view_of(other, seat))
    for bot in ("ismcts", "greedy", "random"):
        a = suggest(state, seat, bot=bot, iterations=200 if bot == "ismcts" else None, seed=9)
        b = suggest(other, seat, bot=bot, iterations=200 if bot == "ismcts" else None, seed=9)
        assert a["decision"] == b["decision"]
        assert a["stats"]["options"] == b["stats"]["options"]
        assert a["stats"]["iterations"] == b["stats"]["iterations"]


def test_what_the_seat_sees_does_change_the_information_set() -> None:
    """Control for the fairness test: moving a card from the seat's own hand to its deck
    is visible to the seat, so the view (and the cache key) changes."""
    state = midgame(3, decisions=7)
    seat = arch.legal_decisions(state)["pending"]["seat"]
    other = hide_differently(state, seat, random.Random(3))
    s = other["seats"][seat]
    s["hand"][0], s["deck"][0] = s["deck"][0], s["hand"][0]
    other["pending"] = None
    other = arch.game_to_json(arch.load(other))
    assert digest(view_of(state, seat)) != digest(view_of(other, seat))


def test_greedy_takes_the_best_immediate_score_difference() -> None:
    state = midgame(5, decisions=9)
    view = view_of(state)
    seat = view["view_of"]
    res = GreedyBot().choose(view, 0)
    g = arch.load(state)
    best = None
    for a in arch.legal_actions(g):
        h = g.copy()
        arch.apply_action(h, a)
        m = margin(arch, h, seat)  # type: ignore[arg-type]
        best = m if best is None else max(best, m)
    chosen = next(o for o in res.options if o.action == res.action)
    assert best is not None and chosen.value == best
    assert all(o.value is not None and o.value <= best for o in res.options)


def test_ismcts_searches_other_seats_decisions_with_availability_counts() -> None:
    """Laboratory: after seat 0 plays it, seat 1 chooses a card of its hidden hand. Those
    choices are seat 1's edges in the tree, and since seat 1's hand differs between sampled
    worlds, they are available in some iterations only (availability < parent visits)."""
    state = lab_state()
    view = view_of(state, 0)
    bot = IsmctsBot(Budget(iterations=400))
    res = bot.choose(view, 1)
    g = arch.load(state)
    lab_iid = g.inst.index["blue.laboratory"]
    assert bot.last_root is not None
    lab_children = [
        ch
        for (mover, a), ch in bot.last_root.children.items()
        if mover == 0 and a[0] == "play" and a[1] == lab_iid
    ]
    assert lab_children
    visited = max(lab_children, key=lambda ch: ch.visits)
    assert visited.visits > 1
    replies = visited.children
    assert replies and all(mover == 1 for mover, _ in replies)
    assert all(a[0] == "play_face_down" for _, a in replies)
    assert any(ch.available < visited.visits - 1 for ch in replies.values())
    assert res.action in arch.legal_actions(g)


def test_the_other_seat_gets_suggestions_for_its_laboratory_decision() -> None:
    state = lab_state()
    g = arch.load(state)
    lab = next(a for a in arch.legal_actions(g) if g.name(a[1]) == "blue.laboratory")
    state, _ = arch.apply(state, arch.action_to_json(g, 0, lab))
    pending = state["pending"]
    assert pending["seat"] == 1 and pending["kind"] == "laboratory"
    out = suggest(state, 1, iterations=80, seed=2)
    assert out["decision"] in pending["options"]
    assert out["decision"]["type"] == "play_face_down"
    with pytest.raises(IllegalDecision) as e:
        suggest(state, 0, iterations=80)
    assert e.value.code == "not_your_decision"


def test_single_option_needs_no_search() -> None:
    g = arch.new_game_internal({"seats": 2, "seed": 4})
    rnd = random.Random(4)
    while len(arch.legal_actions(g)) != 1 or arch.is_terminal(g):
        if arch.is_terminal(g):  # pragma: no cover - try another game
            g = arch.new_game_internal({"seats": 2, "seed": rnd.randrange(1000)})
        arch.apply_action(g, rnd.choice(arch.legal_actions(g)))
    seat = arch.current_player(g)
    assert seat is not None
    view = arch.player_view(arch.game_to_json(g), seat)
    res = IsmctsBot(Budget(iterations=1000)).choose(view, 0)
    assert res.action == arch.legal_actions(g)[0]
    assert res.iterations == 0


def test_time_budget_stops_the_search() -> None:
    view = view_of(midgame(8))
    t0 = time.perf_counter()
    res = IsmctsBot(Budget(time_ms=60)).choose(view, 0)
    elapsed = (time.perf_counter() - t0) * 1000
    assert res.iterations >= 1
    # It stops: one iteration past the deadline at most; the slack is for a loaded machine
    # (a search without the deadline would run its 20 s safety limit).
    assert elapsed < 60 + 5000
    both = IsmctsBot(Budget(iterations=5, time_ms=10_000)).choose(view, 0)
    assert both.iterations == 5


def test_finished_game_and_wrong_seat_are_refused() -> None:
    g = arch.new_game_internal({"seats": 2, "seed": 2})
    rnd = random.Random(2)
    while not arch.is_terminal(g):
        arch.apply_action(g, rnd.choice(arch.legal_actions(g)))
    with pytest.raises(IllegalDecision) as e:
        RandomBot().choose(arch.player_view(arch.game_to_json(g), 0), 0)
    assert e.value.code == "game_over"
    state = midgame(4)
    seat = arch.legal_decisions(state)["pending"]["seat"]
    with pytest.raises(IllegalDecision) as e2:
        GreedyBot().choose(view_of(state, 1 - seat), 0)
    assert e2.value.code == "not_your_decision"


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"iterations": 0}, {"time_ms": -1}, {"iterations": True}, {"time_ms": 10**9}],
)
def test_bad_budgets_are_refused(kwargs: dict[str, int]) -> None:
    with pytest.raises(SetupError) as e:
        Budget(**kwargs)
    assert e.value.code == "invalid_budget"


def test_bot_specs_and_levels() -> None:
    assert parse_bot_spec("greedy")[1].name == "greedy"
    b = parse_bot_spec("ismcts:250ms")[1]
    assert isinstance(b, IsmctsBot) and b.budget == Budget(time_ms=250)
    b = parse_bot_spec("ismcts:40it")[1]
    assert isinstance(b, IsmctsBot) and b.budget == Budget(iterations=40)
    for level, budget in LEVELS.items():
        b = parse_bot_spec(level)[1]
        assert isinstance(b, IsmctsBot) and b.budget == budget
    # MAST rollouts are a benchmark's variant now (benchmarks/variants.py), no bot spec
    for bad in ("ismcts:fast", "ismcts:mast", "ismcts:40it:fast", "ismcts:40it:mast"):
        with pytest.raises(ValueError):
            parse_bot_spec(bad)
    with pytest.raises(SetupError):
        make_bot("minimax")


def test_an_exploring_bot_plays_at_random_as_often_as_told_and_is_seeded() -> None:
    """`<spec>/explore:<p>` (self-play for training, ai/train.py): p 0 is the bot itself, p 1
    the random bot, decision by decision; between them a seeded mix of the two."""
    state = arch.game_to_json(arch.new_game_internal({"seats": 2, "seed": 11}))
    view = view_of(state)
    greedy, rand = parse_bot_spec("greedy")[1], RandomBot()
    never = parse_bot_spec("greedy/explore:0")[1]
    always = parse_bot_spec("greedy/explore:1")[1]
    half = parse_bot_spec("greedy/explore:0.5")[1]
    own = [greedy.choose(view, seed).action for seed in range(40)]
    randoms = [rand.choose(view, seed).action for seed in range(40)]
    assert [never.choose(view, seed).action for seed in range(40)] == own
    assert [always.choose(view, seed).action for seed in range(40)] == randoms
    mixed = [half.choose(view, seed).action for seed in range(40)]
    assert mixed == [half.choose(view, seed).action for seed in range(40)]
    took = [m == r != o for m, o, r in zip(mixed, own, randoms, strict=True)]
    kept = [m == o != r for m, o, r in zip(mixed, own, randoms, strict=True)]
    assert any(took) and any(kept)
    for bad in ("greedy/explore:2", "greedy/explore:x", "greedy/explore:-0.1", "nobot/explore:0"):
        with pytest.raises(ValueError):
            parse_bot_spec(bad)


def test_ismcts_plays_whole_advanced_games() -> None:
    """Every kind of decision (effects, protection choices, Laboratory, Guesthouse...) can
    come up in the advanced game; ISMCTS must finish games against the random bot."""
    for deal in (1, 2):
        scores, count = play_checked(
            deal, [IsmctsBot(Budget(iterations=15)), RandomBot()], "advanced"
        )
        assert len(scores["seats"]) == 2 and count[0] > 0 and count[1] > 0


@pytest.mark.parametrize("seats", [3, 4])
def test_ismcts_plays_three_and_four_seat_games(seats: int) -> None:
    bots: list[Bot] = [IsmctsBot(Budget(iterations=10)), *[GreedyBot()] * (seats - 1)]
    scores, count = play_checked(3, bots, "advanced")
    assert len(scores["seats"]) == seats and all(c > 0 for c in count)


def check_tree(bot: IsmctsBot, iterations: int) -> None:
    """Only completed iterations are in the tree: every node was visited, root visits add
    up to the iterations, no availability count is below its visits."""
    root = bot.last_root
    assert root is not None
    assert sum(ch.visits for ch in root.children.values()) == iterations
    stack = list(root.children.values())
    while stack:
        nd = stack.pop()
        assert nd.visits >= 1 and nd.available >= nd.visits
        stack.extend(nd.children.values())


def test_the_deadline_holds_inside_a_long_rollout(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time budget is met within a few engine steps even when one iteration takes far longer
    (the clock is read every DEADLINE_CHECK_STEPS steps, in the descent and in the rollout);
    the cut iteration is discarded. The clock is virtual: 2 ms per engine step."""
    # a 4-seat game has hundreds of steps: >0.5 s per iteration
    slow = slow_search(monkeypatch, arch, 0.002)
    clock = slow.clock
    overrun = DEADLINE_CHECK_STEPS * slow.delay
    state = arch.new_game({"seats": 4, "seed": 3})
    view = view_of(state)
    bot = IsmctsBot(Budget(time_ms=50))
    t0 = clock.now
    res = bot.choose(view, 0)
    assert clock.now - t0 <= 0.050 + overrun + 1e-9, clock.now - t0
    assert res.iterations == 0 and slow.steps > 0  # one iteration begun, none finished
    assert res.action in arch.legal_actions(arch.load(state))
    assert not res.truncated  # a time budget that ran its time is not "truncated"
    check_tree(bot, 0)
    assert bot.last_root is not None and not bot.last_root.children
    # a deadline passed by the caller (the request's) cuts an iteration budget: truncated
    deadline = clock.now + 0.06
    res = IsmctsBot(Budget(iterations=5)).choose(view, 0, deadline=deadline)
    assert clock.now - deadline <= overrun + 1e-9
    assert res.truncated and res.iterations == 0


def test_a_cut_iteration_leaves_the_tree_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """Several iterations complete, the one running at the deadline does not count."""
    slow_search(monkeypatch, arch, 0.0002)
    view = view_of(midgame(8))
    bot = IsmctsBot(Budget(time_ms=150))
    res = bot.choose(view, 1)
    assert res.iterations >= 1
    check_tree(bot, res.iterations)
    assert sum(o.visits for o in res.options) == res.iterations
