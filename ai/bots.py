"""The bots: random, greedy (one ply) and ISMCTS (ai/mcts.py), the named levels, and the
factories from a name (`make_bot`) or a command-line spec (`parse_bot_spec`).

Game-agnostic: a bot reaches the rules only through the engine registry (`engine.games`),
chosen by the view's `game` field, and the common interface every game offers.

Fair by construction: a bot is handed `player_view(state, seat)` and nothing else.
It rebuilds full states ("worlds") from that view with the game's `WorldSampler`, so whatever the
seat cannot see (opponents' hands, every deck order, the generator) is re-dealt at random
from the unseen cards before the bot looks at it. Two states that differ only in hidden
information give the same view, hence the same decision for the same seed.

What every bot shares (`Budget`, `Bot`, `SearchResult`, the limits) is in `ai.base`, the search
in `ai.mcts` and its evaluators in `ai.evaluators`; the names are re-exported here.
"""

from __future__ import annotations

import random
import re

from ai.base import (
    DEADLINE_CHECK_STEPS,
    JOB_MAX_ITERATIONS,
    JOB_MAX_TIME_MS,
    MAX_ITERATIONS,
    MAX_TIME_MS,
    PROGRESS,
    PROGRESS_EVERY,
    SAFETY_MS,
    Action,
    Bot,
    Budget,
    Catalog,
    Game,
    OptionStat,
    SearchResult,
    Start,
    margin,
    option_margins,
)
from ai.evaluators import Evaluator, RandomRollout
from ai.mcts import IsmctsBot, Node
from ai.model import learned_search
from engine.errors import SetupError
from engine.messages import msg

__all__ = [
    "BOT_NAMES",
    "DEADLINE_CHECK_STEPS",
    "JOB_MAX_ITERATIONS",
    "JOB_MAX_TIME_MS",
    "LEVELS",
    "MAX_ITERATIONS",
    "MAX_TIME_MS",
    "PROGRESS",
    "PROGRESS_EVERY",
    "SAFETY_MS",
    "Action",
    "Bot",
    "Budget",
    "Catalog",
    "Evaluator",
    "ExploringBot",
    "Game",
    "GreedyBot",
    "IsmctsBot",
    "Node",
    "OptionStat",
    "RandomBot",
    "RandomRollout",
    "SearchResult",
    "Start",
    "make_bot",
    "margin",
    "option_margins",
    "parse_bot_spec",
    "parse_budget",
]

# Named difficulty levels: iteration budgets (deterministic), four times apart, so that each
# level measurably beats the one below it in both games (the rating ladder, `python -m
# ai.ratings`; docs/bots.md, "Rating ladder", has the ratings and the time per decision).
# `master` is above the models' mix threshold (and Fora de Prumo's `expert`, whose model mixes
# above 320): its leaves are judged by the model and a playout together (ai/model.py `Mix`),
# which is what makes four times the thinking pay.
LEVELS: dict[str, Budget] = {
    "easy": Budget(iterations=10),
    "medium": Budget(iterations=40),
    "hard": Budget(iterations=160),
    "expert": Budget(iterations=640),
    "master": Budget(iterations=2560),
}


class RandomBot(Bot):
    """Uniformly random among the legal options."""

    name = "random"

    def pick(self, start: Start, seed: int, deadline: float | None) -> SearchResult:
        opts = start.opts
        a = opts[random.Random(seed).randrange(len(opts))]
        stats = [OptionStat(o, 1 if o == a else 0, None) for o in opts]
        return SearchResult(a, 0, start.ms(), stats)


