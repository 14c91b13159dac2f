"""The decision protocol every game shares, written once.

A game supplies its own pieces (read and write a state, its pending decision, apply one
checked decision, score, set up, its catalogs); `DecisionProtocol` builds from them the
game-independent part of the JSON face: load, legal decisions, batches applied all or
nothing, standings, a dispute replayed, and the win shares the bots and tournaments read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Generic, Protocol, TypeVar

from engine.declared import brief
from engine.errors import (
    EngineError,
    IllegalDecision,
    InvalidState,
    Problem,
    SetupError,
    pointer_token,
    short_repr,
)
from engine.messages import Msg, msg


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


C = TypeVar("C", bound=_Identified)  # a game's catalog
JSON = dict[str, Any]


class _Played(Protocol):
    """What the shared protocol reads of a game's in-memory state."""

    n: int  # seats
    over: bool
    log: list[JSON] | None  # the events of the decisions being applied, while they are


G = TypeVar("G", bound=_Played)  # the game's in-memory state
A = TypeVar("A")  # the game's action (an in-memory decision)


def shipped_catalogs(
    package: str, load_catalog: Callable[[Any], C], into: dict[str, C]
) -> dict[str, C]:
    """The catalogs shipped with a game's engine, by id, read once into `into` (today its
    reference catalog, `<package>/data/reference.json`, loaded and checked by the game's own
    loader: A-10, F-10)."""
    if not into:
        text = resources.files(package).joinpath("data/reference.json").read_text("utf-8")
        cat = load_catalog(json.loads(text))
        into[cat.id] = cat
    return into


class _Ends(Protocol):
    over: bool


def position_refusal(
    detail: Msg, clause: str, where: str = "", root: str = "/position"
) -> EngineError:
    """A position that does not read (pointer into the request: /position…), or a state that
    has no position (root /state): each game's position notation refuses with it."""
    return EngineError("invalid_position", detail, clause, root + where)


def position_number(value: str, what: str, clause: str, where: str, signed: bool = False) -> int:
    """A number of a position: one to four digits (after a minus sign where `signed`), in one
    spelling: no leading zero, no -0 (each was read and written back otherwise)."""
    number = r"(?:0|-?[1-9][0-9]{0,3})" if signed else r"(?:0|[1-9][0-9]{0,3})"
    if not re.fullmatch(number, value):  # ASCII only
        raise position_refusal(
            msg("{what} must be a number, not {value}.", what=what, value=short_repr(value)),
            clause,
            where,
        )
    return int(value)


def position_items(value: str, clause: str, where: str) -> list[str]:
    """A comma-separated list of a position (an empty value: none); an empty item, which
    the writer never writes, is refused rather than skipped."""
    if not value:
        return []
    items = value.split(",")
    if "" in items:
        raise position_refusal(
            msg("{value} has an empty item; separate items by one comma.", value=short_repr(value)),
            clause,
            where,
        )
    return items


def position_pairs(text: str, clause: str, where: str) -> Iterator[tuple[str, str]]:
    """The key=value words of a part of a position, one at a time, in order (a lone `-`:
    none): a word that is not key=value, or a key given twice (the last would silently win),
    is refused when reached, after those before it."""
    seen: set[str] = set()
    for word in text.split():
        if word == "-":
            continue
        key, eq, value = word.partition("=")
        if not eq:
            raise position_refusal(
                msg("{word} is not key=value.", word=short_repr(word)), clause, where
            )
        if key in seen:
            raise position_refusal(
                msg("{key} is given twice; give each key once.", key=short_repr(key)),
                clause,
                where,
            )
        seen.add(key)
        yield key, value


def is_terminal(g: _Ends) -> bool:
    """Is the game over? (every game's state has `.over`: A-8, F-8.4)"""
    return g.over


def finish_view(view: JSON, seat: int) -> JSON:
    """What every game's view hides alike: the generator (future shuffles) and another seat's
    options; and whose view it is."""
    view["rng"] = None
    pending = view.get("pending")
    if pending is not None and pending["seat"] != seat:
        pending["options"] = None
    view["view_of"] = seat
    return view


