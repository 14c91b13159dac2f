"""`suggest`: what the HTTP layer calls for POST /v1/suggest.

The position comes either as a full state or as a seat's view (what /v1/view answers).
A state is read and checked by its game's engine (chosen through `engine.games` by the
document's `game` field) and reduced to the seat's view (`game_view`). A view is checked by
rebuilding a full state consistent with it (the game's `WorldSampler`) and requiring that
state's view to be the view sent, byte for byte in canonical JSON: so only a view the
service could have answered is searched. Either way the bot is given the view and nothing
else, which is why a view and its state get the same decision for the same settings.

Searches (bot `ismcts`) are cached by position: rules version, catalog hash, seat, the
canonical digest of the seat's view (its information set), the search settings (bot, budget,
seed, the model's version) and the caller's **scope** (None: no cache). The key reads the
position through the seat's view only; the scope decides who shares the entry, and keeps one
client's entries from answering another's (app/limits.py `cache_scope`: the state sent; a
view is not cached): a shared entry would tell whoever asks with the right view that someone
asked it, by `cached` and by the time the answer takes, so a client holding only its own
view could try another seat's possible views and find that seat's hand (audit of
2026-11-30). A cached entry is checked before it is used (its shape, and that its decision is one of the seat's
options now); one that fails is a miss, searched again and overwritten. A search during which
the model file changed is answered, not cached (its key names the model read before it).

Iteration budgets are deterministic (same key, same answer, cached or not). A time budget
is not: the iterations done in the time depend on the machine's speed and load, so the
result last stored for a key is the one later hits return until it expires (two misses
searched at once both store theirs).

Every request has one wall-clock deadline (`max_ms`, SUGGEST_MAX_MS over HTTP): the search,
and with plan="turn" every step of the plan, stops there.

A plan (plan="turn") is made from the seat's view alone, for a state as for a view: its later
steps are planned on a full state rebuilt from the view (`WorldSampler.base`), checked against
worlds sampled from that view with fixed seeds, and it ends at the first chance event (the
game's `CHANCE_EVENTS`: a draw, a mulligan's new hand, a refill, a look at the deck). So a
state and its seat's view get the same plan, step for step.
"""

from __future__ import annotations

import logging
import math
import random
import time
from dataclasses import dataclass
from numbers import Real
from typing import Any

import ai.bots
from ai.bots import BOT_NAMES, LEVELS, Bot, Budget, Catalog, Game, make_bot
from ai.cache import PositionCache
from ai.model import evaluation_version
from engine.canonical import digest, dumps
from engine.errors import EngineError, IllegalDecision, SetupError
from engine.games import GameModule
from engine.messages import msg
from engine.setup_fields import JSON_SAFE_INT
from engine.views import engine_of, load_view

log = logging.getLogger("ai.service")

# the bots whose answers are cached: a search (the others cost less than an entry)
SEARCHING_BOTS = ("ismcts",)
KEY_VERSION = "v2"  # changed whenever the key or the search's answers change
# neither a level nor a budget: `hard`, the cheapest level clearly above greedy in both games
# (docs/bots.md, "Rating ladder"); a review's default is its own (app/review.py)
DEFAULT_LEVEL = "hard"
# a seed is echoed in the answer (settings.seed): at most what every JSON client reads exactly
MAX_SEED = JSON_SAFE_INT
# plan="turn": the worlds, sampled from the seat's view with the seeds 0..7, that must agree
# on the seat's next view for the plan to go on (a step that reveals a card the view does not
# show ends the plan there, even where the game names no chance event for it)
PLAN_CHECK_WORLDS = 8


