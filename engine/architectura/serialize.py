"""The plain-JSON game state (docs/state.md) and its strict reader.

`game_to_json` writes the state; `game_from_json` checks shape and consistency and reports
every problem at once with a JSON pointer (InvalidState), never a silently fixed state;
`game_from_sealed` decodes a state the service sealed, as it wrote it, without those checks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import msgspec

from engine import rng as rngmod
from engine.architectura.catalog import Catalog, builtin_catalogs
from engine.architectura.city import current_value, has_graveyard
from engine.architectura.flow import ASKING, AUTOMATIC, OP_CLAUSE, TASK_KINDS, options, settle
from engine.architectura.model import (
    BLOCKS,
    HAND_LIMIT,
    RULES_VERSION,
    TOKENS,
    Action,
    Entry,
    Game,
    Task,
    cell_json,
)
from engine.architectura.schema import GAME, EntryDoc, SeatDoc, StateDoc
from engine.architectura.scoring import final_scores
from engine.architectura.setup import build_instances, check_replacements, deck_cards
from engine.canonical import same
from engine.declared import Problems, convert, node, state_catalog
from engine.errors import InvalidState, Problem, short_repr
from engine.messages import msg

# Most resolving steps an engine-written state holds at once is about six (a turn, a cost,
# an operation, a protection choice, a Guesthouse escape); anything longer was not written
# by the engine, and is refused before its steps are read.
MAX_RESOLVING = 64

# What each task kind that asks shows as its pending decision: (kind, clause, prompt).
KIND = {k: kind.pending for k, kind in TASK_KINDS.items() if kind.pending is not None}

# task fields holding a card instance, a cell, a seat, a list of seats
CARD_KEYS = ("src", "card", "target", "excluded")
# How each field of each task kind is read (flow.TASK_KINDS declares them).
TASK_FIELDS: dict[str, dict[str, str]] = {k: kind.fields for k, kind in TASK_KINDS.items()}
TASK_KEYS = {k: frozenset({*spec, "k"}) for k, spec in TASK_FIELDS.items()}

# -- writing -----------------------------------------------------------------------------


# Each decision type and its fields, in the order of the engine's action tuple after the type.
DECISION_TYPES = {
    "play": ("card", "cell"),
    "play_face_down": ("card", "cell"),
    "obelisk": ("card",),
    "pay": ("card",),
    "rotate": ("target", "steps"),
    "move": ("target", "cell"),
    "fountain": ("cell",),
    "guesthouse": ("cell",),
    "mulligan": (),
    "pass": (),
    "apply": (),
    "decline": (),
    "destroy": ("target",),
    "restore": ("target",),
    "swap": ("target",),
    "remove": ("target",),
    "protect": ("target",),
    "manufactory": ("target",),
    "smithy": ("target",),
}


# How each field of a decision type is written: a card's name, a cell, or as it is.
NAME, CELL, PLAIN = 1, 2, 0
_HOW = {
    kind: tuple(
        (f, NAME if f in ("card", "target") else CELL if f == "cell" else PLAIN) for f in fields
    )
    for kind, fields in DECISION_TYPES.items()
}


def action_to_json(g: Game, seat: int, a: Action) -> dict[str, Any]:
    """An option as the decision object that `apply` accepts unchanged."""
    return _action_json(g.inst.names, seat, a)


def _action_json(names: tuple[str, ...], seat: int, a: Action) -> dict[str, Any]:
    d: dict[str, Any] = {"seat": seat, "type": a[0]}
    i = 1
    for field, how in _HOW[a[0]]:
        v = a[i]
        i += 1
        if how == NAME:
            d[field] = names[v]
        elif how == CELL:
            d[field] = [v // BLOCKS + 1, v % BLOCKS + 1] if v >= 0 else None
        else:
            d[field] = v
    return d


def pending_json(g: Game) -> dict[str, Any] | None:
    if g.over or not g.tasks:
        return None
    opts = options(g)
    t = g.tasks[-1]
    kind, clause, prompt = KIND[t["k"]]
    seat = int(t["seat"])
    names = g.inst.names
    out: dict[str, Any] = {
        "seat": seat,
        "colour": g.colours[seat],
        "kind": kind,
        "clause": clause,
        "prompt": prompt,
    }
    if t["k"] == "op":
        op = g.cat.cards[t["def"]].on_play[t["i"]]
        out["operation"] = op.op
        out["clause"] = OP_CLAUSE[op.op]
        out["prompt"] = (
            f"{'you may' if op.may else 'you must'} {op.op}: {g.cat.cards[t['def']].text}"
        )
    if "src" in t:
        out["source"] = names[t["src"]]
    if "target" in t:
        out["card"] = names[t["target"]]
    out["options"] = [_action_json(names, seat, a) for a in opts]
    return out


def _task_json(g: Game, t: Task) -> dict[str, Any]:
    out: dict[str, Any] = {}
    names = g.inst.names
    for k, v in t.items():
        if k in CARD_KEYS:
            out[k] = names[v]
        elif k == "cell":
            out[k] = cell_json(v) if v >= 0 else None
        elif k == "done" and not g.cat.cards[t["def"]].on_play[t["i"]].per_owner:
            out[k] = [names[i] for i in v]
        elif isinstance(v, list):
            out[k] = list(v)
        else:
            out[k] = v
    return out


def _city_json(g: Game) -> list[list[list[dict[str, Any]]]]:
    names, city = g.inst.names, g.city
    streets = []
    for street in range(g.n):
        row = []
        for cell in range(street * BLOCKS, street * BLOCKS + BLOCKS):
            stack = [
                {"card": names[iid], "orientation": orient, "face_up": face_up, "token": token}
                for iid, orient, face_up, token in city[cell]
            ]
            if stack:
                stack[-1]["value"] = current_value(g, cell)
            row.append(stack)
        streets.append(row)
    return streets


def game_to_json(g: Game) -> dict[str, Any]:
    names = g.inst.names
    seats = [
        {
            "colour": g.colours[s],
            "replacements": dict(g.replacements[s]),
            "deck": [names[i] for i in g.decks[s]],
            "hand": [names[i] for i in g.hands[s]],
            "tokens": g.tokens[s],
            "hand_limit": g.limits[s],
            "mulligan_used": g.mulligan[s],
            "first_turn_taken": g.started[s],
            "outside": [names[i] for i in g.outside[s]],
            "graveyard": [names[i] for i in g.graves[s]],
            "removed": [names[i] for i in g.removed[s]],
        }
        for s in range(g.n)
    ]
    return {
        "game": GAME,
        "rules_version": RULES_VERSION,
        "catalog": {"id": g.cat.id, "hash": g.cat.hash},
        "variant": g.variant,
        "seats": seats,
        "city": _city_json(g),
        "fountains": [
            {"cell": cell_json(c), "seat": f} for c, f in enumerate(g.fountain) if f >= 0
        ],
        "turn": {"seat": g.seat, "number": g.turn},
        "resolving": [_task_json(g, t) for t in g.tasks],
        "pending": pending_json(g),
        "rng": rngmod.to_hex(g.rng),
        "game_over": g.over,
        "scores": final_scores(g) if g.over else None,
    }


# -- reading -----------------------------------------------------------------------------


def resolve_catalog(r: Problems, ref: Any, custom: Catalog | None) -> Catalog | None:
    ref = r.obj(ref, "/catalog")
    cid, chash = ref.get("id"), ref.get("hash")
    if not isinstance(cid, str) or not isinstance(chash, str):
        r.bad("wrong_type", msg("catalog must be {id, hash}"), "/catalog", "A-10")
        return None
    cat = _catalog(cid, chash, custom)
    if cat is None:
        r.unknown_catalog(cid, chash, "A-10", custom)
    return cat


def _catalog(cid: str, chash: str, custom: Catalog | None) -> Catalog | None:
    """A state's catalog (A-10, `state_catalog`), for both readers."""
    return state_catalog(chash, custom, builtin_catalogs().get(cid))


