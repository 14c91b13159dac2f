"""Search variants measured and not kept (docs/bots.md, the "Tried" sections), as evaluators
and a bot subclass plugged into `ai.mcts.IsmctsBot`, for the benchmark commands that measured
them (`benchmarks.search_variants`, `benchmarks.ismcts_strength --options`):

- truncated rollouts (`rollout_depth`, `margin_scale`): at most `depth` steps, then each seat's
  score margin as the position stands, `0.5 + 0.5 * tanh(margin / scale)`;
- greedy rollouts (`greedy_eps`, `greedy_steps`, `greedy_sample`): epsilon-greedy on the greedy
  bot's one-ply margin;
- MAST rollouts (`mast_eps`): epsilon-greedy on the search's mean reward per seat and action
  (Finnsson & Bjornsson 2008; with ISMCTS: Powley, Whitehouse & Cowling 2014);
- with the learned model (docs/model.md, "Tried"): a few random steps before the model judges
  a leaf (`SteppedModel`), and the model as the root's prior (`model_ranking`), both built by
  `learned_variant_bot`.

`variant_bot(budget, options)` builds the bot from the keyword arguments `IsmctsBot` took
before they left it (5928220), with the same answers for the same seed.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace
from typing import Any, TypeVar

from ai.base import (
    DEADLINE_CHECK_STEPS,
    Action,
    Budget,
    Game,
    SearchResult,
    Start,
    option_margins,
    start_of,
)
from ai.evaluators import Evaluator, RandomRollout, final_rewards, for_search
from ai.mcts import Descent, IsmctsBot, Node
from ai.model import Mix, ModelEvaluator, exploration_of, learned_search, model_for, model_ranking
from engine.games import GameModule, engine

# MAST's probability of a random option (the measured setting) and of a greedy rollout's
MAST_EPS = 0.2
MAX_ROLLOUT_CHOICES = 1 << 30  # a greedy rollout without `steps`: every choice


class Rollout:
    """A playout to the end whose every step is `choose`'s (uniformly random here; a forced
    step draws too); with a `depth`, cut after that many steps and scored by `margin_rewards`.
    The clock is read every DEADLINE_CHECK_STEPS steps."""

    def __init__(
        self, margin_weight: float = 0.1, depth: int | None = None, scale: float = 12.0
    ) -> None:
        self.margin_weight, self.depth, self.scale = margin_weight, depth, scale

    def start(self) -> None:
        """Called before each playout."""

    def choose(
        self, eng: GameModule, g: Game, opts: list[Action], rnd: random.Random, deadline: float
    ) -> Action | None:
        """The step to take, or None when `deadline` passed while choosing."""
        return opts[rnd.randrange(len(opts))]

    def evaluate(
        self, eng: GameModule, g: Game, rnd: random.Random, deadline: float
    ) -> list[float] | None:
        self.start()
        clock = time.perf_counter
        steps = 0
        while not g.over:
            if self.depth is not None and steps >= self.depth:
                return margin_rewards(eng, g, self.scale)
            a = self.choose(eng, g, eng.legal_actions(g), rnd, deadline)
            if a is None:
                return None
            eng.apply_action(g, a)
            steps += 1
            if steps % DEADLINE_CHECK_STEPS == 0 and clock() >= deadline:
                return None
        return final_rewards(eng, g, self.margin_weight)


def margin_rewards(eng: GameModule, g: Game, scale: float) -> list[float]:
    """A truncated playout's rewards: `0.5 + 0.5 * tanh(margin / scale)` per seat, its score
    margin over the best other seat as the position stands."""
    totals = [s["total"] for s in eng.tally(g)["seats"]]
    return [
        0.5 + 0.5 * math.tanh((t - max(totals[:s] + totals[s + 1 :])) / scale)
        for s, t in enumerate(totals)
    ]


class GreedyRollout(Rollout):
    """Greedy rollouts: for the first `steps` choices of a playout (None: all), a random option
    with probability `eps`, else one with the best one-ply margin for the seat deciding
    (`option_margins`, the greedy bot's evaluation) among all options or `sample` of them drawn
    at random, ties at random; random steps after."""

    def __init__(
        self,
        eps: float,
        steps: int | None = None,
        sample: int | None = None,
        margin_weight: float = 0.1,
        depth: int | None = None,
        scale: float = 12.0,
    ) -> None:
        super().__init__(margin_weight, depth, scale)
        self.eps, self.steps, self.sample = eps, steps, sample
        self.left = 0  # the choices of this playout still to be made epsilon-greedily

    def start(self) -> None:
        self.left = self.steps if self.steps is not None else MAX_ROLLOUT_CHOICES

    def choose(
        self, eng: GameModule, g: Game, opts: list[Action], rnd: random.Random, deadline: float
    ) -> Action | None:
        if self.left <= 0 or len(opts) == 1:
            return opts[rnd.randrange(len(opts))]
        self.left -= 1
        if rnd.random() < self.eps:
            return opts[rnd.randrange(len(opts))]
        mover = eng.current_player(g)
        assert mover is not None
        sample = self.sample
        cands = opts if sample is None or len(opts) <= sample else rnd.sample(opts, sample)
        values = option_margins(eng, g, cands, mover, deadline)
        if len(values) < len(cands) or time.perf_counter() >= deadline:
            return None
        best = max(values)
        ties = [a for a, v in zip(cands, values, strict=True) if v == best]
        return ties[0] if len(ties) == 1 else ties[rnd.randrange(len(ties))]


# A MAST table: per seat, action -> [mean reward, count]
Table = list[dict[Action, list[float]]]


class MastRollout(Rollout):
    """MAST rollouts: a step with a choice takes, with probability `eps`, a random option,
    else the best mean in the seat's `table` (the first on a tie; an action not in it counts
    0.5); a forced step draws nothing. The (seat, action) pairs taken are kept in `played`."""

    def __init__(
        self,
        eps: float = MAST_EPS,
        margin_weight: float = 0.1,
        depth: int | None = None,
        scale: float = 12.0,
    ) -> None:
        super().__init__(margin_weight, depth, scale)
        self.eps = eps
        self.table: Table = []
        self.played: list[tuple[int, Action]] = []

    def start(self) -> None:
        self.played = []

    def choose(
        self, eng: GameModule, g: Game, opts: list[Action], rnd: random.Random, deadline: float
    ) -> Action | None:
        if len(opts) == 1:
            return opts[0]
        mover = eng.current_player(g)
        assert mover is not None
        if rnd.random() < self.eps:
            a = opts[rnd.randrange(len(opts))]
        else:
            a = _best_mean(opts, self.table[mover])
        self.played.append((mover, a))
        return a


def _best_mean(opts: list[Action], table: dict[Action, list[float]]) -> Action:
    best_v, best = -1.0, opts[0]
    for o in opts:
        st = table.get(o)
        v = st[0] if st is not None else 0.5
        if v > best_v:
            best_v, best = v, o
    return best


class MastBot(IsmctsBot):
    """ISMCTS with MAST rollouts: the table lives for one search (`last_mast` keeps the last),
    and each completed iteration adds its reward to every (seat, action) it took, in the tree
    or in the rollout, once."""

    def __init__(self, budget: Budget, rollout: MastRollout, **kw: Any) -> None:
        super().__init__(budget, evaluator=rollout, **kw)
        self.rollout = rollout
        self.last_mast: Table | None = None

    def pick(self, start: Start, seed: int, deadline: float | None) -> SearchResult:
        self.rollout.table = [{} for _ in range(start.sampler.base.n)]
        result = super().pick(start, seed, deadline)
        self.last_mast = self.rollout.table
        return result

    def back_up(self, root: Node, descent: Descent, reward: list[float]) -> None:
        super().back_up(root, descent, reward)
        table = self.rollout.table
        for seat, a in {*_edges(root, descent.path), *self.rollout.played}:
            st = table[seat].get(a)
            if st is None:
                table[seat][a] = [reward[seat], 1.0]
            else:  # running mean, count
                st[1] += 1.0
                st[0] += (reward[seat] - st[0]) / st[1]


def _edges(root: Node, path: list[Node]) -> list[tuple[int, Action]]:
    """The (seat, action) edges from `root` along `path`."""
    return [
        next(key for key, ch in parent.children.items() if ch is child)
        for parent, child in zip([root, *path], path, strict=False)
    ]


def variant_bot(budget: Budget, options: dict[str, Any]) -> IsmctsBot:
    """An ISMCTS bot from `IsmctsBot`'s keyword arguments as they were at 5928220:
    `exploration`, `prior_widening`, `margin_weight`, and the variants `rollout_depth`,
    `margin_scale`, `mast_eps`, `greedy_eps`, `greedy_steps`, `greedy_sample` (1 for an eps:
    off). MAST and greedy rollouts exclude each other."""
    kw = dict(options)
    mast_eps, greedy_eps = kw.pop("mast_eps", 1.0), kw.pop("greedy_eps", 1.0)
    steps, sample = kw.pop("greedy_steps", None), kw.pop("greedy_sample", None)
    weight, depth, scale = (
        kw.pop("margin_weight", 0.1),
        kw.pop("rollout_depth", None),
        kw.pop("margin_scale", 12.0),
    )
    if mast_eps < 1 and greedy_eps < 1:
        raise ValueError("greedy rollouts and MAST rollouts exclude each other")
    if mast_eps < 1:
        return MastBot(budget, MastRollout(mast_eps, weight, depth, scale), **kw)
    evaluator: Evaluator
    if greedy_eps < 1:
        evaluator = GreedyRollout(greedy_eps, steps, sample, weight, depth, scale)
    elif depth is not None:
        evaluator = Rollout(weight, depth, scale)
    else:
        evaluator = RandomRollout(weight)
    return IsmctsBot(budget, evaluator=evaluator, **kw)


class SteppedModel:
    """The learned model's judgement after `steps` uniformly random steps from the leaf (a game
    that ends on the way is scored by its result): measured no better and dearer."""

    def __init__(self, steps: int) -> None:
        self.steps, self.judge = steps, ModelEvaluator(alone=True)

    def evaluate(
        self, eng: GameModule, g: Game, rnd: random.Random, deadline: float
    ) -> list[float] | None:
        for _ in range(self.steps):
            if g.over:
                break
            opts = eng.legal_actions(g)
            eng.apply_action(g, opts[rnd.randrange(len(opts))])
        return self.judge.evaluate(eng, g, rnd, deadline)


def learned_variant_bot(budget: Budget, steps: int = 0, model_prior: bool = False) -> IsmctsBot:
    """The served learned search (ai.model.learned_search) with what was tried on it: `steps`
    random steps before the model, the model's ranking as the root's prior (progressive
    widening C = 1); the model alone at every budget, as they were measured."""
    return IsmctsBot(
        budget,
        exploration=exploration_of,
        evaluator=SteppedModel(steps) if steps else ModelEvaluator(alone=True),
        prior_widening=1.0 if model_prior else None,
        ranking=model_ranking if model_prior else None,
    )


def mixed_bot(budget: Budget, weight: float, exploration: float, game: str) -> IsmctsBot:
    """The served learned search with every leaf judged by `weight` * the game's model + (1 -
    `weight`) * a random playout, whatever the budget (the model's `Mix` from 0 iterations):
    how the mix was screened before it was served (docs/model.md)."""
    model = model_for(engine(game))
    assert model is not None, f"{game} has no model"
    mixed = replace(model, mix=Mix(0, weight, exploration))
    return IsmctsBot(
        budget,
        exploration=exploration,
        evaluator=ModelEvaluator(mixed, budget.iterations or 1),
    )


# The hidden hands of the game being played, as its last view was made (`reveal_hands`).
TRUE_HANDS: list[list[int]] = []


def reveal_hands(game: str) -> None:
    """Benchmark processes only: every view the match loop makes (`play_game` calls
    `game_view` just before a bot chooses) also leaves the true hands in TRUE_HANDS, for
    `SeerBot`. Architectura (a seat's hidden cards are its hand and deck: A-1.3)."""
    eng = engine(game)
    made = eng.game_view

    def game_view(g: Game, seat: int) -> dict[str, Any]:
        TRUE_HANDS[:] = [list(h) for h in g.hands]
        return made(g, seat)

    eng.game_view = game_view  # type: ignore[method-assign]


def deal_hand(g: Game, seat: int, hand: list[int], rnd: random.Random | None = None) -> None:
    """`hand` dealt to `seat` in `g`, in place: the rest of its cards become its deck, in
    their order, or shuffled by `rnd` (the seer here, benchmarks/inference.py's worlds)."""
    rest = [c for c in g.hands[seat] + g.decks[seat] if c not in hand]
    if rnd is not None:
        rnd.shuffle(rest)
    g.hands[seat], g.decks[seat] = list(hand), rest
    g._opts = None


class SeerSampler:
    """A WorldSampler told every other seat's hand: each world deals only their decks'
    order (and the generator). The most any inference on hidden hands could know."""

    def __init__(self, inner: Any, hands: list[list[int]]) -> None:
        self.inner, self.base, self.hands = inner, inner.base, hands

    def sample(self, rnd: random.Random) -> Game:
        g = self.inner.sample(rnd)
        for j, hand in enumerate(self.hands):
            if j == self.inner.viewer:
                continue
            pool = g.hands[j] + g.decks[j]
            assert set(hand) <= set(pool), "the true hand is not among the unseen cards"
            deal_hand(g, j, hand, rnd)
        return g


class ResampledBot(IsmctsBot):
    """The served learned search (`served`) whose worlds another sampler deals, built on the
    view's own (`resample`): the seer's, or benchmarks.inference's weighted one."""

    def resample(self, start: Start, view: dict[str, Any], seed: int) -> Any:
        raise NotImplementedError

    def choose(
        self,
        view: dict[str, Any],
        seed: int,
        catalog: Any = None,
        deadline: float | None = None,
    ) -> SearchResult:
        start = start_of(view, catalog)
        return self.pick(replace(start, sampler=self.resample(start, view, seed)), seed, deadline)


R = TypeVar("R", bound=ResampledBot)


def served(cls: type[R], budget: Budget, name: str) -> R:
    """A `cls` with `learned_search(budget)`'s settings, named `name(<the served bot>)`."""
    search = learned_search(budget)
    bot = cls(budget, exploration=search.exploration, evaluator=search.evaluator)
    bot.name = f"{name}({search.name})"
    return bot


class SeerBot(ResampledBot):
    """The served learned search sampling its worlds with `SeerSampler` (issue 31: how much
    could inference on hidden hands from past decisions add at most?)."""

    def resample(self, start: Start, view: dict[str, Any], seed: int) -> Any:
        return SeerSampler(start.sampler, TRUE_HANDS)


def seer_bot(budget: Budget) -> SeerBot:
    """`learned_search(budget)`'s settings, told the hands."""
    return served(SeerBot, budget, "seer")


class SelfDealSampler:
    """A WorldSampler that, in a share `p` of its worlds, also deals the viewer's own hand
    again from its unseen cards (hand and deck, A-1.3), as the other seats see it: in those
    iterations the other seats' choices in the tree cannot use the viewer's hand
    ("self-determinization", Cowling, Whitehouse & Powley 2015, "Emergent bluffing and
    inference with Monte Carlo Tree Search"). Architectura's world layout."""

    def __init__(self, inner: Any, p: float) -> None:
        self.inner, self.base, self.p = inner, inner.base, p

    def sample(self, rnd: random.Random) -> Game:
        g = self.inner.sample(rnd)
        if self.p > 0 and rnd.random() < self.p:  # at 0, the inner sampler's very worlds
            me = self.inner.viewer
            pool = g.hands[me] + g.decks[me]
            rnd.shuffle(pool)
            n = len(g.hands[me])
            g.hands[me], g.decks[me] = pool[:n], pool[n:]
        return g


class SelfDealBot(ResampledBot):
    """The served learned search on `SelfDealSampler`'s worlds (issue 31, item 3)."""

    p = 0.0

    def resample(self, start: Start, view: dict[str, Any], seed: int) -> Any:
        return SelfDealSampler(start.sampler, self.p)


def self_deal_bot(budget: Budget, p: float) -> SelfDealBot:
    bot = served(SelfDealBot, budget, f"selfdeal{p}")
    bot.p = p
    return bot


class PhaseEvaluator:
    """The served evaluator until the end of the game is near, then a random playout's win
    shares: a playout is short there and unbiased, where the model's bias does not average
    out. Near: at most `cards` cards left in all hands and decks (Architectura's layout)."""

    def __init__(self, inner: Evaluator, cards: int) -> None:
        self.inner, self.cards = inner, cards

    def for_search(self, eng: GameModule) -> PhaseEvaluator:
        return PhaseEvaluator(for_search(self.inner, eng), self.cards)

    def evaluate(
        self, eng: GameModule, g: Any, rnd: random.Random, deadline: float
    ) -> list[float] | None:
        left = sum(map(len, g.hands)) + sum(map(len, g.decks))
        if left <= self.cards and not g.over:
            return PHASE_PLAYOUT.evaluate(eng, g, rnd, deadline)
        return self.inner.evaluate(eng, g, rnd, deadline)


PHASE_PLAYOUT = RandomRollout(margin_weight=0.0)


def phase_bot(budget: Budget, cards: int) -> IsmctsBot:
    """`learned_search(budget)`'s settings, its leaves judged by `PhaseEvaluator`."""
    search = learned_search(budget)
    evaluator = PhaseEvaluator(search.evaluator, cards)
    bot = IsmctsBot(budget, exploration=search.exploration, evaluator=evaluator)
    bot.name = f"phase{cards}({search.name})"
    return bot
