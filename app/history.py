"""A state's provenance: how its game came about, so that POST /v1/record can write the game
down from its last state alone (app/record.py), and so that a sealed state says whether it was
dealt by the rules or composed from a position (docs/trust.md).

Every state the service answers for a game it set up carries a top-level `history`:
`{"setup": ..., "decisions": [...]}`, the set-up as /v1/games read it (its defaults written
out; a custom catalog as its `{"id", "hash"}`, the document itself being sent with each
request as for any state; a built-in catalog's document as its id) and every decision
applied since, in order, each as the object its
notation reads as (without `seat`, in one spelling: a record's replay gives the same history;
one that notation cannot spell, an odd card id of a custom catalog, as it was sent).

A state built from a position (/v1/position) carries `"composed": true` instead, and so does
every state played on from it: nothing replays to a position, and under a seal the flag tells
a referee (and /v1/resolve, /v1/replay: app/seal.py `require_dealt`) that the cards were
placed by a client, not dealt from a set-up.

It lives here, at the HTTP layer, not in the engines (they, and the bots, stay as they were):
- `strip`, called once by endpoint.read_body on every state a request carries (after its seal
  is checked, app/seal.py), takes both fields off before anything reads the state and answers
  them as the state's `Origin`, which the request object carries (endpoint.Received). A
  history's shape and length are checked at once (422
  `invalid_history`, `history_too_long`), at a cost independent of its size. Its content is
  read as strictly as the state (`verify`: the set-up by its game's set-up reader, each
  decision by its game's decision table and notation), unless the state's seal proves the
  service wrote it; it is only trusted once replayed (/v1/record replays it: a forged one is
  422 `history_mismatch`).
- `Origin.dealt` (/v1/games, /v1/replay from a set-up), `Origin.extended` (/v1/resolve,
  /v1/replay from a state) and `COMPOSED_ORIGIN` (/v1/position) say what the answered
  state's origin is; `attach`, called once by seal.issue_state, puts it on that state before
  it is sealed, so a seal covers it and an encrypted state hides it.
- What a seat sees never has it: /v1/view, /v1/suggest, /v1/render, /v1/legal-moves and
  the rest read the state without it (the set-up's seed would reveal every hidden card).

A state without a history goes on without one: one built by /v1/position, one from a client
that dropped it, and one whose history would grow beyond MAX_HISTORY decisions (a record
holds at most that many, as a replay does; by default more than the longest Fora de Prumo game
any set-up allows, and far more than Architectura's games take, docs/http.md).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from contextlib import nullcontext, suppress
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import orjson
from marshmallow import ValidationError

from app import current, schemas
from app.errors import ApiError, from_engine, from_validation, prefixed
from engine.errors import (
    EngineError,
    IllegalDecision,
    Problem,
    ProblemList,
    short_repr,
    summary,
)
from engine.games import DEFAULT_GAME, GameModule, engine
from engine.guesses import without_guesses
from engine.messages import Msg, msg
from engine.setup_fields import rounded_seed

HISTORY = "history"
COMPOSED = "composed"  # true on a state built from a position, and on its successors
FIELDS = frozenset({"setup", "decisions"})
POINTER = "/state/history"
GUESSED = 8  # a history's refusals that say "Did you mean" (engine/guesses.py: the first)
VERIFIED_PREFIXES = 4096  # history prefixes remembered as read, per process (about 0.5 MB)
_SORTED = orjson.OPT_SORT_KEYS


def _invalid(detail: Msg, where: str = "") -> ApiError:
    return ApiError(422, "invalid_history", detail, POINTER + where)


def _limit() -> int:
    return int(current.config()["MAX_HISTORY"])


def checked(history: Any) -> dict[str, Any]:
    """The history's shape and length (O(1)): an object of exactly `setup` (an object) and
    `decisions` (an array of at most MAX_HISTORY)."""
    if not isinstance(history, dict) or history.keys() != FIELDS:
        raise _invalid(
            msg(
                "A state's history is an object of exactly `setup` and `decisions`, as the "
                "service answered it."
            )
        )
    if not isinstance(history["setup"], dict):
        raise _invalid(msg("A history's set-up is an object."), "/setup")
    decisions = history["decisions"]
    if not isinstance(decisions, list):
        raise _invalid(msg("A history's decisions are an array."), "/decisions")
    if len(decisions) > _limit():
        raise ApiError(
            422,
            "history_too_long",
            msg(
                (
                    "The history holds {decisions} decisions; a game record holds at most "
                    "{value} (MAX_HISTORY), and the service never issues a longer one."
                ),
                decisions=len(decisions),
                value=_limit(),
            ),
            POINTER + "/decisions",
        )
    return history


@dataclass(frozen=True)
class Origin:
    """How a state came about: dealt from a set-up (`history`: the set-up and every decision
    since, None when it is not kept), or `composed` from a position. A request's state has
    one (`strip`); an answered state gets one (`dealt`, `extended`, `COMPOSED_ORIGIN`), which
    `attach` writes on it before the seal."""

    history: dict[str, Any] | None = None
    composed: bool = False

    @staticmethod
    def dealt(
        eng: GameModule,
        setup: dict[str, Any],
        catalog: dict[str, Any],
        applied: Sequence[Any] = (),
    ) -> Origin:
        """A game dealt from `setup`, with `applied` since; `catalog` is the state's catalog
        reference, written in place of a custom document (the built-in catalog's id when the
        document is that catalog's, so that its record needs no document)."""
        if isinstance(setup.get("catalog"), dict):
            builtin = eng.builtin_catalogs().get(catalog["id"])
            same = builtin is not None and builtin.hash == catalog["hash"]
            setup = {**setup, "catalog": catalog["id"] if same else catalog}
        return Origin({"setup": setup, "decisions": canonical(eng, applied)})

    def extended(self, eng: GameModule, applied: Sequence[Any]) -> Origin:
        """The origin of a state played on from this one: its history with `applied` appended
        (none when it had none, or beyond MAX_HISTORY); a composed state's successor is
        composed too."""
        before = self.history
        if before is None or len(before["decisions"]) + len(applied) > _limit():
            return Origin(None, self.composed)
        # a new list (of the same objects, and the new ones): the request's own is left as sent
        logged = [*before["decisions"], *canonical(eng, applied)]
        return Origin({"setup": before["setup"], "decisions": logged})


COMPOSED_ORIGIN = Origin(None, True)  # a state built from a position (/v1/position)
UNKNOWN_ORIGIN = Origin()  # a state without history (or a request without a state)


def strip(
    state: dict[str, Any], eng: GameModule | None, authentic: bool, catalog: Any = None
) -> tuple[dict[str, Any], Origin]:
    """The state without its history and its `composed` flag, and its origin read from them.
    `eng` is the state's game (None for a game the registry does not know: the state's reader
    refuses it); `authentic`: its seal proved the service wrote it, so its history's content is
    not read again; `catalog`: the request's custom catalog."""
    if HISTORY not in state and COMPOSED not in state:
        return state, UNKNOWN_ORIGIN
    if COMPOSED in state:
        if state[COMPOSED] is not True:
            raise ApiError(
                422,
                "invalid_state",
                msg(
                    "A state's `composed` is true when present: the service sets it on a state "
                    "built from a position, and on every state played on from one."
                ),
                "/state/" + COMPOSED,
            )
        if HISTORY in state:
            raise _invalid(
                msg("A state composed from a position has no history: nothing replays to it.")
            )
        origin = COMPOSED_ORIGIN
    else:
        origin = Origin(checked(state[HISTORY]))
        if eng is not None and not authentic:
            verify(eng, state[HISTORY], state.get("catalog"), catalog)
    # the sent document is left as is
    return {k: v for k, v in state.items() if k != HISTORY and k != COMPOSED}, origin


# -- the history's content, read as strictly as the state -----------------------------------


def mismatch(why: str, pointer: str, index: int | None = None, setup: Any = None) -> ApiError:
    """422 `history_mismatch`. When the history's set-up (`setup`) has a seed a client reading
    JSON numbers as doubles may have rounded (`rounded_seed`), the answer says so rather than
    blaming an edit: the rounded seed deals another game."""
    seed = rounded_seed(setup)
    if seed is not None:
        said = msg(
            (
                "{why} The history's seed {seed} is above 2^53-1, the largest integer a client "
                "reading JSON numbers as doubles (JavaScript, jq) keeps exactly: if such a "
                "client relayed the state, it rounded the seed, which deals another game. Send "
                "the history back byte for byte as the service wrote it, or start games with a "
                "seed below 2^53 (the service picks one there when none is sent)."
            ),
            why=why,
            seed=str(seed),
        )
        return ApiError(422, "history_mismatch", said, POINTER + "/setup/seed", index=index)
    return ApiError(
        422,
        "history_mismatch",
        msg(
            (
                "{why} The history or the state was changed after the service issued it; no "
                "record can be made of it."
            ),
            why=why,
        ),
        pointer,
        index=index,
    )


def read_setup(setup: dict[str, Any]) -> dict[str, Any]:
    """The history's set-up read as /v1/games reads one (its game named, defaults written);
    422 `invalid_history` otherwise."""
    try:
        return schemas.load_setup(setup)
    except ValidationError as e:
        bad = from_validation(e, POINTER + "/setup")  # its first problem, and all
        why = bad.detail  # "<pointer>: <message>", translated as a message (app/i18n.py)
        raise ApiError(
            422,
            "invalid_history",
            msg("The history's set-up is not a set-up: {why}", why=why),
            bad.pointer,
            problems=bad.problems,
            problems_total=bad.problems_total,
        ) from None


def same_game(eng: GameModule, setup: dict[str, Any]) -> None:
    """The history's set-up is a set-up of the state's game (422 `history_mismatch`)."""
    if setup.get("game", DEFAULT_GAME) != eng.INFO.id:
        game, expected = short_repr(setup.get("game")), eng.INFO.id
        raise mismatch(
            msg(
                "The history's set-up is a game of {game}, not of {expected}.",
                game=game,
                expected=expected,
            ),
            POINTER + "/setup/game",
        )


class _Verified:
    """Digests of history prefixes already read in full by this process (an LRU): an honest
    client sends the same history with one more decision each time, so only the new decisions
    are read again. A prefix's digest covers the game, the state's catalog reference, the
    set-up and every decision up to it (BLAKE2b of their JSON: no practical collision), so a
    history that differs anywhere is read in full."""

    def __init__(self, most: int = VERIFIED_PREFIXES) -> None:
        self.most = most
        self._seen: OrderedDict[bytes, None] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def prefixes(
        eng: GameModule, history: dict[str, Any], state_catalog: Any
    ) -> list[bytes] | None:
        """The digest after the set-up, then after each decision (None when a value has no
        canonical JSON, an integer beyond 64 bits say: such a history is read in full)."""
        try:
            h = hashlib.blake2b(eng.INFO.id.encode(), digest_size=16)
            h.update(orjson.dumps([state_catalog, history["setup"]], option=_SORTED))
            out = [h.digest()]
            for d in history["decisions"]:
                h.update(orjson.dumps(d, option=_SORTED))
                out.append(h.digest())
        except TypeError:
            return None
        return out

    @staticmethod
    def whole(eng: GameModule, history: dict[str, Any], state_catalog: Any) -> bytes | None:
        """The digest of the whole history in one piece (one JSON dump: the cheap check of a
        history sent again as it was)."""
        try:
            doc = orjson.dumps([eng.INFO.id, state_catalog, history], option=_SORTED)
        except TypeError:
            return None
        return hashlib.blake2b(doc, digest_size=16, person=b"whole").digest()

    def longest(self, digests: list[bytes]) -> int:
        """How many of `digests` (from the first) were read before: 0 for none."""
        with self._lock:
            for i in range(len(digests), 0, -1):
                if digests[i - 1] in self._seen:
                    self._seen.move_to_end(digests[i - 1])
                    return i
        return 0

    def add(self, digest: bytes) -> None:
        with self._lock:
            self._seen[digest] = None
            self._seen.move_to_end(digest)
            while len(self._seen) > self.most:
                self._seen.popitem(last=False)


VERIFIED = _Verified()


def verify(
    eng: GameModule, history: dict[str, Any], state_catalog: Any, catalog: Any = None
) -> None:
    """A history's content, read as strictly as the state, each problem's pointer under
    /state/history: its set-up as /v1/games reads one (its game's reader: 422 with that
    reader's code and clause, A-1 or F-1), then each decision by its game's decision reader
    and notation (422 `invalid_history` listing every problem). The cost is bounded by the
    history's size (the set-up reader counts unknown fields rather than listing them), and
    a prefix this process has read before is not read again (`_Verified`)."""
    whole = _Verified.whole(eng, history, state_catalog)
    if whole is not None and VERIFIED.longest([whole]):
        return  # read before as it is: the usual case, a state sent again
    digests = _Verified.prefixes(eng, history, state_catalog)
    known = VERIFIED.longest(digests) if digests is not None else 0
    decisions = history["decisions"]
    same_game(eng, read_setup(history["setup"]))
    game = _verify_setup(eng, history["setup"], state_catalog, catalog)
    if game is None:
        return  # a custom catalog not sent: the state's reader asks for it
    problems = ProblemList()
    for i in range(max(known - 1, 0), len(decisions)):
        # the first GUESSED refusals say "Did you mean", the rest not: each guess may cost
        # milliseconds
        with nullcontext() if problems.total < GUESSED else without_guesses():
            _verify_decision(eng, game, decisions[i], f"{POINTER}/decisions/{i}", problems)
    if problems:
        why = summary(problems)  # translated as a message (app/i18n.py)
        raise ApiError(
            422,
            "invalid_history",
            msg("The history is not one the service writes: {why}", why=why),
            problems[0].pointer,
            problems=prefixed(list(problems), ""),
            problems_total=problems.total,
        )
    for digest in (whole, digests[-1] if digests else None):
        if digest is not None:
            VERIFIED.add(digest)


def _verify_setup(eng: GameModule, setup: dict[str, Any], state_catalog: Any, catalog: Any) -> Any:
    """The game the history's set-up deals (its game's reader refuses a bad set-up: 422 with
    that reader's code and clause); None when it names a custom catalog not sent."""
    at = POINTER + "/setup"
    ref = setup.get("catalog")
    probe = setup
    if isinstance(ref, dict):  # a custom catalog, written as the state's reference to it
        if ref != state_catalog:
            expected, found = short_repr(state_catalog), short_repr(ref)
            raise ApiError(
                422,
                "invalid_history",
                msg(
                    (
                        "A history's custom catalog is the state's own reference to it ({expected}), "
                        "not {found}."
                    ),
                    expected=expected,
                    found=found,
                ),
                at + "/catalog",
                eng.INFO.catalog_clause,
            )
        if catalog is None:
            return None  # the state's reader asks for the catalog document itself
        probe = {**setup, "catalog": catalog}
    try:
        return eng.new_game_internal(probe)
    except EngineError as e:
        raise from_engine(e, setup=at) from None


def _verify_decision(eng: GameModule, game: Any, d: Any, at: str, problems: ProblemList) -> None:
    """One decision of the history: read by its game's decision reader against the game its
    set-up deals (a type, fields and values it has: A-3, F-3), and written as its notation
    reads it, as the service writes it (one that notation cannot spell, an odd card id of a
    custom catalog, stays as the reader took it)."""
    try:
        eng.parse_decision(game, d, at)
    except IllegalDecision as e:
        problems.append(Problem(e.code, e.detail, e.pointer, e.clause))
        return
    if spelled(eng, d) != d:
        notation = short_repr(eng.decision_notation(d))
        problems.append(
            Problem(
                "malformed_decision",
                msg(
                    (
                        "A history's decision is written as its notation ({notation}) reads, as the "
                        "service wrote it."
                    ),
                    notation=notation,
                ),
                at,
            )
        )


def spelled(eng: GameModule, d: Any) -> Any:
    """A decision as its notation reads it (a few microseconds); unchanged where notation
    cannot spell it (an odd card id of a custom catalog)."""
    text = eng.decision_notation(d)
    if text is not None:
        with suppress(IllegalDecision):  # the notation reads what it writes
            return eng.decision_from_notation(text)
    return d


# decisions whose spelling is remembered, per process (a few hundred bytes each): a
# notation's round trip costs several microseconds, and the same decisions come back often
SPELLINGS_REMEMBERED = 4096


@lru_cache(maxsize=SPELLINGS_REMEMBERED)
def _spelled_json(game_id: str, decision: bytes) -> bytes:
    """`spelled` in game `game_id`, from and to JSON text: a pure function, remembered."""
    return orjson.dumps(spelled(engine(game_id), orjson.loads(decision)))


def canonical(eng: GameModule, decisions: Sequence[Any]) -> list[Any]:
    """Each applied decision as its notation reads (a new value each time: the history the
    answer carries is its own)."""
    out = []
    for d in decisions:
        try:
            out.append(orjson.loads(_spelled_json(eng.INFO.id, orjson.dumps(d))))
        except TypeError:  # beyond JSON as orjson writes it: spelled as it is
            out.append(spelled(eng, d))
    return out


def attach(state: dict[str, Any], origin: Origin) -> dict[str, Any]:
    """The state to answer with its origin written on it (seal.issue_state): its history, or
    `composed`. `state` is the engine's fresh state, owned by the request."""
    if origin.history is not None:
        state[HISTORY] = origin.history
    if origin.composed:
        state[COMPOSED] = True
    return state