# Where a card was read: a pointer, or its reference tokens, joined only when a problem
# names the place (most states have none, and a pointer per card was measurable).
Where = str | tuple[Any, ...]
Shown = tuple[int, int, int, Any]  # street, block, depth of a top card, and the value it shows


def _where(at: Where) -> str:
    return at if isinstance(at, str) else "/" + "/".join(map(str, at))


def game_from_json(data: Any, custom_catalog: Catalog | None = None) -> Game:
    """Read and check a state from outside; raise InvalidState listing every problem."""
    r = Problems()
    g, shown = _read(r, data, custom_catalog)
    _check_flow(r, g, data, shown)
    if r.problems:
        raise InvalidState(r.problems)
    return g


def game_from_sealed(data: Any, custom_catalog: Catalog | None = None) -> Game:
    """A state whose seal proved this service wrote it (docs/trust.md), so its shape and
    consistency were checked when it was written: decoded as `game_to_json` writes it
    (`_decode`, no check of any field), into the game `game_from_json` would read. Its header
    is still checked: the game, the rules version, 2 to 4 seats and the catalog
    (`_decode_header`).

    Fallback: a state whose header is not this release's (other rules, an unknown catalog),
    or that does not decode (a missing field, a card not in the game, a short street: any
    error while decoding), is read by the checked reader `_read` instead, so it is refused
    with the very InvalidState problems it always was, never with a 500. What decodes is
    taken as written (a value's type too, where mypyc does not check it): the seal vouches.
    Neither path makes the consistency checks (`_check_flow`); the options are listed when
    first asked for, on the game itself, and every decision is checked then."""
    try:
        return _decode(data, custom_catalog)
    except Exception:  # not as this release writes it: read it with every check
        pass
    g, _ = _read(Problems(), data, custom_catalog)
    return g


