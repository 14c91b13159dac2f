"""The search variants measured and not kept (benchmarks/variants.py, docs/bots.md "Tried"):
greedy rollouts (epsilon-greedy on the greedy bot's one-ply margin, for the first `steps`
choices of a rollout, on at most `sample` options a step), MAST rollouts and truncated
rollouts, plugged into `IsmctsBot` as evaluators. Each answers as it did inside `ai/bots.py`
(5928220, tests/data/bots_5928220.py) for the same seed; deterministic, blind to what the seat
cannot see, held to the deadline. Every registered game."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from ai_support import (
    answer,
    hide_differently,
    midgame,
    old_bots,
    same_answer_behind_the_view,
    seat_view,
    slow_search,
    stats,
    wide_position,
)

import benchmarks.variants
import engine.architectura as arch
from ai.bots import DEADLINE_CHECK_STEPS, Budget, IsmctsBot, margin
from ai.evaluators import RandomRollout
from benchmarks.variants import GreedyRollout, MastBot, MastRollout, variant_bot
from engine.canonical import digest
from engine.games import GAMES, engine

VARIANTS = [
    {"mast_eps": 0.2},
    {"mast_eps": 0.2, "rollout_depth": 4},
    {"rollout_depth": 4, "margin_scale": 6.0},
    {"rollout_depth": 0},
    {"greedy_eps": 0.3, "greedy_steps": 3, "greedy_sample": 4},
    {"greedy_eps": 0.1, "greedy_sample": 3, "margin_weight": 0.0, "exploration": 0.4},
    {"margin_weight": 0.3, "prior_widening": 2.0},
]


@pytest.mark.parametrize("game_id", list(GAMES))
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(o))
def test_a_variant_answers_as_it_did_inside_the_bot(game_id: str, options: dict[str, Any]) -> None:
    """The same options given to 5928220's `IsmctsBot` and to `variant_bot`: the same move and
    statistics for the same seed."""
    old = old_bots()
    old_bot = old.IsmctsBot(old.Budget(iterations=25), **options)
    new_bot = variant_bot(Budget(iterations=25), options)
    for k in range(3):
        view = seat_view(wide_position(game_id, least=2 + 3 * k))
        assert answer(new_bot.choose(view, k)) == answer(old_bot.choose(view, k))
    if "mast_eps" in options:
        assert isinstance(new_bot, MastBot) and new_bot.last_mast == old_bot.last_mast


def test_variant_bot_without_variants_is_the_default_search() -> None:
    bot = variant_bot(Budget(iterations=10), {})
    assert type(bot) is IsmctsBot and bot.evaluator == RandomRollout(0.1)
    with pytest.raises(ValueError, match="exclude"):
        variant_bot(Budget(iterations=10), {"mast_eps": 0.2, "greedy_eps": 0.2})
    with pytest.raises(TypeError):
        variant_bot(Budget(iterations=10), {"mast": 0.2})


class Recorder:
    """A game's engine that records the rollout's own steps (on `target`) with the position
    before each, and the options the greedy evaluation applied (to copies) in between."""

    def __init__(self, eng: Any, target: Any) -> None:
        self.eng, self.target = eng, target
        self.steps: list[tuple[Any, Any, list[Any]]] = []  # position before, action, evaluated
        self.evaluated: list[Any] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self.eng, name)

    def apply_action(self, g: Any, a: Any) -> None:
        if g is self.target:
            self.steps.append((g.copy(), a, self.evaluated))
            self.evaluated = []
        else:
            self.evaluated.append(a)
        self.eng.apply_action(g, a)


def one_ply(eng: Any, g: Any, a: Any, seat: int) -> int:
    h = g.copy()
    eng.apply_action(h, a)
    return margin(eng, h, seat)


def play_out(game_id: str, greedy: GreedyRollout, seed: int) -> list[tuple[Any, Any, list[Any]]]:
    eng = engine(game_id)
    g = eng.load(wide_position(game_id))
    rec = Recorder(eng, g)
    reward = greedy.evaluate(rec, g, random.Random(seed), math.inf)  # type: ignore[arg-type]
    assert reward is not None and g.over
    return rec.steps


@pytest.mark.parametrize("game_id", list(GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_with_eps_0_every_choice_is_a_best_one_ply_margin(game_id: str, seed: int) -> None:
    """Every rollout step with a choice evaluates every option and takes one whose one-ply
    margin, for the seat deciding, is the largest."""
    eng = engine(game_id)
    chosen = 0
    for before, a, evaluated in play_out(game_id, GreedyRollout(0.0), seed):
        opts = eng.legal_actions(before)
        if len(opts) == 1:
            assert not evaluated
            continue
        chosen += 1
        seat = eng.current_player(before)
        assert evaluated == list(opts)
        best = max(one_ply(eng, before, o, seat) for o in opts)
        assert one_ply(eng, before, a, seat) == best
    assert chosen >= 5


@pytest.mark.parametrize("game_id", list(GAMES))
def test_only_the_first_k_choices_on_a_sample_of_m_options(game_id: str) -> None:
    """`steps`: the first k choices are greedy, the later ones random (nothing evaluated);
    `sample`: at most m options evaluated a step, distinct, the best of them taken."""
    eng = engine(game_id)
    k, m = 5, 3
    choices = [s for s in play_out(game_id, GreedyRollout(0.0, k, m), 4) if s[2] or _wide(eng, s)]
    assert len(choices) > k
    for i, (before, a, evaluated) in enumerate(choices):
        opts = eng.legal_actions(before)
        if i >= k:
            assert not evaluated
            continue
        seat = eng.current_player(before)
        assert len(evaluated) == min(m, len(opts)) == len(set(evaluated))
        assert set(evaluated) <= set(opts) and a in evaluated
        assert one_ply(eng, before, a, seat) == max(
            one_ply(eng, before, o, seat) for o in evaluated
        )


def _wide(eng: Any, step: tuple[Any, Any, list[Any]]) -> bool:
    return len(eng.legal_actions(step[0])) > 1


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_greedy_rollout_search_is_deterministic_and_reads_only_the_view(game_id: str) -> None:
    options = {"greedy_eps": 0.3, "greedy_steps": 6, "greedy_sample": 4}
    bot = variant_bot(Budget(iterations=30), options)
    first = same_answer_behind_the_view(bot, game_id, redeals=1)
    assert first.iterations == 30
    # the option changes the search (control), and at 1 it is off: the default search
    view = seat_view(wide_position(game_id))
    plain = IsmctsBot(Budget(iterations=30)).choose(view, 5)
    assert stats(plain) != stats(first)
    off = variant_bot(Budget(iterations=30), {"greedy_eps": 1.0})
    assert stats(off.choose(view, 5)) == stats(plain)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_deadline_holds_inside_a_greedy_evaluation(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock is read every DEADLINE_CHECK_STEPS engine steps, the greedy evaluation's
    copies included: a time budget ends within that many steps of its end, and the cut
    iteration leaves nothing in the tree."""
    slow = slow_search(monkeypatch, engine(game_id), 0.002, benchmarks.variants)
    clock = slow.clock
    overrun = DEADLINE_CHECK_STEPS * slow.delay
    view = seat_view(wide_position(game_id, least=12))
    # a full greedy rollout outlasts 20 ms; two greedy choices a rollout let some complete
    for budget_ms, k, least in ((20, None, 0), (1500, 2, 1)):
        bot = IsmctsBot(Budget(time_ms=budget_ms), evaluator=GreedyRollout(0.0, k))
        t0 = clock.now
        res = bot.choose(view, 0)
        assert clock.now - t0 <= budget_ms / 1000 + overrun + 1e-9, clock.now - t0
        assert res.iterations >= least and not res.truncated
        root = bot.last_root
        assert root is not None
        assert sum(ch.visits for ch in root.children.values()) == res.iterations
    # a caller's deadline cuts an iteration budget: truncated
    deadline = clock.now + 0.05
    bot = IsmctsBot(Budget(iterations=50), evaluator=GreedyRollout(0.0))
    res = bot.choose(view, 0, deadline=deadline)
    assert clock.now - deadline <= overrun + 1e-9
    assert res.truncated and res.iterations < 50


