"""The plain-JSON game state (docs/state.md) and its strict reader.

`game_to_json` writes the state; `game_from_json` checks shape and consistency and reports
every problem at once with a JSON pointer (InvalidState), never a silently fixed state.
"""

from __future__ import annotations

from typing import Any

from engine import rng as rngmod
from engine.architectura.catalog import Catalog, find_catalog
from engine.architectura.city import current_value, has_graveyard, is_protected
from engine.architectura.flow import ASKING, AUTOMATIC, OP_CLAUSE, options, settle
from engine.architectura.model import (
    BLOCKS,
    RULES_VERSION,
    TOKENS,
    Action,
    Entry,
    Game,
    Task,
    cell_json,
)
from engine.architectura.scoring import final_scores
from engine.architectura.setup import build_instances, check_replacements, deck_cards
from engine.errors import InvalidState, Problem, ProblemList, short_repr, unknown_keys

GAME = "architectura"
# Most resolving steps an engine-written state holds at once is about six (a turn, a cost,
# an operation, a protection choice, a Guesthouse escape); anything longer was not written
# by the engine, and is refused before its steps are read.
MAX_RESOLVING = 64

KIND = {
    "turn": (
        "play",
        "A-3",
        "play a card from your hand onto an eligible cell (or use a start-of-turn option)",
    ),
    "pay": ("pay_cost", "A-9", "choose a card to remove from the game to pay the play cost"),
    "consent": (
        "protection_choice",
        "A-6.3",
        "your own card would affect your protected card: apply it or decline",
    ),
    "op": ("effect", "A-7", "choose how to resolve the effect"),
    "guesthouse": (
        "guesthouse",
        "A-9",
        "your Guesthouse would be destroyed: move it to an eligible cell or decline",
    ),
    "fountain": ("effect", "A-9", "put a protection token on an eligible empty cell (Fountain)"),
    "lab": (
        "laboratory",
        "A-9",
        "play a card from your hand face down onto an eligible cell (Laboratory)",
    ),
    "manufactory": (
        "effect",
        "A-9",
        "you may return one of your face-up city cards to your hand (Manufactory)",
    ),
    "manuf_play": (
        "manufactory_play",
        "A-9",
        "play a different card from your hand onto the freed cell (Manufactory)",
    ),
    "smithy": ("effect", "A-9", "you may copy the on-play effect of a face-up card (Smithy)"),
}

# task fields holding a card instance, a cell, a seat, a list of seats
CARD_KEYS = ("src", "card", "target", "excluded")
TASK_FIELDS: dict[str, dict[str, str]] = {
    "turn": {"seat": "seat"},
    "end_turn": {"seat": "seat"},
    "pay": {"seat": "seat", "card": "card", "cell": "cell?", "left": "int"},
    "consent": {"seat": "seat", "target": "card", "action": "str", "clause": "str"},
    "op": {"seat": "seat", "src": "card", "def": "def", "i": "int", "n": "int", "done": "list"},
    "effect": {"seat": "seat", "src": "card", "def": "def", "i": "int"},
    "destroy": {"target": "card", "clause": "str"},
    "guesthouse": {"seat": "seat", "target": "card", "clause": "str"},
    "fountain": {"seat": "seat", "src": "card", "def": "def", "i": "int"},
    "lab": {"seat": "seat", "queue": "seats", "by": "seat"},
    "manufactory": {"seat": "seat", "src": "card", "def": "def", "i": "int"},
    "manuf_play": {"seat": "seat", "cell": "cell", "excluded": "card"},
    "smithy": {"seat": "seat", "src": "card", "def": "def", "i": "int"},
    "smithy_remove": {"card": "card"},
}


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


def action_to_json(g: Game, seat: int, a: Action) -> dict[str, Any]:
    """An option as the decision object that `apply` accepts unchanged."""
    d: dict[str, Any] = {"seat": seat, "type": a[0]}
    names = g.inst.names
    for field, v in zip(DECISION_TYPES[a[0]], a[1:], strict=True):
        if field in ("card", "target"):
            d[field] = names[v]
        elif field == "cell":
            d[field] = cell_json(v) if v >= 0 else None
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
        out["source"] = g.name(t["src"])
    if "target" in t:
        out["card"] = g.name(t["target"])
    out["options"] = [action_to_json(g, seat, a) for a in opts]
    return out