# -- decoding a sealed state: each part as `game_to_json` writes it, checked by none -------


def _decode(data: dict[str, Any], custom_catalog: Catalog | None) -> Game:
    """The game a sealed state describes (`game_from_sealed`); raises on anything that is
    not as `game_to_json` writes it."""
    seats = data["seats"]
    g = Game.__new__(Game)
    g.cat, g.n, g.variant = _decode_header(data, custom_catalog), len(seats), data["variant"]
    _deal(g, [s["colour"] for s in seats], [s["replacements"] for s in seats])
    _decode_seats(g, seats)
    _decode_city(g, data["city"])
    _decode_fountains(g, data["fountains"])
    turn = data["turn"]
    g.seat = turn["seat"]
    g.turn = turn["number"]
    g.over = data["game_over"]
    g.rng = rngmod.from_hex(data["rng"])
    g.tasks = [_decode_task(g, t) for t in data["resolving"]]
    g.log = None
    g._opts = None
    return g


def _decode_header(data: dict[str, Any], custom_catalog: Catalog | None) -> Catalog:
    """The catalog of a state of this game and rules version with 2 to 4 seats, as `_read`
    resolves it; ValueError for any other state (which `_read` refuses)."""
    catalog = data["catalog"]
    cat = _catalog(catalog["id"], catalog["hash"], custom_catalog)
    if (
        cat is None
        or data["game"] != GAME
        or data["rules_version"] != RULES_VERSION
        or not 2 <= len(data["seats"]) <= 4
    ):
        raise ValueError("not a state of this game, rules version and catalog")
    return cat


def _decode_cards(index: dict[str, int], names: list[str]) -> list[int]:
    """The instances of a zone (deck, hand, ...), named as written."""
    return [index[x] for x in names]


def _decode_seats(g: Game, seats: list[dict[str, Any]]) -> None:
    """Each seat's zones (its deck top first) and counts."""
    index = g.inst.index
    _no_seats(g)
    for s in seats:
        g.decks.append(_decode_cards(index, s["deck"]))
        g.hands.append(_decode_cards(index, s["hand"]))
        g.tokens.append(s["tokens"])
        g.limits.append(s["hand_limit"])
        g.mulligan.append(s["mulligan_used"])
        g.started.append(s["first_turn_taken"])
        g.outside.append(_decode_cards(index, s["outside"]))
        g.graves.append(_decode_cards(index, s["graveyard"]))
        g.removed.append(_decode_cards(index, s["removed"]))


def _decode_entry(index: dict[str, int], e: dict[str, Any]) -> Entry:
    """A card of a stack: its instance, orientation, face and token."""
    return index[e["card"]], e["orientation"], e["face_up"], e["token"]


def _decode_city(g: Game, streets: list[list[list[dict[str, Any]]]]) -> None:
    """One street per seat, BLOCKS blocks per street, each block a stack (bottom first)."""
    index = g.inst.index
    if len(streets) != g.n:
        raise ValueError("one street per seat")
    city: list[list[Entry]] = []
    for street in streets:
        if len(street) != BLOCKS:
            raise ValueError(f"a street has {BLOCKS} blocks")
        for stack in street:
            city.append([_decode_entry(index, e) for e in stack])
    g.city = city
    g._at = [0] * len(g.inst.names)


def _decode_cell(v: list[int]) -> int:
    """A cell as written, [street, block] (`model.cell_json`)."""
    street, block = v
    return _cell(street, block)


def _decode_fountains(g: Game, fountains: list[dict[str, Any]]) -> None:
    """The Fountain tokens (A-9): each one's cell and seat."""
    g.fountain = _no_fountains(g.n)
    for f in fountains:
        g.fountain[_decode_cell(f["cell"])] = f["seat"]


