"""The learned evaluation: each seat's win share in a position, from its game's features.

Game-agnostic: what a position's features are is game knowledge, declared by each game
(`GameInfo.features`: their names, a function of a world, the model file beside the game);
this module reads the model file and turns features into win shares, for any registered game.

The model is a conditional logit (McFadden 1974): each seat's features `x_s` give it a utility
`u_s = w . x_s`, and its win share is `exp(u_s) / sum_t exp(u_t)`. One weight vector serves
2, 3 and 4 seats, a position's seats are judged by the same rule (a seat's features say
nothing of which seat it is), and the shares always sum to 1, as win shares do (A-8.2, F-8:
a shared win is split). It costs one dot product per seat: pure Python, no numpy at run time
(the fit, `ai/train.py`, needs numpy: the `train` extra).

The file is plain JSON: the game, the feature names it was fitted on (a game whose features
changed refuses a stale model rather than misreading it), the weights, how it was trained, and
how a search uses it (`search`): UCB's constant and, optionally, a `mix` for large iteration
budgets (and time budgets, where it says `time`), where each leaf is judged by a share of the
model and the rest by one random playout (AlphaGo's mixed leaf evaluation): a playout's noise
averages out as iterations grow, the model's bias does not, so thinking longer pays more with
the mix (docs/model.md, "The search that uses it").
Its `version` (the game, the generation and a digest of the weights) goes into the position
cache's keys (ai/cache.py), so a new model never answers from an old model's cache.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import random
from dataclasses import dataclass, field
from functools import lru_cache
from operator import mul
from pathlib import Path
from typing import Any, TypeGuard

from ai.base import Action, Budget
from ai.evaluators import Evaluator, RandomRollout, final_rewards
from ai.mcts import IsmctsBot, Ranking, greedy_ranking
from engine.games import GameModule

log = logging.getLogger("ai")
FORMAT = "card-referee-eval/1"
# UCB's exploration constant for a search judged by a model that names none: its rewards are
# smooth win shares, not the 0/1 of a playout, so sibling options' values lie closer together
# and a smaller c than the playouts' lets them count (docs/model.md)
EXPLORATION = 0.15
PLAYOUT_EXPLORATION = 0.7


class ModelError(ValueError):
    """A model file that cannot serve its game (its format, game or feature names)."""


class ModelUnavailable(Exception):
    """The game's model file cannot be read, and no good version of it was read before
    (the service answers 503 `model_unavailable`)."""

    def __init__(self, game: str, reason: str) -> None:
        super().__init__(f"{game}: {reason}")
        self.game = game
        self.reason = reason


@dataclass(frozen=True)
class Mix:
    """A search of more than `above` iterations judges each leaf by `weight` * the model +
    (1 - `weight`) * one random playout's win shares, with UCB constant `exploration`; with
    `time`, so does a search on a time budget (whose iterations are unknown in advance: the
    mix pays at 100 ms in Fora de Prumo, not in Architectura; docs/model.md)."""

    above: int
    weight: float
    exploration: float
    time: bool = False

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "above": self.above,
            "weight": self.weight,
            "exploration": self.exploration,
        }
        if self.time:  # written only when set: a mix without it keeps its version
            doc["time"] = True
        return doc

    @classmethod
    def from_json(cls, doc: Any, game: str) -> Mix:
        fields = ("above", "weight", "exploration")
        if not isinstance(doc, dict) or not set(fields) <= set(doc) <= {*fields, "time"}:
            raise ModelError(f"{game}: search.mix is {{above, weight, exploration[, time]}}")
        above, weight, c = (doc[k] for k in fields)
        if not isinstance(above, int) or isinstance(above, bool) or above < 0:
            raise ModelError(f"{game}: search.mix.above is an iteration count")
        if not _number(weight) or not 0 <= weight <= 1 or not _ucb_constant(c):
            raise ModelError(f"{game}: search.mix weight is in 0..1, exploration above 0")
        time = doc.get("time", False)
        if not isinstance(time, bool):
            raise ModelError(f"{game}: search.mix.time is true or false")
        return cls(above, float(weight), float(c), time)


def _number(x: Any) -> TypeGuard[int | float]:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _ucb_constant(c: Any) -> TypeGuard[int | float]:
    """A UCB exploration constant a model file may name: a number in (0, 10)."""
    return _number(c) and 0 < c < 10


@dataclass(frozen=True)
class Model:
    """A fitted evaluation of one game (module doc)."""

    game: str
    names: tuple[str, ...]
    weights: tuple[float, ...]
    generation: int = 1
    # UCB's exploration constant for a search judged by this model (EXPLORATION by default;
    # measured per game: docs/model.md)
    exploration: float = 0.15
    trained: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    mix: Mix | None = None  # how a large iteration budget judges leaves (module doc)
    # a time budget's root prior: the options ranked by this model one ply later, searched
    # best first with progressive widening of this constant (None: no prior; docs/model.md)
    prior: float | None = None

    @property
    def version(self) -> str:
        """`<game>/g<generation>/<digest of names, weights and search settings>`: what cache
        keys carry."""
        settings: list[Any] = [self.names, self.weights, self.exploration]
        if self.mix is not None:
            settings.append(self.mix.to_json())
        if self.prior is not None:  # named only when set: a model without one keeps its version
            settings.append({"prior": self.prior})
        doc = json.dumps(settings).encode()
        return f"{self.game}/g{self.generation}/{hashlib.sha256(doc).hexdigest()[:12]}"

    def search_for(self, iterations: int | None) -> tuple[float, float]:
        """UCB's constant and the model's weight in a leaf's value (1: the model alone) for a
        search of `iterations` (None: a time budget, mixed only where the mix says `time`)."""
        mix = self.mix
        if mix is None or not (mix.time if iterations is None else iterations > mix.above):
            return self.exploration, 1.0
        return mix.exploration, mix.weight

    def shares(self, rows: list[list[float]]) -> list[float]:
        """Each seat's win share from every seat's features (`PositionFeatures.of`)."""
        w = self.weights
        # map(mul) in C, not a generator: 40 % of the shares' cost (rows are the names' length)
        utils = [sum(map(mul, w, row)) for row in rows]
        top = max(utils)
        exps = [math.exp(u - top) for u in utils]
        total = sum(exps)
        return [e / total for e in exps]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "version": self.version,
            "generation": self.generation,
            "search": {
                "exploration": self.exploration,
                **({"mix": self.mix.to_json()} if self.mix is not None else {}),
                **({"prior": self.prior} if self.prior is not None else {}),
            },
            "features": list(self.names),
            "weights": list(self.weights),
            "trained": self.trained,
        }

    @classmethod
    def from_json(cls, doc: Any, eng: GameModule) -> Model:
        """A model file's document, checked against the game that will use it."""
        feats = eng.INFO.features
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ModelError(f"not a {FORMAT} model")
        if doc.get("game") != eng.INFO.id:
            raise ModelError(f"a model of {doc.get('game')!r}, not of {eng.INFO.id!r}")
        names, weights = doc.get("features"), doc.get("weights")
        if feats is None or names != list(feats.names):
            raise ModelError(f"{eng.INFO.id}: the model's features are not the game's")
        if not isinstance(weights, list) or len(weights) != len(names):
            raise ModelError(f"{eng.INFO.id}: one weight per feature")
        if not all(isinstance(x, int | float) and math.isfinite(x) for x in weights):
            raise ModelError(f"{eng.INFO.id}: weights are finite numbers")
        gen = doc.get("generation", 1)
        search = doc.get("search") or {}
        c = search.get("exploration", EXPLORATION) if isinstance(search, dict) else None
        if not _ucb_constant(c):
            raise ModelError(f"{eng.INFO.id}: search.exploration is a number above 0")
        mix = search.get("mix") if isinstance(search, dict) else None
        prior = search.get("prior") if isinstance(search, dict) else None
        if prior is not None and not _ucb_constant(prior):
            raise ModelError(f"{eng.INFO.id}: search.prior is a widening constant above 0")
        return cls(
            eng.INFO.id,
            tuple(names),
            tuple(float(x) for x in weights),
            gen if isinstance(gen, int) else 1,
            float(c),
            doc.get("trained") or {},
            Mix.from_json(mix, eng.INFO.id) if mix is not None else None,
            float(prior) if prior is not None else None,
        )

    def save(self, path: Path) -> None:
        """Written whole, then renamed over `path`: a service reading it meanwhile (its
        next search) sees the old file or the new one, never half of one."""
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f".{path.name}.{os.getpid()}.part")
        try:
            part.write_text(json.dumps(self.to_json(), indent=1) + "\n")
            os.replace(part, path)
        finally:
            part.unlink(missing_ok=True)


