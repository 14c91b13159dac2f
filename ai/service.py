"""`suggest`: what the HTTP layer calls for POST /v1/suggest.

The state is read and checked by the engine, written back in canonical form, and reduced to
the seat's view (`arch.player_view`); the bot is given that view and nothing else. Results
are cached by position: rules version, catalog hash, seat, the canonical digest of the
seat's view (its information set) and the search settings (bot, budget, seed). Two states
that differ only in what the seat cannot see share a key, which is exactly right: the bot
would answer them identically anyway.

Iteration budgets are deterministic (same key, same answer, cached or not). A time budget
is not: the iterations done in the time depend on the machine's speed and load, so the
first result stored for a key is the one later hits return until it expires.
"""

from __future__ import annotations

import time
from typing import Any

import engine.architectura as arch
from ai.bots import BOT_NAMES, LEVELS, SAFETY_MS, Bot, Budget, make_bot
from ai.cache import PositionCache
from engine.canonical import digest
from engine.errors import IllegalDecision, SetupError

KEY_VERSION = "v1"
DEFAULT_LEVEL = "medium"  # neither a level nor a budget
MAX_SEED = 2**63 - 1


def resolve_settings(
    bot: str, level: str | None, iterations: int | None, time_ms: int | None, seed: int
) -> tuple[dict[str, Any], Budget | None]:
    """Check the request's search settings; returns (settings as JSON, ISMCTS budget)."""
    if bot not in BOT_NAMES:
        raise SetupError(
            "unknown_bot", f"unknown bot {bot!r}; known: {', '.join(BOT_NAMES)}", None, "/bot"
        )
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise SetupError(
            "invalid_seed", f"seed must be an integer from 0 to {MAX_SEED}", None, "/seed"
        )
    if level is not None and (iterations is not None or time_ms is not None):
        raise SetupError(
            "invalid_budget", "give either a level or a budget, not both", None, "/budget"
        )
    if level is not None and level not in LEVELS:
        raise SetupError(
            "unknown_level", f"unknown level {level!r}; known: {', '.join(LEVELS)}", None, "/level"
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
    return ":".join(
        (KEY_VERSION, rules_version, catalog_hash, str(seat), digest(view), digest(settings))
    )


def _bot_for(settings: dict[str, Any], budget: Budget | None) -> Bot:
    return make_bot(settings["bot"], budget)


PLANS = ("decision", "turn")
MAX_TURN_STEPS = 16  # a turn is a play plus its effect choices: a handful in practice


def _search(
    g: arch.Game,
    seat: int,
    settings: dict[str, Any],
    budget: Budget | None,
    cache: PositionCache | None,
    cat: arch.Catalog | None,
) -> tuple[dict[str, Any], bool]:
    """One decision for `seat` in `g`, from the cache or a search over the seat's view only.
    Returns (the stored answer: decision and stats, whether it came from the cache)."""
    view = arch.game_view(g, seat)
    key = cache_key(arch.RULES_VERSION, g.cat.hash, seat, view, settings)
    stored = cache.get(key) if cache is not None else None
    if stored is not None:
        return stored, True
    result = _bot_for(settings, budget).choose(view, settings["seed"], cat)
    decision = arch.action_to_json(g, seat, result.action)
    options = [
        {
            "decision": arch.action_to_json(g, seat, o.action),
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
    elif cache is not None:
        cache.put(key, stored)
    return stored, False


def suggest(
    state: dict[str, Any],
    seat: int,
    *,
    level: str | None = None,
    iterations: int | None = None,
    time_ms: int | None = None,
    seed: int = 0,
    bot: str = "ismcts",
    cache: PositionCache | None = None,
    catalog: Any = None,
    plan: str = "decision",
) -> dict[str, Any]:
    """The decision `seat` should take now, with the search statistics behind it.

    With plan="turn", also the rest of the seat's turn: each later decision is searched on
    the seat's view of the position the earlier ones lead to, for as long as the same turn
    asks the same seat (a play, then its effect choices); `turn` lists them all, ready for
    one /v1/resolve batch. A step whose answer depends on another seat (a Laboratory play,
    a Guesthouse escape) ends the plan there.

    Raises EngineError subclasses (InvalidState, IllegalDecision, SetupError) for input
    the HTTP layer should answer with 4xx."""
    t0 = time.perf_counter()
    settings, budget = resolve_settings(bot, level, iterations, time_ms, seed)
    if plan not in PLANS:
        raise SetupError("invalid_plan", f"plan must be one of {', '.join(PLANS)}", None, "/plan")
    if level is None and bot == "ismcts" and iterations is None and time_ms is None:
        level = DEFAULT_LEVEL
    cat = arch.get_catalog(catalog) if catalog is not None else None
    g = arch.load(state, cat)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < g.n:
        raise IllegalDecision("unknown_seat", f"seat must be 0..{g.n - 1}", "A-1.1", "/seat")
    arch.require_decider(g, seat)
    stored, cached = _search(g, seat, settings, budget, cache, cat)
    out: dict[str, Any] = {
        "decision": stored["decision"],
        "bot": settings["bot"],
        "level": level,
        "settings": settings,
        "stats": stored["stats"],
        "cached": cached,
    }
    if plan == "turn":
        deadline = t0 + SAFETY_MS / 1000
        out["turn"], out["turn_complete"] = _rest_of_turn(
            g, seat, stored, cached, settings, budget, cache, cat, deadline
        )
    out["stats"] = {**out["stats"], "elapsed_ms": round((time.perf_counter() - t0) * 1000, 3)}
    return out


def _rest_of_turn(
    g: arch.Game,
    seat: int,
    first: dict[str, Any],
    first_cached: bool,
    settings: dict[str, Any],
    budget: Budget | None,
    cache: PositionCache | None,
    cat: arch.Catalog | None,
    deadline: float,
) -> tuple[list[dict[str, Any]], bool]:
    """The first decision and the seat's next ones in the same turn (see `suggest`), and
    whether the plan reaches the end of the seat's part of the turn: a plan stops early at
    the safety deadline, which keeps a request under the server's worker timeout."""
    turn_number = g.turn
    steps = [
        {
            "decision": first["decision"],
            "iterations": first["stats"]["iterations"],
            "cached": first_cached,
        }
    ]
    g = g.copy()
    arch.apply_internal(g, first["decision"])
    while (
        len(steps) < MAX_TURN_STEPS
        and not arch.is_terminal(g)
        and g.turn == turn_number
        and arch.current_player(g) == seat
    ):
        if time.perf_counter() > deadline:
            return steps, False
        stored, cached = _search(g, seat, settings, budget, cache, cat)
        steps.append(
            {
                "decision": stored["decision"],
                "iterations": stored["stats"]["iterations"],
                "cached": cached,
            }
        )
        arch.apply_internal(g, stored["decision"])
    complete = arch.is_terminal(g) or g.turn != turn_number or arch.current_player(g) != seat
    return steps, complete