def _decode_task(g: Game, t: dict[str, Any]) -> Task:
    """A resolving step: each field of its kind (flow.TASK_KINDS) as written."""
    k = t["k"]
    out: Task = {"k": k}
    index = g.inst.index
    for key, typ in TASK_FIELDS[k].items():
        v = t[key]
        if typ == "card":
            v = index[v]
        elif typ == "cell":
            v = _decode_cell(v)
        elif typ == "cell?":
            v = -1 if v is None else _decode_cell(v)
        elif typ == "def" and v not in g.cat.cards:
            raise KeyError(v)
        elif typ in ("seats", "list"):
            v = list(v)
        out[key] = v
    if k == "op" and not g.cat.cards[out["def"]].on_play[out["i"]].per_owner:
        out["done"] = _decode_cards(index, out["done"])
    return out


def _read(r: Problems, data: Any, custom_catalog: Catalog | None) -> tuple[Game, list[Shown]]:
    """The game a state describes and the values its top cards show; InvalidState lists
    every problem of its shape and cards."""
    if not isinstance(data, dict):
        raise InvalidState([Problem("wrong_type", msg("the state must be a JSON object"), "")])
    doc = convert(data, StateDoc)
    if doc is None:  # not well formed: walked node by node to list every problem
        doc = node(r, data, StateDoc, "")
    wrong = msg("this state is not an {game} state", game=GAME)
    cat, raw_seats = r.header(
        doc,
        (GAME, wrong),
        RULES_VERSION,
        lambda: resolve_catalog(r, doc.catalog, custom_catalog),
        "A-1.1",
    )
    n = len(raw_seats)
    g = Game.__new__(Game)
    variant = doc.variant
    if variant not in ("basic", "advanced"):
        r.bad("invalid_variant", msg("variant must be 'basic' or 'advanced'"), "/variant", "A-1.5")
        variant = str(variant)
    g.cat, g.n, g.variant = cat, n, variant
    seats = [
        s if type(s) is SeatDoc else node(r, s, SeatDoc, f"/seats/{i}")
        for i, s in enumerate(raw_seats)
    ]
    _read_colours(r, g, seats)
    seen: dict[int, Where] = {}
    _read_seats(r, g, seats, seen)
    shown = _read_city(r, g, r.lst(doc.city, "/city"), seen)
    _read_fountains(r, g, doc.fountains)
    turn = r.obj(doc.turn, "/turn")
    g.seat = r.int_(turn.get("seat"), "/turn/seat", 0, n - 1, "A-1.4")
    g.turn = r.int_(turn.get("number"), "/turn/number", 0, 10_000)
    g.over = doc.game_over
    try:
        g.rng = rngmod.from_hex(r.str_(doc.rng, "/rng"))
    except ValueError:
        r.bad("invalid_rng", msg("rng must be 16 lowercase hexadecimal digits"), "/rng", "A-1.6")
        g.rng = 0
    g.tasks = []
    for j, t in enumerate(r.lst(doc.resolving, "/resolving", MAX_RESOLVING)):
        task = _read_task(r, g, t, f"/resolving/{j}", seen)
        if task is not None:
            g.tasks.append(task)
    names = g.inst.names
    if len(seen) != len(names):
        missing = [names[i] for i in range(len(names)) if i not in seen]
        r.bad(
            "missing_cards",
            msg("cards missing from every zone: {missing}", missing=", ".join(missing)),
            "/seats",
            "A-1.3",
        )
    r.finish()
    g.log = None
    g._opts = None
    if r.problems:
        raise InvalidState(r.problems)
    return g, shown


def _read_colours(r: Problems, g: Game, seats: list[SeatDoc]) -> None:
    """Colours and replacements (A-1.1, A-1.5), and from them the game's card instances."""
    cat = g.cat
    colours: list[str] = []
    reps: list[dict[str, str]] = []
    for i, s in enumerate(seats):
        col = s.colour
        if col not in cat.colours or col in colours:
            r.bad(
                "invalid_colour",
                msg("colour must be a distinct colour of {colours}", colours=list(cat.colours)),
                f"/seats/{i}/colour",
                "A-1.1",
            )
            col = next(c for c in cat.colours if c not in colours)
        colours.append(str(col))
        raw_reps = s.replacements
        p = f"/seats/{i}/replacements"
        if isinstance(raw_reps, dict) and len(raw_reps) > len(cat.basic_ids):
            # each replacement takes the place of a different basic card
            r.bad(
                "too_long",
                msg("at most {count} replacements, one per basic card", count=len(cat.basic_ids)),
                p,
                "A-1.5",
            )
            raw_reps = {}
        rep = check_replacements(cat, i, raw_reps, r.problems, p) if raw_reps != {} else {}
        if g.variant == "basic" and rep:
            r.bad(
                "replacements_in_basic_game", msg("the basic game has no replacements"), p, "A-1.5"
            )
        reps.append(rep)
    _deal(g, colours, reps)