def model_path(eng: GameModule) -> Path | None:
    """Where the game keeps its model (None: it declares no features)."""
    feats = eng.INFO.features
    return feats.model if feats is not None else None


MAX_MODEL_BYTES = 1 << 20  # a served model is a few KB: a larger file is refused unread
_LAST_GOOD: dict[str, Model] = {}  # each game's last model read whole, served past a bad file


@lru_cache(maxsize=16)  # a bad content is kept too: read once a version, not once a search
def _read(game: str, path: Path, version: tuple[int, int, int]) -> Model | str:
    """The model in `path` at this (inode, mtime in ns, size), or why its content cannot
    serve: a file renamed over the last (`Model.save`) is a new inode even when its size and
    its coarse mtime are the same (a copy that kept the old mtime). An OSError
    (a file vanished, too many open files) is raised, not kept: the next search reads again."""
    from engine.games import engine

    if version[2] > MAX_MODEL_BYTES:
        return f"{path} holds {version[2]} bytes, more than {MAX_MODEL_BYTES}"
    data = path.read_bytes()
    try:
        return Model.from_json(json.loads(data), engine(game))
    # ValueError: JSON, UTF-8, ModelError; ArithmeticError: a weight of 10^400 (isfinite)
    except (ValueError, ArithmeticError, TypeError, RecursionError) as e:
        return f"{path}: {type(e).__name__}: {e}"


