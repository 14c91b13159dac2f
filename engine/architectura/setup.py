"""A-1: set-up for 2, 3 or 4 players, basic and advanced."""

from __future__ import annotations

import random
from typing import Any

from engine import rng as rngmod
from engine.architectura.catalog import Catalog, replaceable
from engine.architectura.flow import begin_turn, settle
from engine.architectura.model import BLOCKS, HAND_LIMIT, TOKENS, VARIANTS, Game, Instances
from engine.architectura.schema import SetupDoc
from engine.declared import convert
from engine.errors import Problem, SetupError, pointer_token, short_repr, unknown_keys
from engine.messages import msg
from engine.setup_fields import SetupClauses, check_shared_fields, well_formed

# the fields of a set-up (declared by schema.SetupDoc; their values are checked here,
# each as sent: check_fields)
SETUP_KEYS: tuple[str, ...] = SetupDoc.__struct_fields__
GAME = "architectura"
# most instance tables kept per catalog (in `Catalog.cache`, so that a catalog a request sent
# dies with the request: a module-level table kept 512 of them, 2.75 MB each for a large
# one, 1.2 GB a worker: audit of 2026-11-30); a built-in catalog's colours and decks vary
_CACHE_SIZE = 512


def deck_cards(catalog: Catalog, replacements: dict[str, str]) -> list[str]:
    """A-1.5: the 12 basic cards with each chosen additional card in place of the basic one."""
    if not replacements:
        return list(catalog.basic_ids)
    by_basic = {basic: add for add, basic in replacements.items()}
    return [by_basic.get(b, b) for b in catalog.basic_ids]


def check_replacements(
    catalog: Catalog, seat: int, replacements: Any, problems: list[Problem], path: str
) -> dict[str, str]:
    """A-1.5: {additional card: basic card it replaces}; each basic card replaced once."""
    if not isinstance(replacements, dict):
        problems.append(
            Problem(
                "invalid_replacements",
                msg("replacements must map additional card ids to the basic card each replaces"),
                path,
                "A-1.5",
            )
        )
        return {}
    most = len(catalog.basic_ids)
    if len(replacements) > most:  # each replaces a basic card of its own: refused unread
        problems.append(
            Problem(
                "invalid_replacements",
                msg(
                    "seat {seat}: {count} replacements; at most {most}, one per basic card",
                    seat=seat,
                    count=len(replacements),
                    most=most,
                ),
                path,
                "A-1.5",
            )
        )
        return {}
    seen: dict[str, str] = {}
    for add, basic in replacements.items():
        if not isinstance(basic, str) or not replaceable(catalog, add, basic):
            problems.append(
                Problem(
                    "illegal_replacement",
                    msg(
                        "seat {seat}: {card} may not replace {basic}: an additional card replaces "
                        "only a basic card with the same basic value, or the card it names",
                        seat=seat,
                        card=short_repr(add),
                        basic=short_repr(basic),
                    ),
                    f"{path}/{pointer_token(add)}",
                    "A-1.5",
                )
            )
            continue
        if basic in seen.values():
            problems.append(
                Problem(
                    "illegal_replacement",
                    msg(
                        "seat {seat}: {basic} is replaced twice", seat=seat, basic=short_repr(basic)
                    ),
                    f"{path}/{pointer_token(add)}",
                    "A-1.5",
                )
            )
            continue
        seen[add] = basic
    return seen


def _candidates(catalog: Catalog) -> dict[str, tuple[str, ...]]:
    """Each additional card's replaceable basic cards, in `basic_ids` order (A-1.5). Kept with
    the catalog (immutable)."""
    hit: dict[str, tuple[str, ...]] | None = catalog.cache.get("candidates")
    if hit is not None:
        return hit
    cands = {
        cid: tuple(b for b in catalog.basic_ids if replaceable(catalog, cid, b))
        for cid, c in catalog.cards.items()
        if c.kind == "additional"
    }
    catalog.cache["candidates"] = cands
    return cands


def random_replacements(catalog: Catalog, rnd: random.Random, seats: int) -> list[dict[str, str]]:
    """A-1.5 choices for an advanced game drawn from `rnd`: each seat considers every
    additional card in a random order, takes about half of them, each in place of a basic
    card it may replace that is still free. For tournaments and benchmarks."""
    cands = _candidates(catalog)
    adds = sorted(cands)
    out = []
    for _ in range(seats):
        reps: dict[str, str] = {}
        taken: set[str] = set()
        for add in rnd.sample(adds, len(adds)):
            if rnd.random() < 0.5:
                continue
            free = [b for b in cands[add] if b not in taken]
            if free:
                b = rnd.choice(free)
                reps[add] = b
                taken.add(b)
        out.append(reps)
    return out


def build_instances(
    catalog: Catalog, colours: tuple[str, ...], decks: list[list[str]]
) -> Instances:
    """The game's instance tables. Immutable and shared by every copy of a game, so games
    with the same catalog object, colours and decks share one (built once, not per game)."""
    tables: dict[tuple[Any, ...], Instances] = catalog.cache.setdefault("instances", {})
    key = (colours, tuple(map(tuple, decks)))
    hit = tables.get(key)
    if hit is not None:
        return hit
    names: list[str] = []
    owner: list[int] = []
    cdef = []
    for seat, cards in enumerate(decks):
        for cid in cards:
            names.append(f"{colours[seat]}.{cid}")
            owner.append(seat)
            cdef.append(catalog.cards[cid])
    inst = Instances(tuple(names), tuple(owner), tuple(cdef), {n: i for i, n in enumerate(names)})
    if len(tables) >= _CACHE_SIZE:
        tables.clear()  # bounded: each game's colours and decks (A-1.5 choices) may differ
    tables[key] = inst
    return inst