def _deal(g: Game, colours: list[str], reps: list[dict[str, str]]) -> None:
    """The seats' colours and replacements (A-1.1, A-1.5), and from them the game's card
    instances (both readers)."""
    g.colours = tuple(colours)
    g.replacements = tuple(tuple(sorted(rep.items())) for rep in reps)
    g.inst = build_instances(g.cat, g.colours, [deck_cards(g.cat, rep) for rep in reps])


def _card(r: Problems, g: Game, x: Any, at: Where, seat: int | None = None) -> int:
    """The instance named `x`, read at `at` (in a seat's zone: owned by that seat), or -1."""
    iid = g.inst.index.get(x) if isinstance(x, str) else None
    if iid is None:
        r.bad(
            "unknown_card",
            msg("{card} is not a card of this game", card=short_repr(x)),
            _where(at),
            "A-1.3",
        )
        return -1
    owner = g.inst.owner[iid]
    if seat is not None and owner != seat:
        r.bad(
            "wrong_owner",
            msg("{card} belongs to seat {owner}, not seat {seat}", card=x, owner=owner, seat=seat),
            _where(at),
            "A-1.3",
        )
    return iid


def _claim(
    r: Problems, g: Game, x: Any, at: Where, seat: int | None, seen: dict[int, Where]
) -> int:
    """`_card`, and each instance may stand in one place only (A-1.3)."""
    iid = _card(r, g, x, at, seat)
    if iid < 0:
        return -1
    if iid in seen:
        r.bad(
            "duplicate_card",
            msg("{card} appears twice (also at {where})", card=x, where=_where(seen[iid])),
            _where(at),
            "A-1.3",
        )
    else:
        seen[iid] = at
    return iid


def _zone(
    r: Problems, g: Game, v: list[Any], seat: int, name: str, seen: dict[int, Where]
) -> list[int]:
    if not v:
        return []
    cards = len(g.inst.names)  # no zone, stack or list of cards holds more
    if len(v) > cards:
        r.lst(v, f"/seats/{seat}/{name}", cards)
        return []
    index, owner = g.inst.index, g.inst.owner
    out = []
    for j, x in enumerate(v):
        iid = index.get(x) if isinstance(x, str) else None
        if iid is None or owner[iid] != seat or iid in seen:
            iid = _claim(r, g, x, ("seats", seat, name, j), seat, seen)
            if iid < 0:
                continue
        else:
            seen[iid] = ("seats", seat, name, j)
        out.append(iid)
    return out


def _no_seats(g: Game) -> None:
    """Every seat's zones and counts, empty (each reader appends each seat's)."""
    g.decks, g.hands, g.outside, g.graves, g.removed = [], [], [], [], []
    g.tokens, g.limits, g.mulligan, g.started = [], [], [], []


def _read_seats(r: Problems, g: Game, seats: list[SeatDoc], seen: dict[int, Where]) -> None:
    _no_seats(g)
    for i, s in enumerate(seats):
        g.decks.append(_zone(r, g, s.deck, i, "deck", seen))
        g.hands.append(_zone(r, g, s.hand, i, "hand", seen))
        g.tokens.append(s.tokens)
        lim = s.hand_limit
        g.limits.append(lim)
        if lim != HAND_LIMIT and lim not in {
            op.value for c in g.cat.cards.values() for op in c.on_play if op.op == "hand_limit"
        }:
            r.bad(
                "invalid_hand_limit",
                msg("hand limit {limit} is neither 3 nor granted by a card", limit=lim),
                f"/seats/{i}/hand_limit",
                "A-7.9",
            )
        if len(g.hands[i]) > lim:
            r.bad(
                "hand_over_limit",
                msg(
                    "{count} cards in hand exceed the hand limit {limit}",
                    count=len(g.hands[i]),
                    limit=lim,
                ),
                f"/seats/{i}/hand",
                "A-3.5",
            )
        g.mulligan.append(s.mulligan_used)
        g.started.append(s.first_turn_taken)
        if g.mulligan[i] and not g.started[i]:
            r.bad(
                "inconsistent_seat",
                msg("a mulligan starts the seat's first turn (A-3.1)"),
                f"/seats/{i}/first_turn_taken",
                "A-3.1b",
            )
        g.outside.append(_zone(r, g, s.outside, i, "outside", seen))
        for j, iid in enumerate(g.outside[i]):
            if not g.inst.cdef[iid].outside:
                r.bad(
                    "not_an_outside_card",
                    msg("{card} is not played outside the city", card=g.inst.names[iid]),
                    f"/seats/{i}/outside/{j}",
                    "A-9",
                )
        g.graves.append(_zone(r, g, s.graveyard, i, "graveyard", seen))
        if g.graves[i] and not has_graveyard(g, i):
            r.bad(
                "graveyard_without_card",
                msg("cards lie beside a Graveyard that is not in play"),
                f"/seats/{i}/graveyard",
                "A-9",
            )
        g.removed.append(_zone(r, g, s.removed, i, "removed", seen))


