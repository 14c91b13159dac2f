"""A compact position notation for Architectura, like chess's FEN: one line that writes a
position at the start of a turn, and a builder that reads it back into the state the engine
takes (so a puzzle, a test or a dispute starts from a line instead of a hand-made JSON state).

    architectura basic 1:3 blue.palace,green.villa@0,6/8 hand=theatre,villa deck=well,… | hand=…

Fields, separated by spaces:

1. `architectura` (the game);
2. the variant, `basic` or `advanced`;
3. the turn, `seat:number` (whose turn starts, and the turn number);
4. the city: streets from street 1, separated by `/`; in a street its 8 cells from block 1,
   separated by `,`, a run of k empty cells written as the number k; a cell is its stack from
   the bottom, entries joined by `+`. An entry is a card instance (`blue.palace`), with `-`
   before it when face down, `@k` after it when its orientation index is not the one showing
   the basic value (A-2.1, A-2.2), and `*` when a protection token lies on it (A-6.1). An
   empty cell holding a Fountain token of seat s is `~s` (A-9, A-R1);
5. then each seat, from seat 0, as `key=value` words; seats are separated by `|`. Keys:
   `hand`, `deck` (top first), `outside`, `graveyard`, `removed` (card lists, ids without the
   seat's colour, comma-separated), `tokens` (in supply), `limit` (hand limit), `flags` (`m`
   the mulligan is used, `f` the first turn is taken), `rep` (advanced: A-1.5 replacements,
   `additional>basic,…`). A key left out is empty (lists), 2 (tokens), 3 (limit) or no flag;
6. optionally `rng=<16 hex digits>`, the generator (default 16 zeros).

Only positions at the start of a turn of a game not over are written (no effect is being
resolved); the reference catalog only; the colours are the default ones for the seat count.
"""

from __future__ import annotations

import re
from typing import Any

from engine.architectura.api import load
from engine.architectura.catalog import builtin_catalogs
from engine.architectura.model import RULES_VERSION
from engine.architectura.serialize import game_to_json
from engine.errors import EngineError, short_repr
from engine.messages import Msg, msg
from engine.protocol import position_items, position_number, position_pairs, position_refusal

GAME = "architectura"
COLOURS = ("blue", "green", "yellow", "red")
BLOCKS = 8
DEFAULT_RNG = "0" * 16
CLAUSE = "A-1"
_ENTRY = re.compile(r"^(-)?([a-z]+)\.([a-z_][a-z0-9_]*)(?:@([0-9]))?(\*)?$")
# a run of empty cells: ASCII digits only (str.isdigit and \d take "²" and "٨" too)
_EMPTY_RUN = re.compile(r"[1-9][0-9]{0,8}")  # at least one empty cell
_FOUNTAIN = re.compile(r"^~([0-3])$")
LIST_KEYS = ("hand", "deck", "outside", "graveyard", "removed")


def _refuse(detail: Msg, where: str = "", root: str = "/position") -> EngineError:
    return position_refusal(detail, CLAUSE, where, root)


def _reference() -> Any:
    return builtin_catalogs()["reference"]


def _basic_orientation(card_id: str) -> int:
    """The orientation index that shows the basic value (A-2.2); 0 for one-sided cards."""
    doc = {c["id"]: c for c in _reference().raw["cards"]}[card_id]
    values = doc.get("values")
    return values.index(doc["basic"]) if values else 0


# -- writing -------------------------------------------------------------------------------------


def _entry_text(e: dict[str, Any]) -> str:
    card = str(e["card"])
    text = ("" if e["face_up"] else "-") + card
    if e["orientation"] != _basic_orientation(card.split(".", 1)[1]):
        text += f"@{e['orientation']}"
    return text + ("*" if e["token"] else "")


def _street_text(cells: list[str]) -> str:
    out: list[str] = []
    empty = 0
    for c in cells:
        if c == "":
            empty += 1
            continue
        if empty:
            out.append(str(empty))
            empty = 0
        out.append(c)
    if empty:
        out.append(str(empty))
    return ",".join(out)


def _seat_text(seat: dict[str, Any]) -> str:
    colour = seat["colour"]
    words = []
    for key in LIST_KEYS:
        cards = [c.removeprefix(colour + ".") for c in seat[key]]
        if cards:
            words.append(f"{key}={','.join(cards)}")
    if seat["tokens"] != 2:
        words.append(f"tokens={seat['tokens']}")
    if seat["hand_limit"] != 3:
        words.append(f"limit={seat['hand_limit']}")
    flags = ("m" if seat["mulligan_used"] else "") + ("f" if seat["first_turn_taken"] else "")
    if flags:
        words.append(f"flags={flags}")
    if seat["replacements"]:
        words.append("rep=" + ",".join(f"{a}>{b}" for a, b in sorted(seat["replacements"].items())))
    return " ".join(words) if words else "-"


