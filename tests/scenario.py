"""Build Architectura positions from a compact description, for the engine tests.

A position is written as the JSON state the engine reads, then loaded with `arch.load`, so
the engine's own validator checks every position a test builds (a typo in a scenario fails
loudly instead of testing nothing).

Card instances are named as the engine names them: ``"<colour>.<card id>"``
(``"blue.barracks"``). A city stack is a list of entries, bottom first; an entry is a string:

- ``"blue.park"``      face up, basic value on top (A-2.2)
- ``"blue.park=5"``    face up, oriented so that the value on top is 5
- ``"blue.park@0"``    face up, orientation index 0 (lowest value)
- ``"blue.park*"``     face up with a protection token of its owner (A-6.1)
- ``"-blue.park"``     face down (destroyed)

Cells are ``(street, block)``, both counted from 1 as the engine's JSON does; ``streets``
writes a city of several cards one street a line.
Every card of a seat not placed anywhere goes to that seat's deck (``rest="deck"``, in
catalog order after any explicitly given deck cards) or is removed from the game
(``rest="removed"``), which gives an empty deck.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

import engine.architectura as arch
from engine.errors import IllegalDecision

COLOURS = ("blue", "green", "yellow", "red")
BLOCKS = 8
Cell = tuple[int, int]
State = dict[str, Any]
Event = dict[str, Any]


_ENTRY = re.compile(
    r"^(?P<down>-)?(?P<name>[a-z]+\.[a-z_]+)(?:(?P<op>[=@])(?P<num>-?\d+))?(?P<tok>\*)?$"
)


@cache
def reference_raw() -> dict[str, Any]:
    """The reference catalog document as shipped (read independently of the engine)."""
    text = resources.files("engine.architectura").joinpath("data/reference.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def card_defs() -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in reference_raw()["cards"]}


def basic_ids() -> list[str]:
    return [c["id"] for c in reference_raw()["cards"] if c["kind"] == "basic"]


def default_replaces(additional: str) -> str:
    """The basic card an additional card replaces by default (A-1.5)."""
    d = card_defs()[additional]
    if "replaces" in d:
        return str(d["replaces"])
    for b in basic_ids():
        bd = card_defs()[b]
        if "values" in bd and bd["basic"] == d["basic"]:
            return b
    raise ValueError(f"{additional} replaces nothing")


def split(name: str) -> tuple[str, str]:
    colour, cid = name.split(".", 1)
    return colour, cid


def entry(spec: str) -> dict[str, Any]:
    m = _ENTRY.match(spec)
    if not m:
        raise ValueError(f"bad entry spec {spec!r}")
    name = m["name"]
    cid = split(name)[1]
    d = card_defs()[cid]
    values = d.get("values")
    orient = values.index(d["basic"]) if values else 0
    if m["op"] == "=":
        assert values, f"{cid} has no printed values to orient"
        orient = values.index(int(m["num"]))
    elif m["op"] == "@":
        orient = int(m["num"])
    return {
        "card": name,
        "orientation": orient,
        "face_up": not m["down"],
        "token": bool(m["tok"]),
    }


def build(
    seats: int = 2,
    *,
    hands: Mapping[int, Sequence[str]] | None = None,
    decks: Mapping[int, Sequence[str]] | None = None,
    city: Mapping[Cell, Sequence[str] | str] | None = None,
    fountains: Mapping[Cell, int] | None = None,
    turn: int = 0,
    number: int = 10,
    rest: str = "deck",
    variant: str | None = None,
    replacements: Mapping[int, Mapping[str, str]] | None = None,
    outside: Mapping[int, Sequence[str]] | None = None,
    graveyard: Mapping[int, Sequence[str]] | None = None,
    removed: Mapping[int, Sequence[str]] | None = None,
    hand_limits: Mapping[int, int] | None = None,
    mulligan_used: bool | Mapping[int, bool] = True,
    first_turn_taken: bool | Mapping[int, bool] = True,
    tokens: Mapping[int, int] | None = None,
    rng: str = "0123456789abcdef",
    load: bool = True,
    catalog: dict[str, Any] | None = None,
) -> State:
    """A state (checked by the engine unless load=False) built from a compact description.

    Defaults: mulligan already used and first turn taken (so the options are plays only),
    tokens in supply computed from the tokens lying in the city, advanced variant exactly
    when an additional card is mentioned, with the default A-1.5 replacement for each.
    """
    hands = hands or {}
    decks = decks or {}
    city = city or {}
    fountains = fountains or {}
    outside = outside or {}
    graveyard = graveyard or {}
    removed = removed or {}
    hand_limits = hand_limits or {}
    colours = COLOURS[:seats]
    grid: list[list[list[dict[str, Any]]]] = [[[] for _ in range(BLOCKS)] for _ in range(seats)]
    placed: list[str] = []
    for (st, b), stack in city.items():
        specs = [stack] if isinstance(stack, str) else list(stack)
        for spec in specs:
            e = entry(spec)
            grid[st - 1][b - 1].append(e)
            placed.append(e["card"])
    mentioned: dict[str, list[str]] = {c: [] for c in colours}
    zones: Iterable[Mapping[int, Sequence[str]]] = (hands, decks, outside, graveyard, removed)
    for z in zones:
        for names in z.values():
            for nm in names:
                mentioned[split(nm)[0]].append(nm)
    for nm in placed:
        mentioned[split(nm)[0]].append(nm)
    reps: list[dict[str, str]] = []
    for s, col in enumerate(colours):
        if replacements is not None and s in replacements:
            reps.append(dict(replacements[s]))
            continue
        r: dict[str, str] = {}
        for nm in mentioned[col]:
            cid = split(nm)[1]
            if card_defs()[cid]["kind"] == "additional":
                r[cid] = default_replaces(cid)
        reps.append(r)
    if variant is None:
        variant = "advanced" if any(reps) else "basic"
    seat_json = []
    for s, col in enumerate(colours):
        by_basic = {v: k for k, v in reps[s].items()}
        all_cards = [f"{col}.{by_basic.get(b, b)}" for b in basic_ids()]
        used = set(mentioned[col])
        leftover = [c for c in all_cards if c not in used]
        deck = list(decks.get(s, []))
        rem = list(removed.get(s, []))
        if rest == "deck":
            deck += leftover
        elif rest == "removed":
            rem += leftover
        else:
            raise ValueError(rest)
        on_cards = sum(
            1
            for row in grid
            for stack in row
            if stack and stack[-1]["token"] and split(stack[-1]["card"])[0] == col
        )
        on_fountains = sum(1 for v in fountains.values() if v == s)
        tok = tokens[s] if tokens and s in tokens else 2 - on_cards - on_fountains
        seat_json.append(
            {
                "colour": col,
                "replacements": reps[s],
                "deck": deck,
                "hand": list(hands.get(s, [])),
                "tokens": tok,
                "hand_limit": hand_limits.get(s, 3),
                "mulligan_used": mulligan_used
                if isinstance(mulligan_used, bool)
                else mulligan_used.get(s, True),
                "first_turn_taken": first_turn_taken
                if isinstance(first_turn_taken, bool)
                else first_turn_taken.get(s, True),
                "outside": list(outside.get(s, [])),
                "graveyard": list(graveyard.get(s, [])),
                "removed": rem,
            }
        )
    state: State = {
        "game": "architectura",
        "rules_version": arch.RULES_VERSION,
        "catalog": {"id": "reference", "hash": arch.builtin_catalogs()["reference"].hash}
        if catalog is None
        else {"id": catalog["id"], "hash": arch.load_catalog(catalog).hash},
        "variant": variant,
        "seats": seat_json,
        "city": grid,
        "fountains": [{"cell": [st, b], "seat": s} for (st, b), s in fountains.items()],
        "turn": {"seat": turn, "number": number},
        "resolving": [{"k": "turn", "seat": turn}],
        "rng": rng,
        "game_over": False,
    }
    if not load:
        return state
    return arch.game_to_json(arch.load(state, catalog))


def streets(*rows: str) -> dict[Cell, str]:
    """A city written street by street, for `build(city=...)`: row k is street k+1, its entries
    (as above) for blocks 1, 2, ... separated by spaces, ``"."`` for an empty block."""
    return {
        (st, b): spec
        for st, row in enumerate(rows, 1)
        for b, spec in enumerate(row.split(), 1)
        if spec != "."
    }


# -- reading a state ---------------------------------------------------------------------


def stack(state: State, cell: Cell) -> list[dict[str, Any]]:
    st, b = cell
    out: list[dict[str, Any]] = state["city"][st - 1][b - 1]
    return out


def top(state: State, cell: Cell) -> dict[str, Any] | None:
    s = stack(state, cell)
    return s[-1] if s else None


def top_card(state: State, cell: Cell) -> str | None:
    t = top(state, cell)
    return None if t is None else str(t["card"])


def value(state: State, cell: Cell) -> int | None:
    t = top(state, cell)
    return None if t is None else t.get("value")


def face_up(state: State, cell: Cell) -> bool | None:
    t = top(state, cell)
    return None if t is None else bool(t["face_up"])


def placed(
    card: str, orientation: int, value: int | None, *, face_up: bool = True, token: bool = False
) -> dict[str, Any]:
    """A city entry as a loaded state shows it (what `top` and `stack` return)."""
    return {
        "card": card,
        "orientation": orientation,
        "face_up": face_up,
        "token": token,
        "value": value,
    }


def options(state: State, catalog: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    return list(arch.legal_decisions(state, catalog)["options"])


def pending(state: State) -> dict[str, Any] | None:
    p: dict[str, Any] | None = state["pending"]
    return p


def plays(state: State, card: str | None = None) -> set[tuple[str, Cell | None]]:
    """The (card, cell) pairs offered by a pending play decision."""
    out = set()
    for o in options(state):
        if o["type"] == "play" and (card is None or o["card"] == card):
            out.add((o["card"], None if o["cell"] is None else (o["cell"][0], o["cell"][1])))
    return out


def play_cells(state: State, card: str) -> set[Cell]:
    return {c for _, c in plays(state, card) if c is not None}


def seat_of(state: State) -> int:
    p = pending(state)
    assert p is not None, "no pending decision"
    return int(p["seat"])


# -- deciding ------------------------------------------------------------------------------


def decide(
    state: State, type: str, catalog: dict[str, Any] | None = None, **fields: Any
) -> tuple[State, list[Event]]:
    """Apply one decision of the pending seat; cells may be given as tuples."""
    d: dict[str, Any] = {"type": type, "seat": seat_of(state)}
    for k, v in fields.items():
        d[k] = list(v) if isinstance(v, tuple) else v
    before = copy.deepcopy(state)
    new, events = arch.apply(state, d, catalog)
    assert state == before, "apply mutated its input state"
    return new, events


def play(
    state: State, card: str, cell: Cell | None, catalog: dict[str, Any] | None = None
) -> tuple[State, list[Event]]:
    return decide(state, "play", catalog, card=card, cell=cell)


def with_fountain(seat: int, cell: Cell, **position: Any) -> State:
    """A 2-seat position (`build` keywords) where `seat`'s Fountain token lies on `cell`, so
    one of its two tokens is left in its supply (A-9 Fountain)."""
    s = build(2, fountains={cell: seat}, **position)
    assert s["seats"][seat]["tokens"] == 1
    return s


def blue_plays(card: str, cell: Cell | None, **position: Any) -> tuple[State, list[Event]]:
    """The commonest opening of a card test: in a 2-seat game where blue holds only `card` and
    green a Well, blue plays `card` at `cell`; `position` is the rest of the `build` keywords."""
    return play(build(2, hands={0: [card], 1: ["green.well"]}, **position), card, cell)


def illegal(state: State, decision: dict[str, Any]) -> IllegalDecision:
    """Apply a decision that must be refused; check the input is unchanged; return the error."""
    before = copy.deepcopy(state)
    d = dict(decision)
    for k, v in d.items():
        if isinstance(v, tuple):
            d[k] = list(v)
    try:
        arch.apply(state, d)
    except IllegalDecision as e:
        assert state == before, "a refused decision mutated the input state"
        return e
    raise AssertionError(f"decision {decision} was accepted")


def of_type(events: Sequence[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def types(events: Sequence[Event]) -> list[str]:
    return [e["type"] for e in events]


def event(kind: str, decision: int = 0, **fields: Any) -> Event:
    """An event as the engine writes it: its `type`, its fields, the decision it follows."""
    return {"type": kind, **fields, "decision": decision}


def offered(seat: int, type: str, *targets: str, decline: bool = False) -> set[str]:
    """The option set of an effect of `seat` that offers `type` on each of `targets`, and a
    decline when the effect is optional (compare with `option_set`)."""
    out = {opt(seat=seat, type=type, target=t) for t in targets}
    return out | {opt(seat=seat, type="decline")} if decline else out


def option_set(state: State) -> set[str]:
    """Options as canonical strings (order-insensitive comparisons)."""
    return {json.dumps(o, sort_keys=True) for o in options(state)}


def opt(**fields: Any) -> str:
    d = {k: (list(v) if isinstance(v, tuple) else v) for k, v in fields.items()}
    return json.dumps(d, sort_keys=True)