def resolve_settings(
    bot: str, level: str | None, iterations: int | None, time_ms: int | None, seed: int
) -> tuple[dict[str, Any], Budget | None]:
    """Check the request's search settings; returns (settings as JSON, ISMCTS budget)."""
    if bot not in BOT_NAMES:
        raise SetupError(
            "unknown_bot",
            msg("unknown bot {name}; known: {known}", name=repr(bot), known=", ".join(BOT_NAMES)),
            None,
            "/bot",
        )
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise SetupError(
            "invalid_seed",
            msg("seed must be an integer from 0 to {most}", most=MAX_SEED),
            None,
            "/seed",
        )
    if level is not None and (iterations is not None or time_ms is not None):
        raise SetupError(
            "invalid_budget", msg("give either a level or a budget, not both"), None, "/budget"
        )
    if level is not None and level not in LEVELS:
        raise SetupError(
            "unknown_level",
            msg(
                "unknown level {level}; known: {known}", level=repr(level), known=", ".join(LEVELS)
            ),
            None,
            "/level",
        )
    settings: dict[str, Any] = {"bot": bot, "seed": seed}
    if bot != "ismcts":
        return settings, None
    if iterations is None and time_ms is None:
        budget = LEVELS[level or DEFAULT_LEVEL]
    else:
        budget = Budget(iterations=iterations, time_ms=time_ms)
    settings.update(budget.to_json())
    return settings, budget


def cache_key(
    rules_version: str, catalog_hash: str, seat: int, view: dict[str, Any], settings: dict[str, Any]
) -> str:
    """The position cache's key of a search (module doc), before its scope (`Scoped`)."""
    parts = (rules_version, catalog_hash, str(seat), digest(view), digest(settings))
    return ":".join((KEY_VERSION, *parts))


@dataclass(frozen=True)
class Scoped:
    """A position cache's entries of one scope (module doc): each key ends in the scope's
    digest, so that no other scope reads or writes them."""

    cache: PositionCache
    scope: str

    def _key(self, key: str) -> str:
        return f"{key}:{digest(self.scope)}"

    def get(self, key: str) -> dict[str, Any] | None:
        return self.cache.get(self._key(key))

    def put(self, key: str, value: dict[str, Any]) -> None:
        self.cache.put(self._key(key), value)

    def status(self) -> dict[str, Any]:
        return self.cache.status()


def _bot_for(settings: dict[str, Any], budget: Budget | None) -> Bot:
    return make_bot(settings["bot"], budget)


PLANS = ("decision", "turn")
MAX_TURN_STEPS = 16  # a turn is a play plus its effect choices: a handful in practice
_ENTRY_KEYS = {"decision", "stats"}
_STATS_KEYS = {"iterations", "time_ms", "options"}
_OPTION_KEYS = {"decision", "visits", "value"}


MAX_COUNT = 2**53  # an answer's counts are written as JSON numbers (orjson: 64-bit at most)


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_COUNT


def _number(v: Any) -> bool:
    if isinstance(v, bool) or not isinstance(v, Real):
        return False
    return -MAX_COUNT <= v <= MAX_COUNT if isinstance(v, int) else math.isfinite(v)


def valid_entry(entry: Any, legal: set[str]) -> bool:
    """A cached answer is usable: the shape `_search` stores, and its decision (and every
    decision in its statistics) is one of the seat's options now (`legal`: canonical JSON).
    Anything else is False, never an exception (a value nested too deep to write, say)."""
    try:
        return _valid_entry(entry, legal)
    except (RecursionError, ValueError, TypeError, OverflowError):
        return False


def _valid_entry(entry: Any, legal: set[str]) -> bool:
    if not isinstance(entry, dict) or set(entry) != _ENTRY_KEYS:
        return False
    stats = entry["stats"]
    if not isinstance(stats, dict) or set(stats) != _STATS_KEYS:
        return False
    if not _count(stats["iterations"]) or not _number(stats["time_ms"]):
        return False
    options = stats["options"]
    if not isinstance(options, list) or not options:
        return False
    for o in options:
        if not isinstance(o, dict) or set(o) != _OPTION_KEYS or not _count(o["visits"]):
            return False
        if not (o["value"] is None or _number(o["value"])):
            return False
        if dumps(o["decision"]) not in legal:
            return False
    return dumps(entry["decision"]) in legal


