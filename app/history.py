"""A state's history: how its game came about, so that POST /v1/record can write the game
down from its last state alone (app/record.py).

Every state the service answers for a game it set up carries a top-level `history`:
`{"setup": ..., "decisions": [...]}`, the set-up as /v1/games read it (its defaults written
out; a custom catalog as its `{"id", "hash"}`, the document itself being sent with each
request as for any state) and every decision applied since, in order, each as the object its
notation reads as (without `seat`, in one spelling: a record's replay gives the same history;
one that notation cannot spell, an odd card id of a custom catalog, as it was sent).

It lives here, at the HTTP layer, not in the engines (they, and the bots, stay as they were):
- `strip`, called once by routes.read_body on every state a request carries (after its seal
  is checked, app/seal.py), takes the history off before anything reads the state, and keeps
  it for the request (flask.g). Its shape and length are checked here (422
  `invalid_history`, `history_too_long`), at a cost independent of its size; its content is
  only trusted once replayed (/v1/record replays it: a forged one is 422 `history_mismatch`).
- `begin` (/v1/games, /v1/replay from a set-up) and `extend` (/v1/resolve, /v1/replay from a
  state) say what the answered state's history is; `attach`, called once by
  seal.issue_state, puts it on that state before it is sealed, so a seal covers the history
  and an encrypted state hides it.
- What a seat sees never has it: /v1/view, /v1/suggest, /v1/render, /v1/legal-moves and
  the rest read the state without it (the set-up's seed would reveal every hidden card).

A state without a history goes on without one: one built by /v1/position (a position is not
a set-up: nothing replays to it), one from a client that dropped it, and one whose history
would grow beyond MAX_DECISIONS decisions (a record holds at most that many, as a replay
does; no game of the built-in catalogs comes near it).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from typing import Any

from flask import current_app, g

from app.errors import ApiError
from engine.errors import IllegalDecision
from engine.games import GameModule

HISTORY = "history"
FIELDS = frozenset({"setup", "decisions"})
POINTER = "/state/history"


def _invalid(detail: str, where: str = "") -> ApiError:
    return ApiError(422, "invalid_history", detail, POINTER + where)


def _limit() -> int:
    return int(current_app.config["MAX_DECISIONS"])


def checked(history: Any) -> dict[str, Any]:
    """The history's shape and length (O(1)): an object of exactly `setup` (an object) and
    `decisions` (an array of at most MAX_DECISIONS)."""
    if not isinstance(history, dict) or history.keys() != FIELDS:
        raise _invalid(
            "A state's history is an object of exactly `setup` and `decisions`, as the "
            "service answered it."
        )
    if not isinstance(history["setup"], dict):
        raise _invalid("A history's set-up is an object.", "/setup")
    decisions = history["decisions"]
    if not isinstance(decisions, list):
        raise _invalid("A history's decisions are an array.", "/decisions")
    if len(decisions) > _limit():
        raise ApiError(
            422,
            "history_too_long",
            f"The history holds {len(decisions)} decisions; a game record holds at most "
            f"{_limit()} (MAX_DECISIONS), and the service never issues a longer one.",
            POINTER + "/decisions",
        )
    return history


def strip(state: dict[str, Any]) -> dict[str, Any]:
    """The state without its history, which is kept for the request (`sent`)."""
    if HISTORY not in state:
        g.history_in = None
        return state
    g.history_in = checked(state[HISTORY])
    return {k: v for k, v in state.items() if k != HISTORY}  # the sent document is left as is


def sent() -> dict[str, Any] | None:
    """The history of the request's state (checked in shape only), None without one."""
    found: dict[str, Any] | None = g.get("history_in")
    return found


def canonical(eng: GameModule, decisions: Sequence[Any]) -> list[Any]:
    """Each applied decision as its notation reads (a few microseconds each)."""
    out = []
    for d in decisions:
        text = eng.decision_notation(d)
        if text is not None:
            with suppress(IllegalDecision):  # the notation reads what it writes
                d = eng.decision_from_notation(text)
        out.append(d)
    return out


def begin(
    eng: GameModule, setup: dict[str, Any], catalog: dict[str, Any], applied: Sequence[Any] = ()
) -> None:
    """The answered state's history starts at `setup` (with `applied` since); `catalog` is
    the state's catalog reference, written in place of a custom document."""
    if isinstance(setup.get("catalog"), dict):
        setup = {**setup, "catalog": catalog}
    g.history_out = {"setup": setup, "decisions": canonical(eng, applied)}


def extend(eng: GameModule, applied: Sequence[Any]) -> None:
    """The answered state's history is the request state's with `applied` appended (none
    when the request's state had none, or beyond MAX_DECISIONS)."""
    before = sent()
    if before is None or len(before["decisions"]) + len(applied) > _limit():
        return
    # a new list (of the same objects, and the new ones): the request's own is left as sent
    logged = [*before["decisions"], *canonical(eng, applied)]
    g.history_out = {"setup": before["setup"], "decisions": logged}


def attach(state: dict[str, Any]) -> dict[str, Any]:
    """The state to answer with its history, if this request gave it one (seal.issue_state)."""
    history = g.pop("history_out", None)
    if history is not None:
        state[HISTORY] = history  # the engine's fresh state, owned by this request
    return state