def _read_city(r: Problems, g: Game, city: list[Any], seen: dict[int, Where]) -> list[Shown]:
    """The city (A-1.2, A-2, A-4.1, A-6); returns the values shown on top cards."""
    shown: list[Shown] = []
    n, cards = g.n, len(g.inst.names)
    index, cdefs, shielded = g.inst.index, g.inst.cdef, g.inst.shielded
    g.city = [[] for _ in range(n * BLOCKS)]
    g._at = [0] * cards  # model.Game.locate: where each card was last seen
    if len(city) != n:
        r.bad(
            "wrong_city_size", msg("the city has one street per player: {n}", n=n), "/city", "A-1.2"
        )
    for st, row in enumerate(city[:n]):
        if type(row) is not list:
            row = r.lst(row, f"/city/{st}")
        if len(row) != BLOCKS:
            r.bad(
                "wrong_city_size",
                msg("a street has {blocks} blocks", blocks=BLOCKS),
                f"/city/{st}",
                "A-1.2",
            )
        for b, stack in enumerate(row[:BLOCKS]):
            if type(stack) is not list or len(stack) > cards:
                stack = r.lst(stack, f"/city/{st}/{b}", cards)
            if not stack:
                continue
            top = len(stack) - 1
            cell = g.city[st * BLOCKS + b]
            for depth, e in enumerate(stack):
                if type(e) is not EntryDoc:
                    e = node(r, e, EntryDoc, f"/city/{st}/{b}/{depth}")
                x = e.card
                iid = index.get(x) if isinstance(x, str) else None
                if iid is None or iid in seen:
                    iid = _claim(r, g, x, ("city", st, b, depth, "card"), None, seen)
                    if iid < 0:
                        continue
                else:
                    seen[iid] = ("city", st, b, depth, "card")
                orient = e.orientation
                sides = len(cdefs[iid].values) or 1  # a formula card has one side
                if type(orient) is not int or not 0 <= orient < sides:
                    p = f"/city/{st}/{b}/{depth}/orientation"
                    orient = r.int_(orient, p, 0, sides - 1, "A-2.1")
                face_up, token = e.face_up, e.token
                if type(face_up) is not bool:
                    face_up = r.bool_(face_up, f"/city/{st}/{b}/{depth}/face_up")
                if type(token) is not bool:
                    token = r.bool_(token, f"/city/{st}/{b}/{depth}/token")
                if token and (not face_up or depth != top):
                    r.bad(
                        "token_on_hidden_card",
                        msg("a protection token lies only on a face-up top card"),
                        f"/city/{st}/{b}/{depth}/token",
                        "A-6.4",
                    )
                if token and shielded[iid]:
                    r.bad(
                        "token_on_shield",
                        msg("a card with the shield is already protected"),
                        f"/city/{st}/{b}/{depth}/token",
                        "A-6.1",
                    )
                if face_up and depth != top:
                    r.bad(
                        "covered_face_up",
                        msg("only a face-down card can be covered (A-4.1c)"),
                        f"/city/{st}/{b}/{depth}",
                        "A-4.1",
                    )
                cell.append((iid, orient, face_up, token))
                if depth == top and e.value is not msgspec.UNSET:
                    shown.append((st, b, depth, e.value))
    return shown