CLAUSES = SetupClauses(GAME, "A-1", seats="A-1.1", seed="A-1.6", first_seat="A-1.4")


def check_fields(setup: dict[str, Any], problems: list[Problem]) -> int | None:
    """The problems of the set-up's fields that need no catalog (A-1.1, A-1.4, A-1.5, A-1.6;
    engine/setup_fields.py): an unknown field (as Fora de Prumo refuses one, F-1) first. The
    number of seats, None when it is bad. A set-up that converts (schema.SetupDoc) with a
    first seat of the game has none."""
    doc = convert(setup, SetupDoc)
    if doc is not None and well_formed(doc):
        return doc.seats
    unknown_keys(problems, setup, SETUP_KEYS, "", "unknown_field", msg("set-up "), "A-1")
    n = check_shared_fields(
        setup, problems, CLAUSES, msg("Architectura is played by 2, 3 or 4 players.")
    )
    if setup.get("variant", "basic") not in VARIANTS:
        problems.append(
            Problem(
                "invalid_variant", msg("variant must be 'basic' or 'advanced'"), "/variant", "A-1.5"
            )
        )
    return n


def new_game(
    catalog: Catalog, setup: dict[str, Any], n: int | None, problems: list[Problem]
) -> Game:
    """A-1.1 to A-1.6: decks shuffled by the seeded generator, 3 cards drawn each. The
    set-up's values are taken as sent: the colours and replacements are checked here, every
    problem listed with `problems` (those of its other fields, and `n` the number of seats
    or None, as `check_fields` found them)."""
    seats = n or 4  # a bad number of seats: the colours and replacements of up to 4 seats
    variant = setup.get("variant", "basic")
    first_seat = setup.get("first_seat", 0)
    colours: Any = setup.get("colours")
    if "colours" not in setup:  # the catalog's first colours: only their number can be wrong
        cols = catalog.colours[:seats]
        bad_colours = n is not None and len(cols) != seats
    else:
        # its length first: a list of a million colours is refused unread
        valid_colours = (
            isinstance(colours, list)
            and (len(colours) == n if n is not None else 2 <= len(colours) <= 4)
            and all(isinstance(c, str) for c in colours)
        )
        cols = tuple(colours) if valid_colours else catalog.colours[:seats]
        bad_colours = (
            not valid_colours
            or len(set(cols)) != len(cols)
            or any(c not in catalog.colours for c in cols)
        )
    if bad_colours:
        problems.append(
            Problem(
                "invalid_colours",
                msg(
                    "colours must be {seats} distinct colours of {colours}",
                    seats=seats,
                    colours=list(catalog.colours),
                ),
                "/colours",
                "A-1.1",
            )
        )
        cols = catalog.colours[:seats]
    reps: list[dict[str, str]] = []
    raw_reps: Any = setup.get("replacements", [])
    if raw_reps == [] and not problems:  # no replacements: nothing to check
        assert n is not None
        return _start(catalog, n, setup["seed"], variant, first_seat, cols, [{}] * n)
    if not isinstance(raw_reps, list) or len(raw_reps) > seats:
        problems.append(
            Problem(
                "invalid_replacements",
                msg("replacements is a list with one object per seat"),
                "/replacements",
                "A-1.5",
            )
        )
        raw_reps = []
    if variant == "basic" and any(raw_reps):
        problems.append(
            Problem(
                "replacements_in_basic_game",
                msg("replacements are only allowed in the advanced game"),
                "/replacements",
                "A-1.5",
            )
        )
    for s in range(seats):
        raw = raw_reps[s] if s < len(raw_reps) else {}
        reps.append(check_replacements(catalog, s, raw, problems, f"/replacements/{s}"))
    if problems:
        raise SetupError.listing(problems)
    assert n is not None
    return _start(catalog, n, setup["seed"], variant, first_seat, cols, reps)


def _start(
    catalog: Catalog,
    seats: int,
    seed: int,
    variant: str,
    first_seat: int,
    cols: tuple[str, ...],
    reps: list[dict[str, str]],
) -> Game:
    """The checked set-up's game: decks shuffled, hands drawn, the first turn begun."""
    decks = []
    chosen = []
    for r in reps:
        if r:
            decks.append(deck_cards(catalog, r))
            chosen.append(tuple(sorted(r.items())))
        else:
            decks.append(list(catalog.basic_ids))
            chosen.append(())
    g = Game.__new__(Game)
    g.cat, g.n, g.colours, g.variant = catalog, seats, cols, variant
    g.inst = build_instances(catalog, cols, decks)
    g.replacements = tuple(chosen)
    state = rngmod.seed_to_state(seed)
    g.decks, g.hands = [], []
    start = 0
    shuffle = rngmod.shuffle
    for cards in decks:
        end = start + len(cards)
        deck = list(range(start, end))
        start = end
        state = shuffle(state, deck)
        g.hands.append(deck[:HAND_LIMIT])
        g.decks.append(deck[HAND_LIMIT:])
    g.rng = state
    g.tokens = [TOKENS] * seats
    g.limits = [HAND_LIMIT] * seats
    g.mulligan = [False] * seats
    g.started = [False] * seats
    g.outside, g.graves, g.removed, g.city = [], [], [], []
    for _ in range(seats):  # an explicit loop: four comprehensions cost a call each
        g.outside.append([])
        g.graves.append([])
        g.removed.append([])
        for _ in range(BLOCKS):
            g.city.append([])
    g.fountain = [-1] * (seats * BLOCKS)
    g.seat, g.turn, g.over = first_seat, 0, False
    g.tasks = []
    g.log = None
    g._opts = None
    g._at = [0] * len(g.inst.names)
    begin_turn(g, first_seat)
    settle(g)
    return g