def evaluation_version(eng: GameModule) -> str:
    """What judges the game's positions in a served search: its model's version, or
    `playouts` (a game without a model); the position cache's keys carry it."""
    model = model_for(eng)
    return model.version if model is not None else "playouts"


def model_for(eng: GameModule) -> Model | None:
    """The game's trained model, read once per file version; None when it has none. A file
    that cannot be read whole (half written, corrupt, another game's) leaves the last good
    version served, logged once; with none read before, ModelUnavailable."""
    path = model_path(eng)
    if path is None:
        return None
    game = eng.INFO.id
    try:
        st = path.stat()
        got: Model | str = _read(game, path, (st.st_ino, st.st_mtime_ns, st.st_size))
    except FileNotFoundError:
        return None
    except OSError as e:
        got = f"{path}: {type(e).__name__}: {e}"
    if isinstance(got, Model):
        _LAST_GOOD[game] = got
        return got
    _log_bad_model(game, got)
    if game in _LAST_GOOD:
        return _LAST_GOOD[game]
    raise ModelUnavailable(game, got)


@lru_cache(maxsize=16)
def _log_bad_model(game: str, reason: str) -> None:
    """Once per game and reason (a file version's), not once per search."""
    log.warning("model file unreadable (the last good version, if any, is served): %s", reason)