def _task_json(g: Game, t: Task) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in t.items():
        if k in CARD_KEYS:
            out[k] = g.name(v)
        elif k == "cell":
            out[k] = cell_json(v) if v >= 0 else None
        elif k == "done" and not g.cat.cards[t["def"]].on_play[t["i"]].per_owner:
            out[k] = [g.name(i) for i in v]
        elif isinstance(v, list):
            out[k] = list(v)
        else:
            out[k] = v
    return out


def _entry_json(g: Game, cell: int, depth: int, top: bool) -> dict[str, Any]:
    iid, orient, face_up, token = g.city[cell][depth]
    d: dict[str, Any] = {
        "card": g.name(iid),
        "orientation": orient,
        "face_up": face_up,
        "token": token,
    }
    if top:
        d["value"] = current_value(g, cell)
    return d


def game_to_json(g: Game) -> dict[str, Any]:
    seats = []
    for s in range(g.n):
        seats.append(
            {
                "colour": g.colours[s],
                "replacements": dict(g.replacements[s]),
                "deck": [g.name(i) for i in g.decks[s]],
                "hand": [g.name(i) for i in g.hands[s]],
                "tokens": g.tokens[s],
                "hand_limit": g.limits[s],
                "mulligan_used": g.mulligan[s],
                "first_turn_taken": g.started[s],
                "outside": [g.name(i) for i in g.outside[s]],
                "graveyard": [g.name(i) for i in g.graves[s]],
                "removed": [g.name(i) for i in g.removed[s]],
            }
        )
    city = []
    for street in range(g.n):
        row = []
        for b in range(BLOCKS):
            cell = street * BLOCKS + b
            depth = len(g.city[cell])
            row.append([_entry_json(g, cell, i, i == depth - 1) for i in range(depth)])
        city.append(row)
    return {
        "game": GAME,
        "rules_version": RULES_VERSION,
        "catalog": {"id": g.cat.id, "hash": g.cat.hash},
        "variant": g.variant,
        "seats": seats,
        "city": city,
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


class _Reader:
    """Collects problems while reading; every accessor returns a safe default on error."""

    def __init__(self) -> None:
        self.problems: list[Problem] = ProblemList()

    def bad(self, code: str, detail: str, pointer: str, clause: str | None = None) -> None:
        self.problems.append(Problem(code, detail, pointer, clause))

    def obj(self, v: Any, p: str) -> dict[str, Any]:
        if not isinstance(v, dict):
            self.bad("wrong_type", "must be an object", p)
            return {}
        return v

    def lst(self, v: Any, p: str, most: int | None = None) -> list[Any]:
        """An array; one longer than `most` entries is refused whole, unread (a hostile
        state may hold a million entries where the game has a few dozen cards)."""
        if not isinstance(v, list):
            self.bad("wrong_type", "must be an array", p)
            return []
        if most is not None and len(v) > most:
            self.bad("too_long", f"must have at most {most} entries, not {len(v)}", p)
            return []
        return v

    def unknown(self, d: dict[str, Any], allowed: Any, p: str) -> None:
        unknown_keys(self.problems, d, allowed, p)

    def int_(self, v: Any, p: str, lo: int, hi: int, clause: str | None = None) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            self.bad(
                "out_of_range" if isinstance(v, int) else "wrong_type",
                f"must be an integer from {lo} to {hi}",
                p,
                clause,
            )
            return lo
        return v

    def bool_(self, v: Any, p: str) -> bool:
        if not isinstance(v, bool):
            self.bad("wrong_type", "must be true or false", p)
            return False
        return v

    def str_(self, v: Any, p: str) -> str:
        if not isinstance(v, str):
            self.bad("wrong_type", "must be a string", p)
            return ""
        return v


SEAT_FIELDS = {
    "colour",
    "replacements",
    "deck",
    "hand",
    "tokens",
    "hand_limit",
    "mulligan_used",
    "first_turn_taken",
    "outside",
    "graveyard",
    "removed",
}
STATE_FIELDS = {
    "game",
    "rules_version",
    "catalog",
    "variant",
    "seats",
    "city",
    "fountains",
    "turn",
    "resolving",
    "pending",
    "rng",
    "game_over",
    "scores",
}


def resolve_catalog(r: _Reader, data: dict[str, Any], custom: Catalog | None) -> Catalog | None:
    ref = r.obj(data.get("catalog"), "/catalog")
    cid, chash = ref.get("id"), ref.get("hash")
    if not isinstance(cid, str) or not isinstance(chash, str):
        r.bad("wrong_type", "catalog must be {id, hash}", "/catalog", "A-10")
        return None
    if custom is not None and custom.hash == chash:
        return custom
    cat = find_catalog(cid, chash)
    if cat is None:
        r.bad(
            "unknown_catalog",
            f"no catalog {short_repr(cid)} with hash {short_repr(chash)}; send the catalog with the state",
            "/catalog",
            "A-10",
        )
    return cat


def game_from_json(data: Any, custom_catalog: Catalog | None = None) -> Game:
    """Read and check a state from outside; raise InvalidState listing every problem."""
    r = _Reader()
    if not isinstance(data, dict):
        raise InvalidState([Problem("wrong_type", "the state must be a JSON object", "")])
    r.unknown(data, STATE_FIELDS, "")
    for k in sorted(STATE_FIELDS - set(data) - {"pending", "scores"}):
        r.bad("missing_field", f"missing field {k!r}", f"/{k}")
    if data.get("game", GAME) != GAME:
        r.bad("wrong_game", f"this state is not an {GAME} state", "/game")
    if "rules_version" in data and data["rules_version"] != RULES_VERSION:
        r.bad(
            "unsupported_rules_version",
            f"rules_version must be {RULES_VERSION!r}",
            "/rules_version",
        )
    cat = resolve_catalog(r, data, custom_catalog)
    seats_raw = r.lst(data.get("seats"), "/seats")
    n = len(seats_raw)
    if not 2 <= n <= 4:
        r.bad("invalid_seat_count", "a game has 2, 3 or 4 seats", "/seats", "A-1.1")
    if cat is None or not 2 <= n <= 4:
        raise InvalidState(r.problems)
    variant = data.get("variant")
    if variant not in ("basic", "advanced"):
        r.bad("invalid_variant", "variant must be 'basic' or 'advanced'", "/variant", "A-1.5")
    colours: list[str] = []
    reps: list[dict[str, str]] = []
    seats = [r.obj(s, f"/seats/{i}") for i, s in enumerate(seats_raw)]
    for i, s in enumerate(seats):
        p = f"/seats/{i}"
        r.unknown(s, SEAT_FIELDS, p)
        for k in sorted(SEAT_FIELDS - set(s)):
            r.bad("missing_field", f"missing field {k!r}", f"{p}/{k}")
        col = s.get("colour")
        if col not in cat.colours or col in colours:
            r.bad(
                "invalid_colour",
                f"colour must be a distinct colour of {list(cat.colours)}",
                f"{p}/colour",
                "A-1.1",
            )
            col = next(c for c in cat.colours if c not in colours)
        colours.append(str(col))
        raw_reps = s.get("replacements", {})
        if isinstance(raw_reps, dict) and len(raw_reps) > len(cat.basic_ids):
            # each replacement takes the place of a different basic card
            r.bad(
                "too_long",
                f"at most {len(cat.basic_ids)} replacements, one per basic card",
                f"{p}/replacements",
                "A-1.5",
            )
            raw_reps = {}
        rep = check_replacements(cat, i, raw_reps, r.problems, f"{p}/replacements")
        if variant == "basic" and rep:
            r.bad(
                "replacements_in_basic_game",
                "the basic game has no replacements",
                f"{p}/replacements",
                "A-1.5",
            )
        reps.append(rep)
    inst = build_instances(cat, tuple(colours), [deck_cards(cat, rep) for rep in reps])
    # where each card was read: a pointer, or (zone pointer, index) formatted only if a
    # duplicate needs it (most states have none, and a pointer per card was measurable)
    seen: dict[int, Any] = {}

    def card(v: Any, p: str, seat: int | None = None) -> int:
        if not isinstance(v, str) or v not in inst.index:
            r.bad("unknown_card", f"{short_repr(v)} is not a card of this game", p, "A-1.3")
            return -1
        iid = inst.index[v]
        if seat is not None and inst.owner[iid] != seat:
            r.bad(
                "wrong_owner", f"{v} belongs to seat {inst.owner[iid]}, not seat {seat}", p, "A-1.3"
            )
        return iid

    def claim(x: Any, p: str, seat: int | None) -> int:
        """A card read at pointer `p`; each instance may stand in one place only (A-1.3)."""
        iid = card(x, p, seat)
        if iid >= 0:
            if iid in seen:
                r.bad(
                    "duplicate_card", f"{x} appears twice (also at {_where(seen[iid])})", p, "A-1.3"
                )
            else:
                seen[iid] = p
        return iid

    cards = len(inst.names)  # no zone, stack or list of cards holds more

    index, owner = inst.index, inst.owner

    def zone(v: Any, p: str, seat: int) -> list[int]:
        out = []
        for j, x in enumerate(r.lst(v, p, cards)):
            iid = index.get(x) if isinstance(x, str) else None
            if iid is not None and owner[iid] == seat and iid not in seen:
                seen[iid] = (p, j)  # a card of this seat seen once: what `claim` accepts
                out.append(iid)
                continue
            iid = claim(x, f"{p}/{j}", seat)
            if iid >= 0:
                out.append(iid)
        return out

    g = Game.__new__(Game)
    g.cat, g.inst, g.n, g.colours = cat, inst, n, tuple(colours)
    g.variant = str(variant)
    g.replacements = tuple(tuple(sorted(rep.items())) for rep in reps)
    g.decks, g.hands, g.tokens, g.limits = [], [], [], []
    g.mulligan, g.started, g.outside, g.graves, g.removed = [], [], [], [], []
    limits_allowed = {3} | {
        op.value for c in cat.cards.values() for op in c.on_play if op.op == "hand_limit"
    }
    for i, s in enumerate(seats):
        p = f"/seats/{i}"
        g.decks.append(zone(s.get("deck"), f"{p}/deck", i))
        g.hands.append(zone(s.get("hand"), f"{p}/hand", i))
        g.tokens.append(r.int_(s.get("tokens"), f"{p}/tokens", 0, TOKENS, "A-6.1"))
        lim = r.int_(s.get("hand_limit"), f"{p}/hand_limit", 1, 12, "A-7.9")
        if lim not in limits_allowed:
            r.bad(
                "invalid_hand_limit",
                f"hand limit {lim} is neither 3 nor granted by a card",
                f"{p}/hand_limit",
                "A-7.9",
            )
        g.limits.append(lim)
        if len(g.hands[i]) > lim:
            r.bad(
                "hand_over_limit",
                f"{len(g.hands[i])} cards in hand exceed the hand limit {lim}",
                f"{p}/hand",
                "A-3.5",
            )
        g.mulligan.append(r.bool_(s.get("mulligan_used"), f"{p}/mulligan_used"))
        g.started.append(r.bool_(s.get("first_turn_taken"), f"{p}/first_turn_taken"))
        if g.mulligan[i] and not g.started[i]:
            r.bad(
                "inconsistent_seat",
                "a mulligan starts the seat's first turn (A-3.1)",
                f"{p}/first_turn_taken",
                "A-3.1b",
            )
        g.outside.append(zone(s.get("outside"), f"{p}/outside", i))
        for j, iid in enumerate(g.outside[i]):
            if not inst.cdef[iid].outside:
                r.bad(
                    "not_an_outside_card",
                    f"{inst.names[iid]} is not played outside the city",
                    f"{p}/outside/{j}",
                    "A-9",
                )
        g.graves.append(zone(s.get("graveyard"), f"{p}/graveyard", i))
        if g.graves[i] and not has_graveyard(g, i):
            r.bad(
                "graveyard_without_card",
                "cards lie beside a Graveyard that is not in play",
                f"{p}/graveyard",
                "A-9",
            )
        g.removed.append(zone(s.get("removed"), f"{p}/removed", i))
    # the city
    g.city = [[] for _ in range(n * BLOCKS)]
    g._at = [0] * len(inst.names)
    city = r.lst(data.get("city"), "/city")
    if len(city) != n:
        r.bad("wrong_city_size", f"the city has one street per player: {n}", "/city", "A-1.2")
    for st, row in enumerate(city[:n]):
        row = r.lst(row, f"/city/{st}")
        if len(row) != BLOCKS:
            r.bad("wrong_city_size", f"a street has {BLOCKS} blocks", f"/city/{st}", "A-1.2")
        for b, stack in enumerate(row[:BLOCKS]):
            cell = st * BLOCKS + b
            p = f"/city/{st}/{b}"
            stack = r.lst(stack, p, cards)
            for depth, e in enumerate(stack):
                ep = f"{p}/{depth}"
                e = r.obj(e, ep)
                r.unknown(e, ("card", "orientation", "face_up", "token", "value"), ep)
                iid = claim(e.get("card"), f"{ep}/card", None)
                if iid < 0:
                    continue
                cd = inst.cdef[iid]
                orient = r.int_(
                    e.get("orientation"),
                    f"{ep}/orientation",
                    0,
                    max(len(cd.values), 1) - 1,
                    "A-2.1",
                )
                face_up = r.bool_(e.get("face_up"), f"{ep}/face_up")
                token = r.bool_(e.get("token"), f"{ep}/token")
                if token and (not face_up or depth != len(stack) - 1):
                    r.bad(
                        "token_on_hidden_card",
                        "a protection token lies only on a face-up top card",
                        f"{ep}/token",
                        "A-6.4",
                    )
                if token and cd.shielded_in_city:
                    r.bad(
                        "token_on_shield",
                        "a card with the shield is already protected",
                        f"{ep}/token",
                        "A-6.1",
                    )
                if face_up and depth != len(stack) - 1:
                    r.bad(
                        "covered_face_up",
                        "only a face-down card can be covered (A-4.1c)",
                        ep,
                        "A-4.1",
                    )
                g.city[cell].append((iid, orient, face_up, token))
    g.fountain = [-1] * (n * BLOCKS)
    for j, f in enumerate(r.lst(data.get("fountains", []), "/fountains", n * BLOCKS)):
        p = f"/fountains/{j}"
        f = r.obj(f, p)
        seat = r.int_(f.get("seat"), f"{p}/seat", 0, n - 1)
        cell = parse_cell(r, f.get("cell"), f"{p}/cell", n)
        if cell >= 0:
            if g.city[cell] or g.fountain[cell] >= 0:
                r.bad(
                    "fountain_on_occupied_cell",
                    "a Fountain token lies on an empty cell",
                    f"{p}/cell",
                    "A-9",
                )
            g.fountain[cell] = seat
    for sn in range(n):
        on_cards = sum(1 for st in g.city if st and st[-1][3] and inst.owner[st[-1][0]] == sn)
        total = g.tokens[sn] + on_cards + g.fountain.count(sn)
        if total != TOKENS:
            r.bad(
                "token_count",
                f"seat {sn} has {total} protection tokens in all, not {TOKENS}",
                f"/seats/{sn}/tokens",
                "A-1.3",
            )
    turn = r.obj(data.get("turn"), "/turn")
    g.seat = r.int_(turn.get("seat"), "/turn/seat", 0, n - 1, "A-1.4")
    g.turn = r.int_(turn.get("number"), "/turn/number", 0, 10_000)
    g.over = r.bool_(data.get("game_over"), "/game_over")
    try:
        g.rng = rngmod.from_hex(r.str_(data.get("rng"), "/rng"))
    except ValueError:
        r.bad("invalid_rng", "rng must be 16 hexadecimal digits", "/rng", "A-1.6")
        g.rng = 0
    g.tasks = []
    for j, t in enumerate(r.lst(data.get("resolving"), "/resolving", MAX_RESOLVING)):
        task = _read_task(r, g, t, f"/resolving/{j}", card, seen)
        if task is not None:
            g.tasks.append(task)
    missing = [inst.names[i] for i in range(len(inst.names)) if i not in seen]
    if missing:
        r.bad(
            "missing_cards",
            f"cards missing from every zone: {', '.join(missing)}",
            "/seats",
            "A-1.3",
        )
    g.log = None
    g._opts = None
    if r.problems:
        raise InvalidState(r.problems)
    _check_flow(r, g, data)
    if r.problems:
        raise InvalidState(r.problems)
    return g


def _where(seen: Any) -> str:
    """A pointer kept by `game_from_json`'s `seen`: a string, or (zone pointer, index)."""
    return seen if isinstance(seen, str) else f"{seen[0]}/{seen[1]}"


def parse_cell(r: _Reader, v: Any, p: str, n: int) -> int:
    if (
        not isinstance(v, list)
        or len(v) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
    ):
        r.bad("invalid_cell", "a cell is [street, block], both counted from 1", p, "A-1.2")
        return -1
    st, b = int(v[0]), int(v[1])
    if not 1 <= st <= n or not 1 <= b <= BLOCKS:
        r.bad(
            "invalid_cell",
            f"no cell [{st}, {b}] in a city of {n} streets and {BLOCKS} blocks",
            p,
            "A-1.2",
        )
        return -1
    return (st - 1) * BLOCKS + b - 1


def _read_task(r: _Reader, g: Game, t: Any, p: str, card: Any, seen: dict[int, Any]) -> Task | None:
    t = r.obj(t, p)
    k = t.get("k")
    spec = TASK_FIELDS.get(k) if isinstance(k, str) else None
    if spec is None:
        r.bad("invalid_task", f"unknown resolving step {short_repr(k)}", f"{p}/k")
        return None
    out: Task = {"k": k}
    r.unknown(t, {*spec, "k"}, p)
    for key, typ in spec.items():
        v = t.get(key)
        kp = f"{p}/{key}"
        if typ == "seat":
            out[key] = r.int_(v, kp, 0, g.n - 1)
        elif typ == "card":
            out[key] = max(card(v, kp), 0)
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
                r.bad("unknown_card", f"{short_repr(v)} is not a card of the catalog", kp)
                v = next(iter(g.cat.cards))
            out[key] = v
        elif typ == "seats":
            out[key] = [r.int_(x, f"{kp}/{j}", 0, g.n - 1) for j, x in enumerate(r.lst(v, kp, g.n))]
        elif typ == "list":
            out[key] = list(r.lst(v, kp, len(g.inst.names)))
    if "def" in out and "i" in out:
        ops = g.cat.cards[out["def"]].on_play
        if out["i"] >= len(ops) + (1 if k == "effect" else 0):
            r.bad("invalid_task", "operation index out of range", f"{p}/i")
            return None
        if k == "op":
            op = ops[out["i"]]
            if op.per_owner:
                out["done"] = [
                    r.int_(x, f"{p}/done/{j}", 0, g.n - 1) for j, x in enumerate(out["done"])
                ]
            else:
                out["done"] = [max(card(x, f"{p}/done/{j}"), 0) for j, x in enumerate(out["done"])]
    if k == "pay":
        iid = out["card"]
        if iid in seen:
            r.bad(
                "duplicate_card",
                f"{g.name(iid)} is being paid for and also at {_where(seen[iid])}",
                f"{p}/card",
            )
        seen[iid] = f"{p}/card"
    return out


SPECIAL_STEPS = ("fountain", "manufactory", "smithy")
OUTCOMES = ("destroy", "lower", "raise")


def _top_face_up(g: Game, iid: int) -> Entry | None:
    cell = g.locate(iid)
    if cell < 0 or not g.city[cell][-1][2]:
        return None
    return g.city[cell][-1]


def _check_task(r: _Reader, g: Game, t: Task, p: str) -> None:
    """What each resolving step needs from the rest of the state to be resumable: the
    engine only ever writes steps that satisfy these, so anything else was edited."""
    k = t["k"]
    bad = "inconsistent_resolving"
    if "def" in t and "i" in t and k != "effect":
        op = g.cat.cards[t["def"]].on_play[t["i"]]
        if k == "op" and (op.op not in OP_CLAUSE or op.count == 0):
            r.bad(bad, f"operation {t['i']} of {t['def']} is not a targeted operation", f"{p}/i")
        if k in SPECIAL_STEPS and (op.op != "special" or op.name != k):
            r.bad(bad, f"operation {t['i']} of {t['def']} is not {k}", f"{p}/i")
    if k == "consent":
        entry = _top_face_up(g, t["target"])
        if entry is None or g.owner(entry[0]) != t["seat"] or not is_protected(g, entry):
            r.bad(
                bad,
                "a protection choice is about a face-up protected card of the deciding seat",
                f"{p}/target",
                "A-6.3",
            )
        if t["action"] not in OUTCOMES:
            r.bad(bad, f"action must be one of {list(OUTCOMES)}", f"{p}/action")
    elif k == "guesthouse":
        entry = _top_face_up(g, t["target"])
        if (
            entry is None
            or g.owner(entry[0]) != t["seat"]
            or "guesthouse" not in g.card(entry[0]).passive
        ):
            r.bad(
                bad,
                "a Guesthouse escape is about the deciding seat's face-up Guesthouse",
                f"{p}/target",
                "A-9",
            )
    elif k == "pay":
        card = g.card(t["card"])
        if (
            not card.cost_remove
            or g.owner(t["card"]) != t["seat"]
            or not 1 <= t["left"] <= card.cost_remove
        ):
            r.bad(
                bad,
                "a payment step is for a card with a play cost of the deciding seat",
                f"{p}/card",
                "A-9",
            )
        cell = t["cell"]
        if cell >= 0 and (
            (g.city[cell] and g.city[cell][-1][2]) or g.fountain[cell] not in (-1, t["seat"])
        ):
            r.bad(
                bad,
                "a card is played only onto an empty or face-down cell free of an opponent's Fountain token",
                f"{p}/cell",
                "A-4.1",
            )
        if (t["cell"] < 0) != card.outside:
            r.bad(
                bad,
                "the payment step's cell does not fit where the card is played",
                f"{p}/cell",
                "A-3.2",
            )
    elif k == "manuf_play":
        if t["excluded"] not in g.hands[t["seat"]]:
            r.bad(
                bad,
                "the Manufactory's returned card is in the deciding seat's hand",
                f"{p}/excluded",
                "A-9",
            )
        if g.city[t["cell"]] and g.city[t["cell"]][-1][2]:
            r.bad(bad, "the Manufactory's freed cell holds a face-up card", f"{p}/cell", "A-9")
    elif k == "lab":
        order = [t["seat"], *t["queue"]]
        if t["by"] in order or len(set(order)) != len(order):
            r.bad(bad, "a Laboratory asks each opponent once", p, "A-9")
    elif k == "smithy_remove" and not g.card(t["card"]).is_smithy:
        r.bad(bad, "only a Smithy is removed after copying", f"{p}/card", "A-9")


def _check_flow(r: _Reader, g: Game, data: dict[str, Any]) -> None:
    """The pending decision must be the one the resolving steps ask for."""
    for st in range(g.n):
        for b in range(BLOCKS):
            cell = st * BLOCKS + b
            stack = g.city[cell]
            if not stack:
                continue
            raw = data["city"][st][b][-1]
            if "value" in raw and raw["value"] != current_value(g, cell):
                r.bad(
                    "value_mismatch",
                    f"the value shown is not the card's current value {current_value(g, cell)}",
                    f"/city/{st}/{b}/{len(stack) - 1}/value",
                    "A-2.6",
                )
    for j, t in enumerate(g.tasks):
        _check_task(r, g, t, f"/resolving/{j}")
    if r.problems:
        return
    if g.over:
        if g.tasks:
            r.bad(
                "inconsistent_pending", "a finished game has nothing left to resolve", "/resolving"
            )
        if data.get("pending") is not None:
            r.bad("inconsistent_pending", "a finished game has no pending decision", "/pending")
        if data.get("scores") is not None and data["scores"] != final_scores(g):
            r.bad("inconsistent_scores", "scores do not match the city", "/scores", "A-8")
        return
    if not g.tasks:
        r.bad(
            "inconsistent_pending",
            "a running game always has a decision to resolve",
            "/resolving",
            "A-3",
        )
        return
    bottom = g.tasks[0]
    if bottom["k"] not in ("turn", "end_turn") or bottom["seat"] != g.seat:
        r.bad(
            "inconsistent_pending",
            "the first resolving step must be the turn of turn.seat",
            "/resolving/0",
            "A-3",
        )
        return
    if any(t["k"] in ("turn", "end_turn") for t in g.tasks[1:]):
        r.bad("inconsistent_pending", "only one turn resolves at a time", "/resolving", "A-3")
        return
    top = g.tasks[-1]
    if top["k"] in AUTOMATIC or top["k"] not in ASKING:
        r.bad(
            "inconsistent_pending",
            "the last resolving step must be a decision",
            f"/resolving/{len(g.tasks) - 1}",
        )
        return
    try:
        probe = g.copy()
        opts = settle(probe)
    except Exception:  # untrusted resolving steps may break any invariant; report, never crash
        r.bad(
            "inconsistent_pending",
            "the resolving steps do not match the rest of the state",
            "/resolving",
        )
        return
    if not opts or probe.tasks != g.tasks:
        r.bad(
            "inconsistent_pending",
            "the pending decision has no legal option in this state",
            "/resolving",
        )
        return
    g._opts = opts
    given = data.get("pending")
    if given is not None and given != pending_json(g):
        r.bad(
            "inconsistent_pending",
            "pending does not match the decision the state asks for",
            "/pending",
        )
    if data.get("scores") is not None:
        r.bad(
            "inconsistent_scores", "scores are only given when the game is over", "/scores", "A-8"
        )
