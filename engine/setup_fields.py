"""The set-up fields every game has (`game`, `seats`, `seed`, `first_seat`), read alike in
every game: each value taken as sent, a wrong type, a value out of range, null and a boolean
where an integer belongs all its field's problem, each naming the game's own clause."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from engine.declared import brief
from engine.errors import CatalogError, Problem, SetupError, add_problems_of, missing
from engine.messages import Msg, msg

C = TypeVar("C")

SEATS = range(2, 5)  # both games are played by 2, 3 or 4 players
SEED_LIMIT = 2**64
# The largest integer every JSON client reads exactly: JavaScript and jq read JSON numbers as
# doubles, which round integers above it. Every number the service chooses stays within it.
JSON_SAFE_INT = 2**53 - 1


def seats_field(clause: str) -> msgspec.Meta:
    """A set-up's `seats` as its game declares it (schema.SetupDoc): its range and clause."""
    return msgspec.Meta(
        ge=SEATS.start, le=SEATS.stop - 1, extra={"clause": clause}, description=clause
    )


def seed_field(clause: str) -> msgspec.Meta:
    """A set-up's `seed`: at least 0 (and, in the contract, below SEED_LIMIT: msgspec bounds an
    integer within 64 bits)."""
    return msgspec.Meta(
        ge=0,
        extra={"clause": clause},
        description=f"Seed of every shuffle ({clause}).",
        extra_json_schema={"maximum": SEED_LIMIT - 1},
    )


def first_seat_field(clause: str) -> msgspec.Meta:
    """A set-up's `first_seat`: a seat of the most seats (below `seats` in the contract: see
    below_seats)."""
    return msgspec.Meta(
        ge=0, le=SEATS.stop - 2, extra={"clause": clause}, description=f"{clause}; below seats."
    )


def by_seats(n: int, then: dict[str, Any]) -> dict[str, Any]:
    """A set-up's contract constraint for `n` seats (JSON Schema if/then)."""
    return {"if": {"required": ["seats"], "properties": {"seats": {"const": n}}}, "then": then}


def well_formed(doc: Any) -> bool:
    """A set-up converted to its game's SetupDoc (or None) with no problem in its own fields:
    its first seat one of the game's (A-1.4, F-R5) and its seed below 2^64 (a set-up without
    one is read field by field)."""
    return (
        doc is not None
        and doc.first_seat < doc.seats
        and isinstance(doc.seed, int)
        and doc.seed < SEED_LIMIT
    )


def random_seed() -> int:
    """A seed chosen at random (the system's generator, `secrets`), 0 to 2^53-1: a set-up's
    seed when it gives none (A-1.6, F-1.9). Below JSON_SAFE_INT, so that a client reading
    JSON numbers as doubles sends the history back as it was written (the service holds a
    new game's seed to it too; a set-up is read up to 2^64-1, so that old states and records
    stay readable)."""
    return secrets.randbelow(JSON_SAFE_INT + 1)


def rounded_seed(setup: Any) -> int | None:
    """The set-up's seed when a client reading JSON numbers as doubles may have rounded it
    (above JSON_SAFE_INT), else None."""
    seed: Any = setup.get("seed") if isinstance(setup, dict) else None
    return int(seed) if is_int(seed) and seed > JSON_SAFE_INT else None


def seeded(setup: Any) -> Any:
    """A set-up with its seed: as sent, or, when it gives none, one chosen at random and
    written in (a copy), so that the game it sets up can be replayed from it. The service
    does it where it reads a set-up (app/schemas.py `load_setup`), so that the state's
    history names the seed; the engines again, for a Python caller."""
    if isinstance(setup, dict) and "seed" not in setup:
        return {**setup, "seed": random_seed()}
    return setup


@dataclass(frozen=True)
class SetupClauses:
    """Where one game's rules say what its shared set-up fields are."""

    game: str  # the game id a set-up's `game` must name, when given
    setup: str  # the set-up as a whole (A-1, F-1)
    seats: str
    seed: str
    first_seat: str


def is_int(v: Any) -> bool:
    """An integer in JSON's sense (a boolean is not one)."""
    return isinstance(v, int) and not isinstance(v, bool)


def not_an_integer(field: str, lo: int, hi: int, value: Any) -> Msg:
    """The sentence for a set-up field sent with a type other than an integer's (a string,
    a fraction, null, a boolean...): the type wanted, its range, and what was sent."""
    return msg(
        "{field} must be an integer from {lo} to {hi}, not {value}",
        field=field,
        lo=lo,
        hi=hi,
        value=brief(value),
    )


def check_shared_fields(
    setup: dict[str, Any], problems: list[Problem], clauses: SetupClauses, players: Msg
) -> int | None:
    """Append the problems of the shared fields; the number of seats, None when it is bad.
    `players`: the game's sentence for a bad number of seats."""
    if setup.get("game", clauses.game) != clauses.game:
        problems.append(
            Problem(
                "wrong_game",
                msg("game must be {game}", game=repr(clauses.game)),
                "/game",
                clauses.setup,
            )
        )
    seats: Any = setup.get("seats")
    n = seats if is_int(seats) and seats in SEATS else None
    if not missing(problems, setup, "seats", clauses.seats) and n is None:
        # a wrong type says which type is wanted; a number out of range, the game's sentence
        said = players if is_int(seats) else not_an_integer("seats", SEATS[0], SEATS[-1], seats)
        problems.append(Problem("invalid_seat_count", said, "/seats", clauses.seats))
    seed: Any = setup.get("seed")
    if not missing(problems, setup, "seed", clauses.seed) and (
        not is_int(seed) or not 0 <= seed < SEED_LIMIT
    ):
        said = (
            msg("seed must be an integer from 0 to 2^64-1")
            if is_int(seed)
            else msg("seed must be an integer from 0 to 2^64-1, not {value}", value=brief(seed))
        )
        problems.append(Problem("invalid_seed", said, "/seed", clauses.seed))
    first_seat = setup.get("first_seat", 0)
    most = (n or SEATS[-1]) - 1  # with a bad number of seats, any seat of the largest game
    if not is_int(first_seat) or not 0 <= first_seat <= most:
        said = (
            msg("first_seat must be 0..{last}", last=most)
            if is_int(first_seat)
            else not_an_integer("first_seat", 0, most, first_seat)
        )
        problems.append(Problem("invalid_first_seat", said, "/first_seat", clauses.first_seat))
    return n


def setup_catalog(
    problems: list[Problem], setup: dict[str, Any], get_catalog: Callable[[Any], C]
) -> C | None:
    """The set-up's catalog (`catalog`, the reference one by default), read after its other
    fields (their problems in `problems`). A catalog that is the set-up's only problem is
    refused with its own error, as beside a state; else its problems join the set-up's,
    under /catalog, and the answer is None."""
    try:
        return get_catalog(setup.get("catalog", "reference"))
    except CatalogError as e:
        if not problems:
            raise
        add_problems_of(problems, e, "/catalog")
    except SetupError as e:  # an unknown built-in catalog
        problems.append(Problem(e.code, e.detail, e.pointer, e.clause))
    return None