def _read_fountains(r: Problems, g: Game, fountains: Any) -> None:
    """Fountain tokens (A-9), then every seat's protection tokens counted (A-1.3)."""
    n = g.n
    g.fountain = _no_fountains(n)
    for j, f in enumerate(r.lst(fountains, "/fountains", n * BLOCKS)):
        p = f"/fountains/{j}"
        f = r.obj(f, p)
        seat = r.int_(f.get("seat"), f"{p}/seat", 0, n - 1)
        cell = parse_cell(r, f.get("cell"), f"{p}/cell", n)
        if cell >= 0:
            if g.city[cell] or g.fountain[cell] >= 0:
                r.bad(
                    "fountain_on_occupied_cell",
                    msg("a Fountain token lies on an empty cell"),
                    f"{p}/cell",
                    "A-9",
                )
            g.fountain[cell] = seat
    total = g.tokens[:]
    owner = g.inst.owner
    for seat in [owner[s[-1][0]] for s in g.city if s and s[-1][3]] + [
        f for f in g.fountain if f >= 0
    ]:
        total[seat] += 1
    for sn in range(n):
        if total[sn] != TOKENS:
            r.bad(
                "token_count",
                msg(
                    "seat {seat} has {total} protection tokens in all, not {tokens}",
                    seat=sn,
                    total=total[sn],
                    tokens=TOKENS,
                ),
                f"/seats/{sn}/tokens",
                "A-1.3",
            )


def _no_fountains(n: int) -> list[int]:
    """No Fountain token on any cell of a city of `n` streets: each cell's seat, or -1."""
    return [-1] * (n * BLOCKS)


def _cell(street: int, block: int) -> int:
    """The cell [street, block], both counted from 1 (`model.cell_json`'s inverse)."""
    return (street - 1) * BLOCKS + block - 1


def parse_cell(r: Problems, v: Any, p: str, n: int) -> int:
    if (
        not isinstance(v, list)
        or len(v) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
    ):
        r.bad(
            "invalid_cell",
            msg(
                "a cell is an array [street, block] of two integers, both counted from 1, "
                "not {value}",
                # quoted: "not an array" would contradict the sentence for [1, 2, 3]
                value=short_repr(v),
            ),
            p,
            "A-1.2",
        )
        return -1
    st, b = int(v[0]), int(v[1])
    if not 1 <= st <= n or not 1 <= b <= BLOCKS:
        r.bad(
            "invalid_cell",
            msg(
                "no cell [{street}, {block}] in a city of {n} streets and {blocks} blocks",
                street=st,
                block=b,
                n=n,
                blocks=BLOCKS,
            ),
            p,
            "A-1.2",
        )
        return -1
    return _cell(st, b)


def _read_task(r: Problems, g: Game, t: Any, p: str, seen: dict[int, Where]) -> Task | None:
    t = r.obj(t, p)
    k = t.get("k")
    spec = TASK_FIELDS.get(k) if isinstance(k, str) else None
    if spec is None:
        r.bad("invalid_task", msg("unknown resolving step {step}", step=short_repr(k)), f"{p}/k")
        return None
    out: Task = {"k": k}
    if not t.keys() <= TASK_KEYS[k]:
        r.unknown(t, TASK_KEYS[k], p)
    for key, typ in spec.items():
        v = t.get(key)
        if typ == "seat" and type(v) is int and 0 <= v < g.n:
            out[key] = v
            continue
        kp = f"{p}/{key}"
        if typ == "seat":
            out[key] = r.int_(v, kp, 0, g.n - 1)
        elif typ == "card":
            out[key] = max(_card(r, g, v, kp), 0)
        elif typ == "cell":
            out[key] = parse_cell(r, v, kp, g.n)
        elif typ == "cell?":
            out[key] = -1 if v is None else parse_cell(r, v, kp, g.n)
        elif typ == "int":
            out[key] = r.int_(v, kp, 0, 64)
        elif typ == "str":
            out[key] = r.str_(v, kp)
        elif typ == "def":
            if not isinstance(v, str) or v not in g.cat.cards:
                r.bad(
                    "unknown_card",
                    msg("{card} is not a card of the catalog", card=short_repr(v)),
                    kp,
                )
                v = next(iter(g.cat.cards))
            out[key] = v
        elif typ == "seats":
            out[key] = [r.int_(x, f"{kp}/{j}", 0, g.n - 1) for j, x in enumerate(r.lst(v, kp, g.n))]
        elif typ == "list":
            out[key] = list(r.lst(v, kp, len(g.inst.names)))
    if "def" in out and "i" in out:
        ops = g.cat.cards[out["def"]].on_play
        if out["i"] >= len(ops) + (1 if k == "effect" else 0):
            r.bad("invalid_task", msg("operation index out of range"), f"{p}/i")
            return None
        if k == "op":
            op = ops[out["i"]]
            if op.per_owner:
                out["done"] = [
                    r.int_(x, f"{p}/done/{j}", 0, g.n - 1) for j, x in enumerate(out["done"])
                ]
            else:
                out["done"] = [
                    max(_card(r, g, x, f"{p}/done/{j}"), 0) for j, x in enumerate(out["done"])
                ]
    if k == "pay":
        iid = out["card"]
        if iid in seen:
            r.bad(
                "duplicate_card",
                msg(
                    "{card} is being paid for and also at {where}",
                    card=g.name(iid),
                    where=_where(seen[iid]),
                ),
                f"{p}/card",
            )
        seen[iid] = f"{p}/card"
    return out


