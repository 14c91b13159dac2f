"""A replay request's outcome and a game record's header: what POST /v1/replay and
POST /v1/record share (app/routes.py, app/record.py).
"""

from __future__ import annotations

from typing import Any

from app import notation
from app.endpoint import engine_errors, game_of
from engine.canonical import same
from engine.errors import EngineError, pointer_token, short_repr
from engine.games import GameModule, engine_for
from engine.messages import msg


def run_replay(
    body: dict[str, Any], composed: bool = False
) -> tuple[GameModule, dict[str, Any], list[Any]]:
    """A replay request's outcome: (engine, answer with the state not yet issued, decisions
    as objects). A decision in notation that does not read stops the replay there, as an
    illegal one would; a game record's header (`record`) must match what is replayed
    (`composed`: the starting state was composed from a position)."""
    if "setup" in body:
        start: Any = {"setup": body["setup"]}
        prefixes = {"setup": "/setup", "catalog": "/setup/catalog"}
        eng = engine_for(body["setup"])
    else:
        start = body["state"]
        prefixes = {}
        eng = game_of(body)
    decisions, unreadable = notation.expand(eng, body["decisions"])
    with engine_errors(**prefixes):
        out = eng.replay(start, decisions, body.get("catalog"))
    if unreadable is not None and out["ok"]:
        out.update(ok=False, applied=unreadable.index, error=unreadable.to_json())
    if "record" in body:
        with engine_errors():
            check_record(eng, body["record"], out, composed)
    if body.get("notation"):
        notation.annotate(eng, out["events"], decisions)
    return eng, out, decisions


RECORD_FORMAT = "referee-record/1"


def record_header(
    eng: GameModule, state: dict[str, Any], decisions: int, composed: bool = False
) -> dict[str, Any]:
    """The header of a game record (POST /v1/record) whose replay ends in `state`; `composed`
    when it starts from a state composed from a position (app/history.py), not dealt."""
    header: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": eng.INFO.id,
        "rules_version": eng.INFO.rules_version,
        "catalog": state["catalog"],
        "result": {
            "game_over": state["game_over"],
            "decisions": decisions,
            "scores": state["scores"],
        },
    }
    if composed:
        header["composed"] = True
    return header


def check_record(
    eng: GameModule, header: dict[str, Any], out: dict[str, Any], composed: bool
) -> None:
    """A game record's header against its replay: the format, the game, the rules version,
    the catalog (by hash), whether it starts from a composed state and, when every decision
    was legal, the result must be the ones replayed, and the header holds nothing else
    (422 `record_mismatch`)."""
    expected = record_header(eng, out["state"], out["applied"], composed)
    if not out["ok"]:
        del expected["result"]  # the answer says where the log breaks
    for key, want in expected.items():
        if not same(header.get(key), want):
            raise EngineError(
                "record_mismatch",
                msg(
                    "The record's {key} is {given}; replaying it gives {want}.",
                    key=key,
                    given=short_repr(header.get(key)),
                    want=short_repr(want),
                ),
                None,
                f"/record/{key}",
            )
    _nothing_else(header, expected.keys() | {"result"})


def _nothing_else(header: dict[str, Any], written: set[str]) -> None:
    """A header key the service never writes for this replay (`composed` on a dealt game, a
    signature) would vouch for what the replay does not show: refused, not ignored."""
    extra = header.keys() - written
    if extra:
        key = min(extra)  # the first in key order, as unknown fields are listed
        raise EngineError(
            "record_mismatch",
            msg(
                "The record's {key} is {given}; replaying it gives none: remove it (a record's "
                "header holds {fields}).",
                key=short_repr(key),
                given=short_repr(header[key]),
                fields=", ".join(sorted(written)),
            ),
            None,
            f"/record/{pointer_token(key)}",
        )
