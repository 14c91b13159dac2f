"""A compact position notation for Fora de Prumo, like chess's FEN: one line for a position
at the start of a turn (or of a final turn), and a builder that reads it back into the state
the engine takes, checked by the engine's reader.

    fora-de-prumo 1:16 market=PE03,CO02,SP09,MA02,SP11 deck=PE07,MA04 | hand=CO06,PR02
      building=SP17@0,0r1,SP02@1,0r1 site=MA08,PE02 | hand=PR10 building=SP05@0,0r1 rng=…

(one line). Words separated by spaces, parts by `|`:

1. `fora-de-prumo`, then the turn `seat:number` (whose turn starts, and its number);
2. the table's words: `market=` (index 0 the oldest, F-1.7), `deck=` (top first, F-1.6),
   `passes=N` (default 0, F-R27), `first=S` (the first seat, default 0), `size=K` (the market
   size, default 5), `final=T>s,s` (the final round: triggered by T, these seats still to
   play, the current one first, F-8.1, F-R25);
3. after each `|`, one seat, from seat 0: `hand=`, `building=` (its spaces in the F-2.7
   compact placement, in the order laid: `SP17@0,0r1,SP02@1,0r1`), `site=`, `converted=`,
   `clones=` (`card>target`, F-6.6), `spent=` (designers used, F-R20); a key left out is
   empty; `-` for a seat with nothing;
4. optionally `rng=<16 hex digits>` last (default 16 zeros).

The reference catalog only; the state's rules version is this engine's.
"""

from __future__ import annotations

import re
from typing import Any

from engine.errors import EngineError, short_repr
from engine.fora_de_prumo.api import load
from engine.fora_de_prumo.building import match_compact
from engine.fora_de_prumo.catalog import builtin_catalogs
from engine.fora_de_prumo.model import GAME_ID, RULES_VERSION
from engine.fora_de_prumo.serialize import game_to_json
from engine.messages import Msg, msg
from engine.protocol import position_items, position_number, position_pairs, position_refusal

DEFAULT_RNG = "0" * 16
DEFAULT_MARKET = 5
CLAUSE = "F-2.7"
SEAT_LISTS = ("hand", "site", "converted", "spent")
_CARD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def _refuse(detail: Msg, where: str = "", root: str = "/position") -> EngineError:
    return position_refusal(detail, CLAUSE, where, root)


# -- writing -------------------------------------------------------------------------------------


def _words(pairs: list[tuple[str, str]]) -> str:
    return " ".join(f"{k}={v}" for k, v in pairs) or "-"


def write(state: dict[str, Any]) -> str:
    """The position of a state at the start of a turn (InvalidState-like `invalid_position`
    for any other, or for a custom catalog)."""
    turn = state["turn"]
    at_start = turn["step"] == ("final" if state["final_round"] is not None else "buy")
    if state["game_over"] or turn["peeked"] or turn["bought"] is not None or not at_start:
        raise _refuse(
            msg("Only a position at the start of a turn of a game not over is written."),
            "",
            "/state",
        )
    if state["catalog"]["id"] != "reference":
        raise _refuse(msg("Only positions of the reference catalog are written."), "", "/state")
    table = [("market", ",".join(state["market"])), ("deck", ",".join(state["deck"]))]
    table = [(k, v) for k, v in table if v]
    if state["passes"]:
        table.append(("passes", str(state["passes"])))
    if state["first_seat"]:
        table.append(("first", str(state["first_seat"])))
    if state["market_size"] != DEFAULT_MARKET:
        table.append(("size", str(state["market_size"])))
    if state["final_round"] is not None:
        fr = state["final_round"]
        table.append(("final", f"{fr['triggered_by']}>{','.join(map(str, fr['remaining']))}"))
    parts = [f"{GAME_ID} {turn['seat']}:{turn['number']} {_words(table)}"]
    for seat in state["seats"]:
        work = seat["work"]
        pairs = [("hand", ",".join(seat["hand"]))]
        placed = (f"{p['card']}@{p['x']},{p['y']}r{p['r']}" for p in work["building"])
        pairs.append(("building", ",".join(placed)))
        pairs += [(k, ",".join(work[k])) for k in ("site", "converted")]
        pairs.append(("clones", ",".join(f"{c['card']}>{c['target']}" for c in work["clones"])))
        pairs.append(("spent", ",".join(work["spent"])))
        parts.append(_words([(k, v) for k, v in pairs if v]))
    text = " | ".join(parts)
    if state["rng"] != DEFAULT_RNG:
        text += f" rng={state['rng']}"
    return text


# -- reading -------------------------------------------------------------------------------------


def _cards(value: str, where: str) -> list[str]:
    out = position_items(value, CLAUSE, where)
    for c in out:
        if not _CARD.fullmatch(c):
            raise _refuse(msg("{name} is not a card id.", name=short_repr(c)), where)
    return out