@dataclass(frozen=True, slots=True)
class ModelEvaluator:
    """A search's evaluation of a leaf by the learned model (ai/evaluators.py's `Evaluator`):
    each seat's win share as the model estimates it, mixed with one random playout's for a
    search of more `iterations` than the model's `mix` names (`Model.search_for`); a finished
    game is scored by its result (`final_rewards`, win shares). `model` None: each game's own
    trained model (`model_for`); for a game without one, what a search without a model does
    (`RandomRollout`). Variants measured and not kept (random steps first, the model as a
    prior) are in benchmarks/variants.py."""

    model: Model | None = None
    iterations: int | None = None  # the search's budget (None: a time budget)
    alone: bool = False  # never mixed (a review's search: its judgement wants smooth values)

    def model_of(self, eng: GameModule) -> Model | None:
        return self.model if self.model is not None else model_for(eng)

    def for_search(self, eng: GameModule) -> Evaluator:
        """This evaluator with the model settled for one search (`ai.evaluators.for_search`):
        the game's model file is looked up once a search, not once a leaf (a `stat` each: 12 %
        of an iteration's CPU, docs/model.md); `RandomRollout` for a game without one."""
        model = self.model_of(eng)
        if model is None or eng.INFO.features is None:
            return FALLBACK
        return ModelEvaluator(model, self.iterations, self.alone)

    def evaluate(
        self, eng: GameModule, g: Any, rnd: random.Random, deadline: float
    ) -> list[float] | None:
        model = self.model_of(eng)
        feats = eng.INFO.features
        if model is None or feats is None:
            return FALLBACK.evaluate(eng, g, rnd, deadline)
        if g.over:
            return final_rewards(eng, g, 0.0)
        judged = model.shares(feats.of(g))
        weight = 1.0 if self.alone else model.search_for(self.iterations)[1]
        if weight == 1.0:
            return judged
        played = PLAYOUT.evaluate(eng, g, rnd, deadline)  # after the model: it changes g
        if played is None:
            return None
        return [weight * m + (1 - weight) * p for m, p in zip(judged, played, strict=True)]


FALLBACK = RandomRollout()
PLAYOUT = RandomRollout(margin_weight=0.0)  # a mix's playout: win shares alone


def exploration_of(eng: GameModule, iterations: int | None = None) -> float:
    """UCB's c for a search of `iterations` judged by the game's model (its file's `search`);
    the playouts' 0.7 for a game without one."""
    model = model_for(eng)
    return model.search_for(iterations)[0] if model is not None else PLAYOUT_EXPLORATION


def model_ranking(
    eng: GameModule, world: Any, opts: list[Action], seat: int, rnd: random.Random
) -> list[Action]:
    """The root's options best first by the model's win share for `seat` one ply later on
    `world` (a prior's ranking, ai/mcts.py `Ranking`), ties in a seeded random order; the
    greedy margin's ranking for a game without a model."""
    model, feats = model_for(eng), eng.INFO.features
    if model is None or feats is None:
        return greedy_ranking(eng, world, opts, seat, rnd)
    shuffled = list(opts)
    rnd.shuffle(shuffled)
    judge = ModelEvaluator(model, alone=True)
    values = {}
    for a in shuffled:
        g = world.copy()
        eng.apply_action(g, a)
        shares = judge.evaluate(eng, g, rnd, math.inf)  # the model alone draws nothing
        assert shares is not None
        values[a] = shares[seat]
    return sorted(shuffled, key=lambda a: -values[a])


class LearnedSearch(IsmctsBot):
    """ISMCTS judged by the game's model (`learned_search`); on a time budget, with the root
    prior its model names (`Model.prior`), unless the bot was given a prior of its own."""

    def prior(self, eng: GameModule) -> tuple[float, Ranking]:
        if self.prior_widening is None and self.budget.iterations is None:
            model = model_for(eng)
            if model is not None and model.prior is not None:
                return model.prior, model_ranking
        return super().prior(eng)


def learned_search(budget: Budget, prior_widening: float | None = None) -> IsmctsBot:
    """ISMCTS whose leaves the game's learned model judges (random playouts for a game without
    one; mixed with a playout for a large budget: `Model.search_for`), with the model's
    exploration constant for the budget and, on a time budget, its root prior."""
    iterations = budget.iterations
    return LearnedSearch(
        budget,
        exploration=lambda eng: exploration_of(eng, iterations),
        evaluator=ModelEvaluator(iterations=iterations),
        prior_widening=prior_widening,
    )