def _listed(decisions: object) -> list[Any]:
    """A request's decisions: an array (IllegalDecision `malformed_decision` otherwise)."""
    if not isinstance(decisions, list):
        raise IllegalDecision(
            "malformed_decision", msg("decisions must be an array"), None, "/decisions"
        )
    return decisions


def misdirected(document: Any) -> InvalidState | None:
    """What a document sent as a state is instead, when it is one of the service's other
    documents: a seat's view (it has `view_of`: what POST /v1/view answers) or a whole
    answer that holds a state (`{"state": {...}, ...}`: what /v1/games, /v1/resolve or
    /v1/replay answer). Each is one problem saying what to send, in place of the reader's
    list of unknown and missing fields. Read only once a state failed to read (the answer's
    code stays `invalid_state`)."""
    if not isinstance(document, dict):
        return None
    if "view_of" in document:
        detail = msg(
            "This is seat {seat}'s view (what POST /v1/view answers), not a state: send the "
            "game's state itself. POST /v1/suggest and POST /v1/render take a view, as `view`.",
            seat=brief(document["view_of"]),
        )
        return InvalidState([Problem("view_not_state", detail, "/view_of")])
    if isinstance(document.get("state"), dict) and "rules_version" not in document:
        detail = msg(
            "This is a whole answer of the service (as POST /v1/games or /v1/resolve give), "
            "not a state: send its `state` field, the state it holds."
        )
        return InvalidState([Problem("answer_not_state", detail, "/state")])
    return None