def _int(value: str, what: str, where: str) -> int:
    return position_number(value, what, CLAUSE, where)


def _pairs(text: str, where: str) -> list[tuple[str, str]]:
    return list(position_pairs(text, CLAUSE, where))


def _read_seat(text: str, where: str) -> dict[str, Any]:
    hand: list[str] = []
    work: dict[str, Any] = {"building": [], "converted": [], "site": [], "clones": [], "spent": []}
    for key, value in _pairs(text, where):
        if key == "hand":
            hand = _cards(value, f"{where}/hand")
        elif key in SEAT_LISTS:
            work[key] = _cards(value, f"{where}/work/{key}")
        elif key == "building":
            work["building"] = _placements(value, f"{where}/work/building")
        elif key == "clones":
            clones = []
            for pair in position_items(value, CLAUSE, f"{where}/work/clones"):
                card, sep, target = pair.partition(">")
                if not sep or not _CARD.fullmatch(card) or not _CARD.fullmatch(target):
                    raise _refuse(
                        msg("A clone is card>target, not {pair}.", pair=short_repr(pair)), where
                    )
                clones.append({"target": target, "card": card})
            work["clones"] = clones
        else:
            raise _refuse(msg("Unknown seat key {key}.", key=short_repr(key)), where)
    return {"hand": hand, "work": work}


def _placements(value: str, where: str) -> list[dict[str, Any]]:
    """`SP17@0,0r1,SP02@1,0r1`: placements hold a comma themselves, so they are matched one
    after the other rather than split."""
    out, pos = [], 0
    while pos < len(value):
        found = match_compact(value, pos)
        if found is None:
            raise _refuse(
                msg("{text} is not a placement (F-2.7).", text=short_repr(value[pos : pos + 40])),
                where,
            )
        p, pos = found
        out.append({"card": p.card, "x": p.x, "y": p.y, "r": p.r})
        if pos < len(value):
            if value[pos] != ",":
                raise _refuse(msg("Placements are separated by commas."), where)
            pos += 1
    return out


def read(text: str) -> dict[str, Any]:
    """The state a position stands for, as the engine's JSON (not yet checked)."""
    if not isinstance(text, str) or len(text) > 4000:
        raise _refuse(msg("A position is a string of at most 4000 characters."))
    parts = text.split("|")
    head = parts[0].split()
    if len(head) < 2 or head[0] != GAME_ID or len(parts) < 3:
        raise _refuse(
            msg("A position reads: fora-de-prumo SEAT:TURN TABLE | SEAT | SEAT … [rng=…].")
        )
    seat_text, _, number_text = head[1].partition(":")
    turn_seat = _int(seat_text, msg("the turn's seat"), "/turn")
    number = _int(number_text, msg("the turn number"), "/turn")
    rng = DEFAULT_RNG
    last = parts[-1].split()
    if last and last[-1].startswith("rng="):
        rng = last[-1][4:]
        parts[-1] = " ".join(last[:-1])
    state: dict[str, Any] = {
        "game": GAME_ID,
        "rules_version": RULES_VERSION,
        "catalog": {"id": "reference", "hash": builtin_catalogs()["reference"].hash},
        "market_size": DEFAULT_MARKET,
        "first_seat": 0,
        "seats": [_read_seat(t, f"/seats/{i}") for i, t in enumerate(parts[1:])],
        "deck": [],
        "market": [],
        "turn": {"seat": turn_seat, "number": number, "step": "buy", "peeked": [], "bought": None},
        "passes": 0,
        "final_round": None,
        "rng": rng,
        "game_over": False,
    }
    for key, value in _pairs(" ".join(head[2:]), ""):
        if key in ("market", "deck"):
            state[key] = _cards(value, f"/{key}")
        elif key == "passes":
            state["passes"] = _int(value, msg("passes"), "/passes")
        elif key == "first":
            state["first_seat"] = _int(value, msg("first"), "/first_seat")
        elif key == "size":
            state["market_size"] = _int(value, msg("size"), "/market_size")
        elif key == "final":
            by, sep, rest = value.partition(">")
            remaining = [
                _int(s, msg("a seat"), "/final_round")
                for s in position_items(rest, CLAUSE, "/final_round")
            ]
            if not sep:
                raise _refuse(
                    msg("final is T>s,s, not {value}.", value=short_repr(value)), "/final_round"
                )
            state["final_round"] = {
                "triggered_by": _int(by, msg("a seat"), "/final_round"),
                "remaining": remaining,
            }
            state["turn"]["step"] = "final"
        else:
            raise _refuse(msg("Unknown table key {key}.", key=short_repr(key)))
    return state


def state_from_position(text: str) -> dict[str, Any]:
    """The builder: the engine's state for a position, checked by the engine's reader."""
    return game_to_json(load(read(text)))


def position_of(state: Any, catalog: Any = None) -> str:
    """The position of a state (read and checked by the engine first)."""
    return write(game_to_json(load(state, catalog)))