def _search(
    eng: GameModule,
    g: Game,
    seat: int,
    settings: dict[str, Any],
    budget: Budget | None,
    cache: PositionCache | None,
    cat: Catalog | None,
    deadline: float,
) -> tuple[dict[str, Any], bool]:
    """One decision for `seat` in `g`, from the cache (`Scoped`) or a search over the
    seat's view only. Returns (the stored answer: decision and stats, whether it came from the
    cache). A truncated search (stopped by `deadline`) is answered but not cached, as is a
    bot that does not search (random, greedy: nothing to save, and cheap entries would only
    evict others)."""
    view = eng.game_view(g, seat)
    if settings["bot"] not in SEARCHING_BOTS:
        cache = None
    # the evaluation is part of the answer: a new model never answers from an old one's cache
    keyed = {**settings, "evaluation": evaluation_version(eng)}
    # the key (a digest of the view) only where an entry may be read or written
    key = "" if cache is None else cache_key(eng.INFO.rules_version, g.cat.hash, seat, view, keyed)
    stored = cache.get(key) if cache is not None else None
    if stored is not None:
        legal = {dumps(eng.action_to_json(g, seat, a)) for a in eng.legal_actions(g)}
        if valid_entry(stored, legal):
            return stored, True
        log.warning(
            "position cache: an entry failed its check; searching again and overwriting it",
            extra={"fields": {"event": "cache_entry_rejected", "key": key}},
        )
    result = _bot_for(settings, budget).choose(view, settings["seed"], cat, deadline)
    decision = eng.action_to_json(g, seat, result.action)
    options = [
        {
            "decision": eng.action_to_json(g, seat, o.action),
            "visits": o.visits,
            "value": None if o.value is None else round(o.value, 6),
        }
        for o in result.options
    ] or [{"decision": decision, "visits": 0, "value": None}]
    stored = {
        "decision": decision,
        "stats": {
            "iterations": result.iterations,
            "time_ms": round(result.time_ms, 3),
            "options": options,
        },
    }
    if result.truncated:
        stored["stats"]["truncated"] = True
    elif cache is not None and evaluation_version(eng) == keyed["evaluation"]:
        cache.put(key, stored)
    return stored, False


@dataclass(frozen=True)
class Prepared:
    """A suggestion request read and checked (`prepare`): everything `answer` needs, so that
    a request that cannot be answered is refused before it waits for or holds a search
    slot (app/suggest.py)."""

    eng: GameModule
    g: Game
    seat: int
    sampler: Any  # the view's WorldSampler; None from a state (made if a plan needs it)
    cat: Catalog | None
    settings: dict[str, Any]
    budget: Budget | None
    level: str | None
    plan: str


def prepare(
    state: dict[str, Any] | None,
    seat: int | None,
    *,
    view: dict[str, Any] | None = None,
    level: str | None = None,
    iterations: int | None = None,
    time_ms: int | None = None,
    seed: int = 0,
    bot: str = "ismcts",
    catalog: Any = None,
    plan: str = "decision",
) -> Prepared:
    """Read and check a request for `suggest` (its arguments, `suggest`'s doc): the settings,
    the plan, the state or view, the catalog, the seat and that it decides now. Raises what
    `suggest` raises for input."""
    settings, budget = resolve_settings(bot, level, iterations, time_ms, seed)
    if plan not in PLANS:
        plans = ", ".join(PLANS)
        raise SetupError(
            "invalid_plan", msg("plan must be one of {plans}", plans=plans), None, "/plan"
        )
    if (state is None) == (view is None):
        raise SetupError("invalid_request", msg("give either a state or a view"), None, "")
    if level is None and bot == "ismcts" and iterations is None and time_ms is None:
        level = DEFAULT_LEVEL
    eng = engine_of(state if state is not None else view, view is not None)
    cat = eng.get_catalog(catalog) if catalog is not None else None
    sampler = None
    if view is not None:
        g, sampler = load_view(eng, view, seat, cat)
        seat = view["view_of"]
    else:
        g, seat = _state_and_seat(eng, state, seat, cat)
    eng.require_decider(g, seat)
    return Prepared(eng, g, seat, sampler, cat, settings, budget, level, plan)