@dataclass(frozen=True)
class DecisionProtocol(Generic[G, A]):
    """The shared JSON face of one game, from that game's pieces."""

    catalog_type: type
    load_catalog: Callable[[Any], Any]
    builtin_catalogs: Callable[[], Mapping[str, Any]]
    unknown_catalog_clause: str
    read_state: Callable[[Any, Any], G]  # (state, catalog or None) -> game; InvalidState
    write_state: Callable[[G], JSON]
    pending_json: Callable[[G], JSON | None]
    new_game_internal: Callable[[JSON], G]
    parse_decision: Callable[[G, Any, str], A]  # a decision object to the game's action
    options: Callable[[G], list[A]]  # the legal actions now
    diagnose: Callable[[G, A, str], IllegalDecision]  # why an action is not an option
    step: Callable[[G, A], None]  # apply a legal action in place
    final_scores: Callable[[G], JSON]
    # a state whose seal proved the service wrote it, read without the consistency checks
    # (docs/trust.md); None: such states are read as any other
    read_sealed: Callable[[Any, Any], G] | None = None

    def apply_internal(self, g: G, d: object, pointer: str = "") -> None:
        """One decision object, read and checked against the options (refused with the rule
        it breaks, `diagnose`), applied in place."""
        a = self.parse_decision(g, d, pointer)
        if a not in self.options(g):
            raise self.diagnose(g, a, pointer)
        self.step(g, a)

    def get_catalog(self, spec: object) -> Any:
        """A catalog by id (a built-in one), given inline as a catalog document, or already
        loaded (a catalog object is returned unchanged)."""
        if isinstance(spec, self.catalog_type):
            return spec
        if isinstance(spec, dict):
            return self.load_catalog(spec)
        known = self.builtin_catalogs()
        cat = known.get(spec) if isinstance(spec, str) else None
        if cat is None:
            raise SetupError(
                "unknown_catalog",
                msg(
                    "no built-in catalog {spec}; known: {known}",
                    spec=short_repr(spec),
                    known=sorted(known),
                ),
                self.unknown_catalog_clause,
                "/catalog",
            )
        return cat

    def load(self, state: object, catalog: object = None) -> G:
        """Read and check a state (InvalidState lists every problem)."""
        return self.read(state, catalog, False)

    def read(self, state: object, catalog: object, sealed: bool) -> G:
        """`load`, or with `sealed` (its seal proved the service wrote it, so its consistency
        was checked when it was written) read without those checks (`read_sealed`); its
        shape, catalog and cards are read all the same."""
        cat = self.get_catalog(catalog) if catalog is not None else None
        if sealed and self.read_sealed is not None:
            return self.read_sealed(state, cat)
        try:
            return self.read_state(state, cat)
        except InvalidState as e:
            raise misdirected(state) or e from None

    def new_game(self, setup: JSON) -> JSON:
        return self.write_state(self.new_game_internal(setup))

    def legal_decisions(self, state: object, catalog: object = None) -> JSON:
        """The pending decision and every option; each is accepted unchanged by `apply`."""
        g = self.load(state, catalog)
        pending = self.pending_json(g)
        return {
            "pending": pending,
            "options": pending["options"] if pending else [],
            "game_over": g.over,
        }

    def apply_logged(
        self, g: G, decisions: object, until: frozenset[str] = frozenset()
    ) -> IllegalDecision | None:
        """Apply decisions in order, tagging each event with its decision's index; stop at
        the first illegal one and return its error (with `index`), leaving `g` just before.
        `until`: event types after whose decision nothing more is applied or even looked at
        (the caller tells from the events that the batch stopped short)."""
        decisions = _listed(decisions)
        log: list[JSON] = []
        g.log = log
        for i, d in enumerate(decisions):
            before = len(log)
            try:
                self.apply_internal(g, d, f"/decisions/{i}")
            except IllegalDecision as e:
                return IllegalDecision(e.code, e.detail, e.clause, e.pointer, index=i)
            for ev in log[before:]:
                ev["decision"] = i
            if until and any(ev.get("type") in until for ev in log[before:]):
                break
        return None

    def take_log(self, g: G) -> list[JSON]:
        events = g.log or []
        g.log = None
        return events

    def apply_all(
        self,
        state: object,
        decisions: object,
        catalog: object = None,
        sealed: bool = False,
        until: frozenset[str] = frozenset(),
    ) -> tuple[JSON, list[JSON]]:
        """All or nothing: the first illegal decision raises with its index; the input state
        is never mutated. `sealed`: as for `load` (every decision is checked all the same).
        A sealed state that reads but then fails other than by the rules (a value of the
        wrong type, which only the full read would have refused) is read again in full: the
        client gets the full read's answer, a 4xx problem, never a crash. `until`: as for
        `apply_logged`, the batch stops after the first decision with such an event."""
        if sealed and self.read_sealed is not None:
            try:
                return self._apply_all(state, decisions, catalog, True, until)
            except EngineError:
                raise
            except Exception:  # the full read below answers for it
                pass
        return self._apply_all(state, decisions, catalog, False, until)

    def _apply_all(
        self, state: object, decisions: object, catalog: object, sealed: bool, until: frozenset[str]
    ) -> tuple[JSON, list[JSON]]:
        g = self.read(state, catalog, sealed)
        error = self.apply_logged(g, decisions, until)
        if error is not None:
            raise error
        events = self.take_log(g)
        return self.write_state(g), events

    def apply(
        self, state: object, decision: object, catalog: object = None
    ) -> tuple[JSON, list[JSON]]:
        """One decision: (new state, events)."""
        return self.apply_all(state, [decision], catalog)

    def score(self, state: object, catalog: object = None) -> JSON:
        """Standings now (the scoring applied to the position as it stands) or final."""
        g = self.load(state, catalog)
        out = self.final_scores(g)
        out["final"] = g.over
        return out

    def replay(self, start: object, decisions: object, catalog: object = None) -> JSON:
        """Settle a dispute: from a starting state (or `{"setup": ...}`) apply a decision
        log. Returns the final state and events, or the index of the first illegal decision
        and its error with the state reached just before it."""
        if isinstance(start, dict) and "setup" in start:
            g = self.new_game_internal(start["setup"])
        else:
            g = self.load(start, catalog)
        listed = _listed(decisions)
        error = self.apply_logged(g, listed)
        events = self.take_log(g)
        out: JSON = {"ok": error is None, "applied": len(listed)}
        if error is not None:
            out["applied"] = error.index
            out["error"] = error.to_json()
        out["state"] = self.write_state(g)
        out["events"] = events
        return out

    def returns(self, g: G) -> list[float]:
        """Per seat: 1 for a sole winner, 1/k for k sharing the win, else 0."""
        winners = self.final_scores(g)["winners"]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(g.n)]


# -- views sent back (POST /v1/suggest, the bots' WorldSampler) ---------------------------------

MAX_COMPARED_DEPTH = 64  # a view is a few levels deep; a difference deeper is named there