class GreedyBot(Bot):
    """One ply: the option with the best immediate score difference (own total minus the
    best opponent's total) on the position it leads to; ties broken at random.

    Fairness: the option is applied to one world sampled from the view (seeded). What the
    score difference reads is public (the city, cards outside it); the hidden cards only
    decide draws, which never change the score."""

    name = "greedy"

    def pick(self, start: Start, seed: int, deadline: float | None) -> SearchResult:
        # one step per option: bounded by the option count, so the deadline is not checked
        eng, opts, seat = start.eng, start.opts, start.seat
        rnd = random.Random(seed)
        values = option_margins(eng, start.sampler.sample(rnd), opts, seat)
        best = max(values)
        ties = [a for a, v in zip(opts, values, strict=True) if v == best]
        choice = ties[rnd.randrange(len(ties))]
        stats = [OptionStat(a, 1, float(v)) for a, v in zip(opts, values, strict=True)]
        return SearchResult(choice, len(opts), start.ms(), stats)


class ExploringBot(Bot):
    """Self-play with exploration (ai/train.py): with probability `epsilon` a uniformly random
    option, else `bot`'s choice, decided by the decision's seed. A learned evaluation must
    also judge the positions a bad move leads to, which a strong bot's own games never show
    it (AlphaGo's value network was trained on games with a random move in them, for the
    same reason)."""

    name = "explore"

    def __init__(self, bot: Bot, epsilon: float) -> None:
        self.bot, self.epsilon = bot, epsilon

    def pick(self, start: Start, seed: int, deadline: float | None) -> SearchResult:
        if random.Random(seed ^ 0x5EED).random() < self.epsilon:
            return RandomBot().pick(start, seed, deadline)
        return self.bot.pick(start, seed, deadline)


BOT_NAMES = ("random", "greedy", "ismcts")


def make_bot(name: str, budget: Budget | None = None) -> Bot:
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    if name == "ismcts":  # the served search: leaves judged by the game's learned model
        return learned_search(budget or LEVELS["medium"])
    raise SetupError(
        "unknown_bot",
        msg("unknown bot {name}; known: {known}", name=repr(name), known=list(BOT_NAMES)),
        None,
        "/bot",
    )


def parse_budget(arg: str) -> Budget | None:
    """A spec's budget: `<n>it` (iterations) or `<n>ms` (time per decision); None otherwise."""
    m = re.fullmatch(r"([0-9]+)(it|ms)", arg)  # ASCII digits: str.isdigit takes "²" too
    if m is None:
        return None
    n = int(m[1])
    return Budget(time_ms=n) if m[2] == "ms" else Budget(iterations=n)


def parse_bot_spec(spec: str) -> tuple[str, Bot]:
    """Command-line bot names: `random`, `greedy`, a level (`easy`, `medium`, `hard`,
    `expert`, `master`), `ismcts:<n>it` (iterations) or `ismcts:<n>ms` (time per decision), `model:<n>it`
    or `model:<n>ms` (the same search, its leaves judged by the learned model); any of them
    followed by `/explore:<p>` plays a random option with probability p (self-play). Search
    variants measured and not kept (MAST, greedy or truncated rollouts) are built by
    `benchmarks/variants.py` for the benchmark commands."""
    base, explore, epsilon = spec.partition("/explore:")
    if explore:
        try:
            eps = float(epsilon)
        except ValueError:
            eps = -1.0
        if not 0.0 <= eps <= 1.0:
            raise ValueError(f"bot {spec!r}: /explore:<p> takes a probability from 0 to 1")
        return spec, ExploringBot(parse_bot_spec(base)[1], eps)
    if spec in LEVELS:
        return spec, learned_search(LEVELS[spec])
    if spec in ("random", "greedy", "ismcts"):
        return spec, make_bot(spec)
    kind, _, arg = spec.partition(":")
    if kind in ("ismcts", "model"):
        budget = parse_budget(arg)
        if budget is not None:
            # `model:`: leaves judged by the game's learned model (ai/model.py)
            return spec, learned_search(budget) if kind == "model" else IsmctsBot(budget)
    raise ValueError(
        f"unknown bot {spec!r}: use random, greedy, {', '.join(LEVELS)}, ismcts:<n>it,"
        " ismcts:<n>ms, model:<n>it or model:<n>ms"
    )