def answer(
    p: Prepared,
    *,
    cache: PositionCache | None = None,
    max_ms: int | None = None,
    scope: str | None = "",
) -> dict[str, Any]:
    """The search (and plan) of a prepared request, within `max_ms` (`suggest`'s doc); `scope`:
    whose cache entries it may read and write (module doc)."""
    t0 = time.perf_counter()
    deadline = t0 + (ai.bots.SAFETY_MS if max_ms is None else max_ms) / 1000
    eng, g, seat, settings, budget, cat = p.eng, p.g, p.seat, p.settings, p.budget, p.cat
    scoped = Scoped(cache, scope) if cache is not None and scope is not None else None
    stored, cached = _search(eng, g, seat, settings, budget, scoped, cat, deadline)
    out: dict[str, Any] = {
        "decision": stored["decision"],
        "bot": settings["bot"],
        "level": p.level if settings["bot"] == "ismcts" else None,  # the others have none
        "settings": settings,
        "stats": stored["stats"],
        "cached": cached,
    }
    if p.plan == "turn":
        # from a state: plan from its seat's view, as from that view
        sampler = p.sampler or eng.WorldSampler(eng.game_view(g, seat), cat)
        worlds = [sampler.sample(random.Random(i)) for i in range(PLAN_CHECK_WORLDS)]
        out["turn"], out["turn_complete"] = _rest_of_turn(
            eng, sampler.base, seat, stored, cached, settings, budget, scoped, cat, deadline, worlds
        )
    out["stats"] = {**out["stats"], "elapsed_ms": round((time.perf_counter() - t0) * 1000, 3)}
    return out


def suggest(
    state: dict[str, Any] | None,
    seat: int | None,
    *,
    cache: PositionCache | None = None,
    max_ms: int | None = None,
    **request: Any,
) -> dict[str, Any]:
    """The decision `seat` should take now, with the search statistics behind it, from the
    full `state` or from the seat's `view` (give exactly one; `request`: `prepare`'s keywords,
    view, level, iterations, time_ms, seed, bot, catalog and plan). Without a seat, the view's
    own (`view_of`) or the seat the state asks.

    With plan="turn", also the rest of the seat's turn: each later decision is searched on
    the seat's view of the position the earlier ones lead to, for as long as the same turn
    asks the same seat (a play, then its effect choices); `turn` lists them all, ready for
    one /v1/resolve batch. A step whose answer depends on another seat (a Laboratory play,
    a Guesthouse escape) ends the plan there. So does chance, from a state as from a view:
    a decision that deals, draws, refills, shuffles or reveals a card (an event of the
    game's CHANCE_EVENTS, e.g. a mulligan) is the plan's last step, and when the turn still
    asks the seat after it the plan is incomplete (`turn_complete: false`: ask again from
    the position it leads to). The plan reads only the seat's view: from a state it is made
    on the state rebuilt from the state's view, as from that view, so both get the same plan.

    `max_ms` (default ai.bots.SAFETY_MS) bounds the whole call: the search and every step
    of a plan stop at that deadline (`truncated`, `turn_complete: false`).

    Raises EngineError subclasses (InvalidState, IllegalDecision, SetupError) for input
    the HTTP layer should answer with 4xx; InvalidState pointers are relative to the
    document given (the state, or the view)."""
    return answer(prepare(state, seat, **request), cache=cache, max_ms=max_ms)


def _step(stored: dict[str, Any], cached: bool) -> dict[str, Any]:
    return {
        "decision": stored["decision"],
        "iterations": stored["stats"]["iterations"],
        "cached": cached,
    }


def _planning(eng: GameModule, g: Game, seat: int, turn_number: int) -> bool:
    """The plan goes on: the same turn still asks the same seat."""
    return not eng.is_terminal(g) and g.turn == turn_number and eng.current_player(g) == seat


def _advance(
    eng: GameModule, g: Game, worlds: list[Game], seat: int, turn_number: int, decision: Any
) -> bool:
    """Apply `decision` to `g` and to each world sampled from the seat's view. False when the
    plan would go on but the seat would then decide on something its view did not tell: the
    decision produced a chance event (one of `eng.CHANCE_EVENTS`: a draw, a mulligan's new
    hand, a look at the deck...), or the worlds' views of the seat differ, or the decision is
    not even legal in one of them."""
    kept, g.log = g.log, []
    try:
        eng.apply_internal(g, decision)
        events: list[dict[str, Any]] = g.log
    finally:
        g.log = kept
    if not _planning(eng, g, seat, turn_number):
        return True  # the seat's part of the turn is over (its last draw included)
    if any(ev.get("type") in eng.CHANCE_EVENTS for ev in events):
        return False
    seen = digest(eng.game_view(g, seat))
    for w in worlds:
        try:
            eng.apply_internal(w, decision)
        except EngineError:
            return False
        if digest(eng.game_view(w, seat)) != seen:
            return False
    return True