def with_nulls(doc: Any, template: Any) -> Any:
    """`doc` with every field that is null in `template` (a view of the same game, seats and
    viewer) and absent from `doc` written in as null: what a serializer that drops nulls
    leaves out, read as a state's absent nulls are. Array entries follow the template's entry
    at the same place (its last one past its end); nothing else is changed, and `doc` itself
    is answered when nothing is missing (the common case: no copy)."""
    if isinstance(doc, dict) and isinstance(template, dict):
        out: dict[Any, Any] | None = None
        for k, t in template.items():
            if t is None:
                if k not in doc:
                    out = dict(doc) if out is None else out
                    out[k] = None
            elif k in doc and isinstance(t, dict | list):
                v = doc[k]
                filled = with_nulls(v, t)
                if filled is not v:
                    out = dict(doc) if out is None else out
                    out[k] = filled
        return doc if out is None else out
    if isinstance(doc, list) and isinstance(template, list) and template:
        last = len(template) - 1
        items = [with_nulls(v, template[min(i, last)]) for i, v in enumerate(doc)]
        return doc if all(a is b for a, b in zip(items, doc, strict=True)) else items
    return doc


def null_skeleton(template: Any) -> Any:
    """The part of `template` that `with_nulls` reads: its null fields and the objects and
    arrays that lead to them (an empty array or object where there are none), so that filling
    a view walks a few fields instead of the whole of it."""
    if isinstance(template, dict):
        out: dict[Any, Any] = {}
        for k, v in template.items():
            sub = null_skeleton(v)
            if v is None or sub:
                out[k] = sub
        return out
    if isinstance(template, list):
        items = [null_skeleton(v) for v in template]
        return items if any(items) else []
    return None


_ABSENT = object()


def first_difference(sent: Any, expected: Any, pointer: str = "", depth: int = 0) -> str | None:
    """The JSON pointer of the first place where `sent` differs from `expected` (in the
    expected document's order, JSON's types told apart: 1 is not 1.0 nor true), None when
    they are the same."""
    if type(sent) is not type(expected):
        return pointer
    if depth >= MAX_COMPARED_DEPTH:
        return None if sent == expected else pointer
    if isinstance(sent, dict):
        for k in [*expected, *(k for k in sent if k not in expected)]:
            a, b = sent.get(k, _ABSENT), expected.get(k, _ABSENT)
            where = f"{pointer}/{pointer_token(str(k))}"
            if a is _ABSENT or b is _ABSENT:
                return where
            found = first_difference(a, b, where, depth + 1)
            if found is not None:
                return found
        return None
    if isinstance(sent, list):
        for i, (a, b) in enumerate(zip(sent, expected, strict=False)):
            found = first_difference(a, b, f"{pointer}/{i}", depth + 1)
            if found is not None:
                return found
        return None if len(sent) == len(expected) else f"{pointer}/{min(len(sent), len(expected))}"
    return None if sent == expected else pointer


def at_pointer(doc: Any, pointer: str) -> Any:
    """The value at a pointer `first_difference` gave (`_ABSENT` past the document)."""
    for token in pointer.split("/")[1:]:
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(doc, dict) and key in doc:
            doc = doc[key]
        elif isinstance(doc, list) and key.isascii() and key.isdigit() and int(key) < len(doc):
            doc = doc[int(key)]
        else:
            return _ABSENT
    return doc


def view_mismatch(sent: Any, expected: Any, clause: str | None = None) -> Problem | None:
    """The problem of a view that is not the view of the state rebuilt from it (`expected`):
    its first field that differs, with its pointer (relative to the view) and both values;
    None when there is none."""
    where = first_difference(sent, expected)
    if where is None:
        return None
    has, wants = at_pointer(sent, where), at_pointer(expected, where)
    detail = msg(
        "This view does not match any consistent state: {pointer} is {sent} where the view "
        "of a state consistent with the rest of it has {expected}. Send the answer of "
        "/v1/view unchanged (its null fields may be left out).",
        pointer=where or "/",
        sent=msg("absent") if has is _ABSENT else brief(has),
        expected=msg("nothing") if wants is _ABSENT else brief(wants),
    )
    return Problem("invalid_view", detail, where, clause)
