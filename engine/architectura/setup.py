"""A-1: set-up for 2, 3 or 4 players, basic and advanced."""

from __future__ import annotations

import random
from typing import Any

from engine import rng as rngmod
from engine.architectura.catalog import Catalog, replaceable
from engine.architectura.flow import begin_turn, settle
from engine.architectura.model import BLOCKS, HAND_LIMIT, TOKENS, Game, Instances
from engine.errors import Problem, SetupError, summary


def deck_cards(catalog: Catalog, replacements: dict[str, str]) -> list[str]:
    """A-1.5: the 12 basic cards with each chosen additional card in place of the basic one."""
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
                "replacements must map additional card ids to the basic card each replaces",
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
                    f"seat {seat}: {add!r} may not replace {basic!r}: an additional card replaces only a "
                    "basic card with the same basic value, or the card it names",
                    f"{path}/{add}",
                    "A-1.5",
                )
            )
            continue
        if basic in seen.values():
            problems.append(
                Problem(
                    "illegal_replacement",
                    f"seat {seat}: {basic!r} is replaced twice",
                    f"{path}/{add}",
                    "A-1.5",
                )
            )
            continue
        seen[add] = basic
    return seen


def random_replacements(catalog: Catalog, rnd: random.Random, seats: int) -> list[dict[str, str]]:
    """A-1.5 choices for an advanced game drawn from `rnd`: each seat considers every
    additional card in a random order, takes about half of them, each in place of a basic
    card it may replace that is still free. For tournaments and benchmarks."""
    adds = sorted(cid for cid, c in catalog.cards.items() if c.kind == "additional")
    out = []
    for _ in range(seats):
        reps: dict[str, str] = {}
        for add in rnd.sample(adds, len(adds)):
            if rnd.random() < 0.5:
                continue
            free = [
                b
                for b in catalog.basic_ids
                if replaceable(catalog, add, b) and b not in reps.values()
            ]
            if free:
                reps[add] = rnd.choice(free)
        out.append(reps)
    return out


def build_instances(
    catalog: Catalog, colours: tuple[str, ...], decks: list[list[str]]
) -> Instances:
    names: list[str] = []
    owner: list[int] = []
    cdef = []
    for seat, cards in enumerate(decks):
        for cid in cards:
            names.append(f"{colours[seat]}.{cid}")
            owner.append(seat)
            cdef.append(catalog.cards[cid])
    return Instances(tuple(names), tuple(owner), tuple(cdef), {n: i for i, n in enumerate(names)})


def new_game(
    catalog: Catalog,
    seats: int,
    seed: int,
    variant: str = "basic",
    first_seat: int = 0,
    colours: list[str] | None = None,
    replacements: list[dict[str, str]] | None = None,
) -> Game:
    """A-1.1 to A-1.6: decks shuffled by the seeded generator, 3 cards drawn each."""
    problems: list[Problem] = []
    if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= 4:
        raise SetupError(
            "invalid_seat_count", "Architectura is played by 2, 3 or 4 players.", "A-1.1", "/seats"
        )
    if (
        not isinstance(first_seat, int)
        or isinstance(first_seat, bool)
        or not 0 <= first_seat < seats
    ):
        problems.append(
            Problem(
                "invalid_first_seat", f"first_seat must be 0..{seats - 1}", "/first_seat", "A-1.4"
            )
        )
    if variant not in ("basic", "advanced"):
        problems.append(
            Problem("invalid_variant", "variant must be 'basic' or 'advanced'", "/variant", "A-1.5")
        )
    valid_colours = colours is None or (
        isinstance(colours, list) and all(isinstance(c, str) for c in colours)
    )
    cols = tuple(colours) if colours is not None and valid_colours else catalog.colours[:seats]
    if (
        not valid_colours
        or len(cols) != seats
        or len(set(cols)) != seats
        or any(c not in catalog.colours for c in cols)
    ):
        problems.append(
            Problem(
                "invalid_colours",
                f"colours must be {seats} distinct colours of {list(catalog.colours)}",
                "/colours",
                "A-1.1",
            )
        )
        cols = catalog.colours[:seats]
    reps: list[dict[str, str]] = []
    raw_reps: Any = [] if replacements is None else replacements
    if variant == "basic" and isinstance(raw_reps, list) and any(raw_reps):
        problems.append(
            Problem(
                "replacements_in_basic_game",
                "replacements are only allowed in the advanced game",
                "/replacements",
                "A-1.5",
            )
        )
    if not isinstance(raw_reps, list) or len(raw_reps) > seats:
        problems.append(
            Problem(
                "invalid_replacements",
                "replacements is a list with one object per seat",
                "/replacements",
                "A-1.5",
            )
        )
        raw_reps = []
    for s in range(seats):
        raw = raw_reps[s] if s < len(raw_reps) else {}
        reps.append(check_replacements(catalog, s, raw, problems, f"/replacements/{s}"))
    if problems:
        first = problems[0]
        raise SetupError(first.code, summary(problems), first.clause, first.pointer, problems)
    decks = [deck_cards(catalog, reps[s]) for s in range(seats)]
    inst = build_instances(catalog, cols, decks)
    g = Game.__new__(Game)
    g.cat, g.inst, g.n, g.colours, g.variant = catalog, inst, seats, cols, variant
    g.replacements = tuple(tuple(sorted(r.items())) for r in reps)
    g.rng = rngmod.seed_to_state(seed)
    g.decks, g.hands = [], []
    start = 0
    for s in range(seats):
        deck = list(range(start, start + len(decks[s])))
        start += len(decks[s])
        g.rng = rngmod.shuffle(g.rng, deck)
        g.hands.append(deck[:HAND_LIMIT])
        g.decks.append(deck[HAND_LIMIT:])
    g.tokens = [TOKENS] * seats
    g.limits = [HAND_LIMIT] * seats
    g.mulligan = [False] * seats
    g.started = [False] * seats
    g.outside = [[] for _ in range(seats)]
    g.graves = [[] for _ in range(seats)]
    g.removed = [[] for _ in range(seats)]
    g.city = [[] for _ in range(seats * BLOCKS)]
    g.fountain = [-1] * (seats * BLOCKS)
    g.seat, g.turn, g.over = first_seat, 0, False
    g.tasks = []
    g.log = None
    g._opts = None
    begin_turn(g, first_seat)
    settle(g)
    return g
