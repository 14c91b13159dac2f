"""F-1: set-up for 2, 3 or 4 players: the cards in use, three shuffled piles, the deal
(F-R3), the deck (F-R4), the market (F-1.7) and the first player (F-R5)."""

from __future__ import annotations

from typing import Any, Final

from engine import rng as rngmod
from engine.declared import convert, unknown_fields
from engine.errors import Problem, ProblemList, SetupError
from engine.fora_de_prumo.building import Building
from engine.fora_de_prumo.catalog import Catalog
from engine.fora_de_prumo.model import BUY, Game
from engine.fora_de_prumo.schema import SetupDoc
from engine.fora_de_prumo.work import Work
from engine.messages import msg
from engine.setup_fields import (
    SetupClauses,
    check_shared_fields,
    is_int,
    not_an_integer,
    well_formed,
)

GAME = "fora-de-prumo"
SETUP_KEYS: tuple[str, ...] = SetupDoc.__struct_fields__
CLAUSES = SetupClauses(GAME, "F-1", seats="F-1.1", seed="F-1.9", first_seat="F-R5")
MARKET_SIZES: Final = (4, 5, 6)
DEFAULT_MARKET: Final = 5
DEAL: Final = ((3, 2), (2, 2), (1, 1))  # F-R3: (phase, cards per seat), in dealing order


def cards_in_use(cat: Catalog, n: int) -> list[str]:
    """F-1.3: the cards whose player minimum is at most n, in catalog order."""
    return list(_in_use(cat, n)[0])


def piles(cat: Catalog, n: int) -> dict[int, list[str]]:
    """F-1.4: the cards in use sorted into three piles by phase (catalog order, unshuffled)."""
    return {phase: list(pile) for phase, pile in _in_use(cat, n)[1].items()}


def _in_use(cat: Catalog, n: int) -> tuple[tuple[str, ...], dict[int, tuple[str, ...]]]:
    """The cards in use and their piles, read from the catalog once per seat count (every
    set-up and every state read asks)."""
    cache: dict[int, tuple[tuple[str, ...], dict[int, tuple[str, ...]]]] | None = cat.cache.get(
        "fdp_in_use"
    )
    if cache is None:
        cache = cat.cache["fdp_in_use"] = {}
    got = cache.get(n)
    if got is None:
        use = tuple(cid for cid, c in cat.cards.items() if c.min_players <= n)
        out: dict[int, list[str]] = {1: [], 2: [], 3: []}
        for cid in use:
            out[cat.cards[cid].phase].append(cid)
        got = cache[n] = (use, {phase: tuple(pile) for phase, pile in out.items()})
    return got


def check_setup(setup: Any) -> list[Problem]:
    """Every problem of a set-up object's own fields (the catalog is read by the caller)."""
    doc = convert(setup, SetupDoc)
    if well_formed(doc):
        return ProblemList()  # well formed: no problem to look for
    if not isinstance(setup, dict):
        return [Problem("invalid_setup", msg("the set-up must be an object"), "", "F-1")]
    problems = ProblemList()  # an object of 100,000 unknown fields costs a count
    unknown_fields(problems, setup, SETUP_KEYS, "", "unknown_field", "F-1", msg("set-up "))
    check_shared_fields(
        setup, problems, CLAUSES, msg("Fora de Prumo is played by 2, 3 or 4 players")
    )
    k = setup.get("market_size", DEFAULT_MARKET)
    if not is_int(k) or k not in MARKET_SIZES:
        said = (
            msg("market_size must be 4, 5 or 6")
            if is_int(k)
            else not_an_integer("market_size", MARKET_SIZES[0], MARKET_SIZES[-1], k)
        )
        problems.append(Problem("invalid_market_size", said, "/market_size", "F-1.7"))
    return problems


def new_game(cat: Catalog, setup: dict[str, Any]) -> Game:
    """F-1.1 to F-1.9 from a set-up already checked by `check_setup`."""
    n: int = setup["seats"]
    k: int = setup.get("market_size", DEFAULT_MARKET)
    first: int = setup.get("first_seat", 0)
    state = rngmod.seed_to_state(setup["seed"])
    pile = piles(cat, n)
    for phase in (1, 2, 3):  # F-1.9: the three shuffles, phase I first
        state = rngmod.shuffle(state, pile[phase])
    problems: list[Problem] = []
    for phase, each in DEAL:
        if len(pile[phase]) < each * n:
            problems.append(
                Problem(
                    "pile_too_short",
                    msg(
                        "cards in use in the phase {phase} pile: {count}; the deal needs {needed}",
                        phase=phase,
                        count=len(pile[phase]),
                        needed=each * n,
                    ),
                    "/catalog",
                    "F-R3",
                )
            )
    hands: list[list[str]] = [[] for _ in range(n)]
    order = [(first + i) % n for i in range(n)]
    if not problems:
        for phase, each in DEAL:  # F-R3: each seat in turn takes its cards off the pile top
            for s in order:
                hands[s].extend(pile[phase][:each])
                del pile[phase][:each]
    deck = pile[1] + pile[2] + pile[3]  # F-R4
    if not problems and len(deck) < k:
        problems.append(
            Problem(
                "deck_too_short",
                msg(
                    "cards left in the deck after the deal: {count}; the market needs {needed}",
                    count=len(deck),
                    needed=k,
                ),
                "/catalog",
                "F-R3",
            )
        )
    if problems:
        raise SetupError.listing(problems, "F-2.8")
    g = Game.__new__(Game)
    g.cat, g.n, g.market_size, g.first_seat = cat, n, k, first
    g.hands = hands
    g.works = [Work([], [], [], [], []) for _ in range(n)]
    g.buildings = [Building(cat, [], set()) for _ in range(n)]
    g.own = [True] * n
    g.pcache = [{} for _ in range(n)]
    g.market = deck[:k]  # F-1.7: turned up one by one, the first at index 0
    g.deck = deck[k:]
    g.seat, g.turn, g.step = first, 1, BUY
    g.peeked, g.bought, g.passes, g.final = [], None, 0, None
    g.rng, g.over = state, False
    g.log = None
    g._opts = None
    return g