def _check_task(r: Problems, g: Game, t: Task, p: str) -> None:
    """What the resolving step at `p` needs from the rest of the state to be resumable (its
    kind's check, flow.TASK_KINDS): the engine only ever writes steps that satisfy these, so
    anything else was edited."""
    for problem in TASK_KINDS[t["k"]].check(g, t):
        r.problems.append(replace(problem, pointer=p + problem.pointer))


def _check_values(r: Problems, g: Game, shown: list[Shown]) -> None:
    """A-2.6: a value shown is the card's current value."""
    for st, b, depth, value in shown:
        now = current_value(g, st * BLOCKS + b)
        if not same(value, now):
            r.bad(
                "value_mismatch",
                msg("the value shown is not the card's current value {value}", value=now),
                f"/city/{st}/{b}/{depth}/value",
                "A-2.6",
            )


def _check_finished(r: Problems, g: Game, data: dict[str, Any]) -> None:
    """A finished game has nothing left to resolve, no pending decision, and the final scores
    of its city if any (A-8)."""
    if g.tasks:
        r.bad(
            "inconsistent_pending", msg("a finished game has nothing left to resolve"), "/resolving"
        )
    if data.get("pending") is not None:
        r.bad("inconsistent_pending", msg("a finished game has no pending decision"), "/pending")
    if data.get("scores") is not None and not same(data["scores"], final_scores(g)):
        r.bad("inconsistent_scores", msg("scores do not match the city"), "/scores", "A-8")


def _resolving_error(g: Game) -> Problem | None:
    """A-3: a running game's resolving steps are the turn of turn.seat at the bottom, no other
    turn, and a decision on top."""
    if not g.tasks:
        detail = msg("a running game always has a decision to resolve")
        return Problem("inconsistent_pending", detail, "/resolving", "A-3")
    bottom = g.tasks[0]
    if bottom["k"] not in ("turn", "end_turn") or bottom["seat"] != g.seat:
        detail = msg("the first resolving step must be the turn of turn.seat")
        return Problem("inconsistent_pending", detail, "/resolving/0", "A-3")
    if any(t["k"] in ("turn", "end_turn") for t in g.tasks[1:]):
        detail = msg("only one turn resolves at a time")
        return Problem("inconsistent_pending", detail, "/resolving", "A-3")
    top = g.tasks[-1]
    if top["k"] in AUTOMATIC or top["k"] not in ASKING:
        detail = msg("the last resolving step must be a decision")
        return Problem("inconsistent_pending", detail, f"/resolving/{len(g.tasks) - 1}")
    return None


def _check_running(r: Problems, g: Game, data: dict[str, Any]) -> None:
    """A running game's resolving steps ask a decision with legal options (A-3), the one its
    pending shows if given; no scores until the game is over (A-8)."""
    problem = _resolving_error(g)
    if problem is not None:
        r.problems.append(problem)
        return
    try:
        probe = g.copy()
        opts = settle(probe)
    except Exception:  # untrusted resolving steps may break any invariant; report, never crash
        r.bad(
            "inconsistent_pending",
            msg("the resolving steps do not match the rest of the state"),
            "/resolving",
        )
        return
    if not opts or probe.tasks != g.tasks:
        r.bad(
            "inconsistent_pending",
            msg("the pending decision has no legal option in this state"),
            "/resolving",
        )
        return
    g._opts = opts
    given = data.get("pending")
    if given is not None and not same(given, pending_json(g)):
        r.bad(
            "inconsistent_pending",
            msg("pending does not match the decision the state asks for"),
            "/pending",
        )
    if data.get("scores") is not None:
        r.bad(
            "inconsistent_scores",
            msg("scores are only given when the game is over"),
            "/scores",
            "A-8",
        )


def _check_flow(r: Problems, g: Game, data: dict[str, Any], shown: list[Shown]) -> None:
    """The values shown must be the cards' values (A-2.6), each resolving step resumable, and
    the pending decision the one the resolving steps ask for."""
    _check_values(r, g, shown)
    for j, t in enumerate(g.tasks):
        _check_task(r, g, t, f"/resolving/{j}")
    if r.problems:
        return
    if g.over:
        _check_finished(r, g, data)
    else:
        _check_running(r, g, data)
