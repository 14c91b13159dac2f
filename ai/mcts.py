"""ISMCTS: single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2)), in named phases.

Every iteration samples a world consistent with the view (determinization: the seat's unseen
cards dealt again, the generator reseeded), then:

1. **select/expand** (`select_expand`, the tree policy): descend one tree shared by all worlds,
   whose edges are (deciding seat, action), each seat choosing for itself by UCB, until an
   option not yet in the tree; add it (one node an iteration). Different worlds offer
   different options (another seat's hand differs from world to world), so each edge counts
   how often it was *available*, and UCB uses that count instead of the parent's visits (the
   "subset-armed bandit"). Forced steps (one option) make no node. Chance (draws, shuffles)
   lives in the sampled world.
2. **evaluate** (an `Evaluator`, ai/evaluators.py): rewards per seat for the world the descent
   left; by default a uniformly random playout to the end (`RandomRollout`).
3. **back up** (`backup`): each node on the path adds the reward of the seat that took it.

The search ends at whichever comes first: the iteration budget, the time budget or the caller's
deadline (SAFETY_MS by default). The clock is also read inside an iteration (every
DEADLINE_CHECK_STEPS engine steps, in the descent and in the evaluator), and an iteration cut
short there is taken back (`undo`): its expanded node removed, its availability counts
lowered, so the tree is exactly what the completed iterations made.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import NamedTuple

from ai.base import (
    DEADLINE_CHECK_STEPS,
    JOB_MAX_ITERATIONS,
    MAX_ITERATIONS,
    MAX_TIME_MS,
    PROGRESS,
    PROGRESS_EVERY,
    SAFETY_MS,
    Action,
    Bot,
    Budget,
    Game,
    OptionStat,
    SearchResult,
    Start,
    option_margins,
)
from ai.evaluators import Evaluator, RandomRollout, for_search
from engine.games import GameModule

# A greedy prior at the root (`IsmctsBot(prior_widening=C)`): the root's options are ranked by
# the greedy bot's one-ply margin, expanded best first, and only the best
# max(2, ceil(C * sqrt(iterations done + 1))) of them are searched (progressive widening).
# 0: no prior (every option, expanded in random order). None, the default: the game's own
# measured setting (`GameInfo.bot_prior`: its constant, for iteration budgets up to its
# largest; none for a time budget; docs/bots.md, "Tried: a greedy prior at the root").
PRIOR_WIDENING: float | None = None


class Node:
    """A tree node, reached by `mover` choosing an action: `visits` (completed iterations
    through it), `reward_sum` (`mover`'s rewards summed over them), `available` (the
    iterations in which its action was an option, this one's expansion included)."""

    __slots__ = ("available", "children", "mover", "reward_sum", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.reward_sum = 0.0
        self.available = 1
        self.children: dict[tuple[int, Action], Node] = {}


# The edge an iteration added: the children dict it is in, and its key.
Edge = tuple[dict[tuple[int, Action], Node], tuple[int, Action]]


class Descent(NamedTuple):
    """What select/expand leaves for the other phases."""

    path: list[Node]  # the nodes stepped through, the root excluded, the new node last
    bumped: list[list[Node]]  # the nodes whose availability it raised, decision by decision
    expanded: Edge | None  # the edge it added (None: the game ended first)


def select_expand(
    eng: GameModule,
    root: Node,
    g: Game,
    rnd: random.Random,
    c: float,
    end: float,
    widened: list[Action] | None,
) -> Descent | None:
    """The tree policy, stepping the world `g` along: at each decision with a choice, raise
    the availability of every option already in the tree; expand the first untried option
    (a random one; at the root, with a greedy prior, the best ranked of `widened`), else step
    to the child with the best UCB `mean + c * sqrt(ln(available) / visits)` for the seat
    deciding. Stops at the new node or the game's end. None, with the tree as it was, when
    `end` passed first."""
    legal, step, decider = eng.legal_actions, eng.apply_action, eng.current_player
    log, sqrt = math.log, math.sqrt
    clock = time.perf_counter
    node = root
    path: list[Node] = []
    bumped: list[list[Node]] = []
    expanded: Edge | None = None
    steps = 0
    while not g.over:
        steps += 1
        if steps % DEADLINE_CHECK_STEPS == 0 and clock() >= end:
            undo(Descent(path, bumped, None))
            return None
        opts = legal(g) if widened is None or node is not root else widened
        if len(opts) == 1:
            step(g, opts[0])
            continue
        mover = decider(g)
        assert mover is not None
        children = node.children
        untried: list[Action] = []
        present: list[Node] = []
        for a in opts:
            ch = children.get((mover, a))
            if ch is None:
                untried.append(a)
            else:
                ch.available += 1
                present.append(ch)
        bumped.append(present)
        if untried:
            ordered = widened is not None and node is root
            a = untried[0] if ordered else untried[rnd.randrange(len(untried))]
            child = Node(mover)
            children[(mover, a)] = child
            expanded = (children, (mover, a))
            step(g, a)
            path.append(child)
            break
        best_node = present[0]
        best_ucb = -math.inf
        best_a = opts[0]
        for a, ch in zip(opts, present, strict=True):
            ucb = ch.reward_sum / ch.visits + c * sqrt(log(ch.available) / ch.visits)
            if ucb > best_ucb:
                best_ucb, best_node, best_a = ucb, ch, a
        step(g, best_a)
        node = best_node
        path.append(node)
    return Descent(path, bumped, expanded)


def backup(path: list[Node], reward: list[float]) -> None:
    """An iteration's rewards into the nodes on its path, each for the seat that moved there."""
    for nd in path:
        nd.visits += 1
        nd.reward_sum += reward[nd.mover]


def undo(descent: Descent) -> None:
    """Take an iteration cut short out of the tree: the availability counts its descent
    raised, and the node it expanded."""
    for present in descent.bumped:
        for ch in present:
            ch.available -= 1
    if descent.expanded is not None:
        children, key = descent.expanded
        del children[key]


# A prior's ranking of the root's options on one sampled world, best first (module doc).
Ranking = Callable[[GameModule, Game, list[Action], int, random.Random], list[Action]]


def greedy_ranking(
    eng: GameModule, world: Game, opts: list[Action], seat: int, rnd: random.Random
) -> list[Action]:
    """The options best first by the greedy bot's one-ply margin on `world` (public: see
    GreedyBot), ties in a seeded random order."""
    shuffled = list(opts)
    rnd.shuffle(shuffled)
    values = dict(zip(shuffled, option_margins(eng, world, shuffled, seat), strict=True))
    return sorted(shuffled, key=lambda a: -values[a])


class IsmctsBot(Bot):
    """Single-observer ISMCTS with availability counts (module doc): `exploration` is UCB's
    `c`; `evaluator` judges the positions the descent reaches (default `RandomRollout()`);
    `prior_widening` the greedy prior at the root (PRIOR_WIDENING). Deterministic for an
    iteration budget and a seed; `iterations` counts completed iterations only."""

    name = "ismcts"

    def __init__(
        self,
        budget: Budget,
        exploration: float | Callable[[GameModule], float] = 0.7,
        evaluator: Evaluator | None = None,
        prior_widening: float | None = PRIOR_WIDENING,
        ranking: Ranking | None = None,
    ) -> None:
        self.budget = budget
        # UCB's c, or the game's (a function of its engine: the learned model's own constant)
        self.exploration = exploration
        self.c = exploration if isinstance(exploration, float | int) else 0.7
        self.evaluator: Evaluator = evaluator if evaluator is not None else RandomRollout()
        self.leaf: Evaluator = self.evaluator  # the evaluator bound to the search under way
        self.prior_widening = prior_widening  # 0: no prior; None: the game's
        # how the prior ranks the root's options (default: the greedy bot's one-ply margin)
        self.ranking: Ranking = ranking if ranking is not None else greedy_ranking
        self.last_root: Node | None = None  # the last search tree, for inspection

    def pick(self, start: Start, seed: int, deadline: float | None) -> SearchResult:
        t0 = start.t0
        hard_end = deadline if deadline is not None else t0 + SAFETY_MS / 1000
        eng, sampler, opts, seat = start.eng, start.sampler, start.opts, start.seat
        if len(opts) == 1:
            return SearchResult(opts[0], 0, start.ms(), [])
        rnd = random.Random(seed)
        root = Node(-1)
        if callable(self.exploration):
            self.c = self.exploration(eng)
        self.leaf = for_search(self.evaluator, eng)
        # a time-only budget also stops at MAX_ITERATIONS; one longer than a synchronous call
        # may have (a job's) at JOB_MAX_ITERATIONS, so that its time is what bounds it
        long = (self.budget.time_ms or 0) > MAX_TIME_MS
        limit = self.budget.iterations or (JOB_MAX_ITERATIONS if long else MAX_ITERATIONS)
        own_end = t0 + self.budget.time_ms / 1000 if self.budget.time_ms is not None else math.inf
        end = min(own_end, hard_end)
        done = reported = 0
        progress = PROGRESS.get()
        widening, ranking = self.prior(eng)
        ranked = None
        if widening > 0:
            ranked = ranking(eng, sampler.sample(rnd), opts, seat, rnd)
        iterate = self.iterate
        while done < limit and time.perf_counter() < end:
            widened = None
            if ranked is not None:
                widened = ranked[: max(2, math.ceil(widening * math.sqrt(done + 1)))]
            if iterate(eng, root, sampler.sample(rnd), rnd, end, widened):
                done += 1
                if progress is not None and done % PROGRESS_EVERY == 0:
                    progress(done - reported)
                    reported = done
        if progress is not None and done > reported:
            progress(done - reported)
        self.last_root = root
        stats = [_option_stat(root, seat, a) for a in opts]
        # Robust child: most visits, then best mean value, then option order.
        best = max(range(len(stats)), key=lambda i: (stats[i].visits, stats[i].value or 0.0, -i))
        # stopped by the deadline before the budget's own end (iterations or time)
        truncated = done < limit and hard_end < own_end and time.perf_counter() >= hard_end
        return SearchResult(opts[best], done, start.ms(), stats, truncated)

    def prior(self, eng: GameModule) -> tuple[float, Ranking]:
        """The root's prior for this search: its widening constant (0: none) and its ranking.
        The bot's constant, else the game's (the greedy prior) for iteration budgets up to its
        largest (a time budget's iterations are unknown); a learned search may take its
        model's (ai/model.py `LearnedSearch`)."""
        if self.prior_widening is not None:
            return self.prior_widening, self.ranking
        widening, most = eng.INFO.bot_prior
        iterations = self.budget.iterations
        return (0.0 if iterations is None or iterations > most else widening), self.ranking

    def iterate(
        self,
        eng: GameModule,
        root: Node,
        g: Game,
        rnd: random.Random,
        end: float,
        widened: list[Action] | None,
    ) -> bool:
        """One iteration on the sampled world `g`: select/expand, evaluate, back up. False,
        with the tree as it was, when `end` passed before it was done. `widened`: the root's
        options to search, best first (the greedy prior), else None (all, in random order)."""
        descent = select_expand(eng, root, g, rnd, self.c, end, widened)
        if descent is None:
            return False
        reward = self.leaf.evaluate(eng, g, rnd, end)
        if reward is None:
            undo(descent)
            return False
        self.back_up(root, descent, reward)
        return True

    def back_up(self, root: Node, descent: Descent, reward: list[float]) -> None:
        """The back-up phase of a completed iteration (`backup`); a variant that learns more
        from an iteration (benchmarks/variants.py's MAST) extends it."""
        backup(descent.path, reward)


def _option_stat(root: Node, seat: int, a: Action) -> OptionStat:
    ch = root.children.get((seat, a))
    if ch is None:
        return OptionStat(a, 0, None)
    return OptionStat(a, ch.visits, ch.reward_sum / ch.visits if ch.visits else None)