def _rest_of_turn(
    eng: GameModule,
    g: Game,
    seat: int,
    first: dict[str, Any],
    first_cached: bool,
    settings: dict[str, Any],
    budget: Budget | None,
    cache: PositionCache | None,
    cat: Catalog | None,
    deadline: float,
    worlds: list[Game],
) -> tuple[list[dict[str, Any]], bool]:
    """The first decision and the seat's next ones in the same turn (see `suggest`), and
    whether the plan reaches the end of the seat's part of the turn. `g` is the state rebuilt
    from the seat's view (never the real state, whose hidden cards the plan must not read);
    `worlds` are full states sampled from that view, moved along with the plan."""
    turn_number = g.turn
    steps = [_step(first, first_cached)]
    g = g.copy()
    if not _advance(eng, g, worlds, seat, turn_number, first["decision"]):
        return steps, False
    while len(steps) < MAX_TURN_STEPS and _planning(eng, g, seat, turn_number):
        if time.perf_counter() >= deadline:
            return steps, False
        stored, cached = _search(eng, g, seat, settings, budget, cache, cat, deadline)
        if stored["stats"].get("truncated"):
            return steps, False  # the deadline cut this step's search short: not planned
        steps.append(_step(stored, cached))
        if not _advance(eng, g, worlds, seat, turn_number, stored["decision"]):
            return steps, False
    return steps, not _planning(eng, g, seat, turn_number)


def _state_and_seat(
    eng: GameModule, state: Any, seat: Any, cat: Catalog | None
) -> tuple[Game, int]:
    """A state read by its engine, and the seat a suggestion is for: the one asked, or the
    one the state asks to decide."""
    g = eng.load(state, cat)
    if seat is None:  # the seat the state asks
        seat = eng.require_decider(g, None, "/state/pending")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < g.n:
        raise IllegalDecision(
            "unknown_seat",
            msg("seat must be 0..{last}", last=g.n - 1),
            eng.INFO.seats_clause,
            "/seat",
        )
    return g, seat


def as_view_request(body: dict[str, Any], prepared: Prepared) -> dict[str, Any]:
    """A /v1/suggest body whose `state` is replaced by the view of the seat it asks for
    (`prepared`: the body read by `prepare_request`): what a background job is queued with,
    so that the queue (Redis) never holds a state's hidden cards, its seed or its generator.
    A view and its state get the same answer (module doc): the search reads nothing else."""
    if "state" not in body:
        return body
    rest = {k: v for k, v in body.items() if k != "state"}
    seat = prepared.seat
    return {**rest, "seat": seat, "view": prepared.eng.game_view(prepared.g, seat)}


def prepare_request(body: dict[str, Any]) -> Prepared:
    """`prepare` for the fields of a /v1/suggest body as its schema loaded them (the HTTP
    path, the checks before queueing a job, and the job itself all read a body this way)."""
    budget = body.get("budget") or {}
    return prepare(
        body.get("state"),
        body.get("seat"),
        view=body.get("view"),
        level=body.get("level"),
        iterations=budget.get("iterations"),
        time_ms=budget.get("time_ms"),
        seed=body["seed"],
        bot=body["bot"],
        catalog=body.get("catalog"),
        plan=body.get("plan", "decision"),
    )


def suggest_request(
    body: dict[str, Any],
    *,
    max_ms: int,
    cache: PositionCache | None = None,
    scope: str | None = None,
) -> dict[str, Any]:
    """`suggest` for a /v1/suggest body (`prepare_request`), its cache entries in `scope`."""
    return answer(prepare_request(body), cache=cache, max_ms=max_ms, scope=scope)