def write(state: dict[str, Any]) -> str:
    """The position of a state at the start of a turn (the reference catalog, default
    colours); InvalidState `invalid_position` for any other state."""
    n = len(state["seats"])
    if state["game_over"] or state["resolving"] != [{"k": "turn", "seat": state["turn"]["seat"]}]:
        raise _refuse(
            msg("Only a position at the start of a turn of a game not over is written."),
            "",
            "/state",
        )
    if state["catalog"]["id"] != "reference" or [s["colour"] for s in state["seats"]] != list(
        COLOURS[:n]
    ):
        raise _refuse(
            msg("Only positions of the reference catalog and default colours are written."),
            "",
            "/state",
        )
    fountains = {tuple(f["cell"]): f["seat"] for f in state["fountains"]}
    streets = []
    for st, row in enumerate(state["city"]):
        cells = []
        for b, stack in enumerate(row):
            if (st + 1, b + 1) in fountains:
                cells.append(f"~{fountains[(st + 1, b + 1)]}")
            else:
                cells.append("+".join(_entry_text(e) for e in stack))
        streets.append(_street_text(cells))
    fields = [
        GAME,
        state["variant"],
        f"{state['turn']['seat']}:{state['turn']['number']}",
        "/".join(streets),
        " | ".join(_seat_text(s) for s in state["seats"]),
    ]
    if state["rng"] != DEFAULT_RNG:
        fields.append(f"rng={state['rng']}")
    return " ".join(fields)


# -- reading -------------------------------------------------------------------------------------


def _cards(value: str, colour: str, where: str) -> list[str]:
    out = []
    for name in position_items(value, CLAUSE, where):
        out.append(name if "." in name else f"{colour}.{name}")
        if not re.fullmatch(r"[a-z]+\.[a-z_][a-z0-9_]*", out[-1]):
            raise _refuse(msg("{name} is not a card id.", name=short_repr(name)), where)
    return out


def _int(value: str, what: str, where: str) -> int:
    return position_number(value, what, CLAUSE, where, signed=True)


def _read_seat(text: str, colour: str, where: str) -> dict[str, Any]:
    seat: dict[str, Any] = {"colour": colour, "replacements": {}}
    seat.update({k: [] for k in LIST_KEYS})
    seat.update(tokens=2, hand_limit=3, mulligan_used=False, first_turn_taken=False)
    for key, value in position_pairs(text, CLAUSE, where):
        if key in LIST_KEYS:
            seat[key] = _cards(value, colour, f"{where}/{key}")
        elif key == "tokens":
            seat["tokens"] = _int(value, msg("tokens"), f"{where}/tokens")
        elif key == "limit":
            seat["hand_limit"] = _int(value, msg("limit"), f"{where}/limit")
        elif key == "flags":
            if not set(value) <= {"m", "f"}:
                raise _refuse(
                    msg("flags are m and f, not {value}.", value=short_repr(value)),
                    f"{where}/flags",
                )
            seat["mulligan_used"], seat["first_turn_taken"] = "m" in value, "f" in value
        elif key == "rest":
            if value not in ("deck", "removed"):
                raise _refuse(
                    msg("rest is deck or removed, not {value}.", value=short_repr(value)), where
                )
            seat["rest"] = value
        elif key == "rep":
            pairs = [p.partition(">") for p in position_items(value, CLAUSE, where)]
            if any(not sep for _, sep, _ in pairs):
                raise _refuse(
                    msg("rep is additional>basic,…, not {value}.", value=short_repr(value)), where
                )
            seat["replacements"] = {a: b for a, _, b in pairs}
        else:
            raise _refuse(msg("Unknown seat key {key}.", key=short_repr(key)), where)
    return seat