class RecordingEngine:
    """Architectura that records, at every step, the seat deciding, its options and the choice."""

    def __init__(self) -> None:
        self.steps: list[tuple[int | None, list[Any], Any]] = []

    def __getattr__(self, name: str) -> object:
        return getattr(arch, name)

    def apply_action(self, g: Any, a: Any) -> None:
        self.steps.append((arch.current_player(g), list(arch.legal_actions(g)), a))
        arch.apply_action(g, a)


def view_of(state: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    g = arch.load(state)
    s = arch.current_player(g) if seat is None else seat
    assert s is not None
    return arch.player_view(arch.game_to_json(g), s)


def mast_bot(budget: Budget) -> MastBot:
    bot = variant_bot(budget, {"mast_eps": 0.2})
    assert isinstance(bot, MastBot)
    return bot


def check_table(bot: MastBot, iterations: int) -> None:
    """Only completed iterations are in the tree and the MAST table: each counts a (seat,
    action) once at most, and the root move it took at least once."""
    root, table = bot.last_root, bot.last_mast
    assert root is not None and table is not None
    assert sum(ch.visits for ch in root.children.values()) == iterations
    assert all(1 <= n <= iterations for t in table for _, n in t.values())
    for (mover, a), ch in root.children.items():
        assert table[mover][a][1] >= ch.visits
    if iterations == 0:
        assert not any(table)


@pytest.mark.parametrize("seed", [6, 7])
def test_mast_rollouts_take_the_best_mean_of_the_seat_deciding(seed: int) -> None:
    """With epsilon 0, every rollout step with a choice takes an option whose MAST mean, for
    the seat deciding, is the largest (an action the table has not seen counts 0.5), and the
    (seat, action) pairs taken are reported for the update."""
    g = arch.load(midgame(seed))
    rnd = random.Random(seed)
    table: list[dict[Any, list[float]]] = [{}, {}]
    h = g.copy()
    while not h.over:  # made-up means for about half the actions of one random playout
        seat = arch.current_player(h)
        assert seat is not None
        for a in arch.legal_actions(h):
            if rnd.random() < 0.5:
                table[seat][a] = [rnd.random(), 1.0]
        arch.apply_action(h, rnd.choice(arch.legal_actions(h)))
    rec = RecordingEngine()
    rollout = MastRollout(0.0)
    rollout.table = table
    reward = rollout.evaluate(rec, g, random.Random(1), math.inf)  # type: ignore[arg-type]
    assert reward is not None and g.over

    def mean(seat: int, a: Any) -> float:
        st = table[seat].get(a)
        return st[0] if st is not None else 0.5

    chosen = [(s, opts, a) for s, opts, a in rec.steps if len(opts) > 1]
    assert chosen and rollout.played == [(s, a) for s, _, a in chosen]
    for s, opts, a in chosen:
        assert s is not None and mean(s, a) == max(mean(s, o) for o in opts)


def test_mast_search_is_deterministic_and_keeps_nothing_between_searches() -> None:
    view = view_of(midgame(12))
    bot = mast_bot(Budget(iterations=120))
    a = bot.choose(view, 3)
    first = bot.last_mast
    bot.choose(view_of(midgame(13)), 3)  # another search in between
    b = bot.choose(view, 3)
    assert stats(a) == stats(b)
    assert bot.last_mast == first and bot.last_mast is not first
    check_table(bot, 120)


@pytest.mark.parametrize("seed", [3, 21])
def test_mast_search_reads_only_the_view(seed: int) -> None:
    """The MAST table is filled from worlds sampled from the view: states that differ only in
    what the seat cannot see give the same decision and statistics for the same seed."""
    state = midgame(seed, decisions=7)
    seat = arch.legal_decisions(state)["pending"]["seat"]
    other = hide_differently(state, seat, random.Random(seed))
    assert digest(view_of(state, seat)) == digest(view_of(other, seat))
    bot = mast_bot(Budget(iterations=150))
    a = bot.choose(view_of(state, seat), 9)
    table = bot.last_mast
    b = bot.choose(view_of(other, seat), 9)
    assert a.action == b.action and stats(a) == stats(b)
    assert table == bot.last_mast


def test_a_cut_iteration_leaves_no_trace_in_the_mast_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deadline inside a long rollout: no iteration completes, the table stays empty;
    with shorter steps some complete and the one cut is not counted."""
    slow = slow_search(monkeypatch, arch, 0.002, benchmarks.variants)
    view = view_of(arch.new_game({"seats": 4, "seed": 3}))
    bot = mast_bot(Budget(time_ms=50))
    t0 = slow.clock.now
    res = bot.choose(view, 0)
    assert slow.clock.now - t0 <= 0.050 + DEADLINE_CHECK_STEPS * slow.delay + 1e-9
    assert res.iterations == 0 and slow.steps > 0
    check_table(bot, 0)
    slow.delay = 0.0002
    bot = mast_bot(Budget(time_ms=150))
    res = bot.choose(view_of(midgame(8)), 1)
    assert res.iterations >= 1
    check_table(bot, res.iterations)


def test_the_phase_evaluator_plays_out_near_the_end_and_asks_the_model_before() -> None:
    """`PhaseEvaluator` (docs/model.md, "Tried, not kept"): with at most `cards` cards left
    in all hands and decks, a random playout's win shares; before that, the served model's."""
    from ai.model import ModelEvaluator
    from benchmarks.variants import PhaseEvaluator

    eng = engine("architectura")
    world = eng.load(midgame(3))
    left = sum(map(len, world.hands)) + sum(map(len, world.decks))
    model = ModelEvaluator(alone=True).for_search(eng)
    judged = model.evaluate(eng, world.copy(), random.Random(1), math.inf)
    early = PhaseEvaluator(ModelEvaluator(alone=True), left - 1).for_search(eng)
    assert early.evaluate(eng, world.copy(), random.Random(1), math.inf) == judged
    late = PhaseEvaluator(ModelEvaluator(alone=True), left).for_search(eng)
    played = late.evaluate(eng, world.copy(), random.Random(1), math.inf)
    again = RandomRollout(margin_weight=0.0).evaluate(eng, world.copy(), random.Random(1), math.inf)
    assert played == again != judged
    assert played is not None and sum(played) == pytest.approx(1.0)