def _read_city(text: str, n: int) -> tuple[list[list[list[dict[str, Any]]]], list[dict[str, Any]]]:
    streets = text.split("/")
    if len(streets) != n:
        raise _refuse(
            msg(
                "The city has one street per seat ({n}), not {streets}.", n=n, streets=len(streets)
            ),
            "/city",
        )
    city: list[list[list[dict[str, Any]]]] = []
    fountains: list[dict[str, Any]] = []
    for st, street in enumerate(streets):
        row: list[list[dict[str, Any]]] = []
        for cell in street.split(","):
            if _EMPTY_RUN.fullmatch(cell):
                run = int(cell)
                if len(row) + run > BLOCKS:  # refused before it is laid out: a city's reading
                    raise _street_length(st, len(row) + run)  # costs its text, not its numbers
                row.extend([] for _ in range(run))
                continue
            if f := _FOUNTAIN.fullmatch(cell):
                fountains.append({"cell": [st + 1, len(row) + 1], "seat": int(f[1])})
                row.append([])
                continue
            stack = []
            for e in cell.split("+"):
                m = _ENTRY.fullmatch(e)
                if m is None:
                    raise _refuse(
                        msg("{entry} is not a city entry.", entry=short_repr(e)), f"/city/{st}"
                    )
                orient = int(m[4]) if m[4] is not None else None
                card_id = m[3]
                if orient is None:
                    try:
                        orient = _basic_orientation(card_id)
                    except KeyError:
                        raise _refuse(
                            msg("{card} is not a card.", card=short_repr(card_id)), "/city"
                        ) from None
                stack.append(
                    {
                        "card": f"{m[2]}.{card_id}",
                        "orientation": orient,
                        "face_up": not m[1],
                        "token": bool(m[5]),
                    }
                )
            row.append(stack)
        if len(row) != BLOCKS:
            raise _street_length(st, len(row))
        city.append(row)
    return city, fountains


def _street_length(st: int, count: int) -> EngineError:
    return _refuse(
        msg(
            "Street {street} must have {blocks} cells, not {count}.",
            street=st + 1,
            count=count,
            blocks=BLOCKS,
        ),
        f"/city/{st}",
    )


def _place_the_rest(seat: dict[str, Any], where: str, city: list[Any]) -> None:
    """Every card of the seat's deck list not placed by the position, to `where`."""
    colour, rep = seat["colour"], seat["replacements"]
    instead = {basic: additional for additional, basic in rep.items()}
    basics = [c["id"] for c in _reference().raw["cards"] if c["kind"] == "basic"]
    owned = [f"{colour}.{instead.get(b, b)}" for b in basics]
    placed = {c for k in LIST_KEYS for c in seat[k]}
    placed |= {e["card"] for row in city for stack in row for e in stack}
    seat[where] = seat[where] + [c for c in owned if c not in placed]


def read(text: str) -> dict[str, Any]:
    """The state a position stands for, as the engine's JSON (not yet checked: give it to
    the engine, which refuses an inconsistent position with every problem listed)."""
    if not isinstance(text, str) or len(text) > 4000:
        raise _refuse(msg("A position is a string of at most 4000 characters."))
    head = text.split(" ", 4)
    if len(head) < 5 or head[0] != GAME:
        raise _refuse(msg("A position reads: architectura VARIANT SEAT:TURN CITY SEATS [rng=…]."))
    _, variant, turn, city_text, rest = head
    if variant not in ("basic", "advanced"):
        raise _refuse(
            msg("The variant is basic or advanced, not {variant}.", variant=short_repr(variant)),
            "/variant",
        )
    seat_text, turn_number = turn.partition(":")[::2]
    turn_seat = _int(seat_text, msg("the turn's seat"), "/turn")
    number = _int(turn_number, msg("the turn number"), "/turn")
    rng = DEFAULT_RNG
    words = rest.split(" ")
    if words and words[-1].startswith("rng="):
        rng = words.pop()[4:]
    seats_text = " ".join(words).split("|")
    n = len(seats_text)
    if not 2 <= n <= 4:
        raise _refuse(msg("A game has 2 to 4 seats, not {n}.", n=n), "/seats")
    city, fountains = _read_city(city_text, n)
    seats = [_read_seat(t, COLOURS[i], f"/seats/{i}") for i, t in enumerate(seats_text)]
    for seat in seats:
        if "rest" in seat:
            _place_the_rest(seat, seat.pop("rest"), city)
    return {
        "game": GAME,
        "rules_version": RULES_VERSION,
        "catalog": {"id": "reference", "hash": _reference().hash},
        "variant": variant,
        "seats": seats,
        "city": city,
        "fountains": fountains,
        "turn": {"seat": turn_seat, "number": number},
        "resolving": [{"k": "turn", "seat": turn_seat}],
        "rng": rng,
        "game_over": False,
    }


def state_from_position(text: str) -> dict[str, Any]:
    """The builder: the engine's state for a position, checked by the engine's reader
    (InvalidState with every problem when the position is inconsistent) and completed
    (pending decision, values)."""
    return game_to_json(load(read(text)))


def position_of(state: Any, catalog: Any = None) -> str:
    """The position of a state (read and checked by the engine first)."""
    return write(game_to_json(load(state, catalog)))
