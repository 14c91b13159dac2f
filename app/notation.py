"""Decisions in notation on the HTTP side: read strings into decision objects before the
engine sees them, and name each event's decision in notation. The notation itself is the
engines' (engine/<game>/notation.py); this module only wires it."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalDecision
from engine.games import GameModule


def expand(eng: GameModule, decisions: list[Any]) -> tuple[list[Any], IllegalDecision | None]:
    """The decisions, those written in notation read as objects, up to the first that does
    not read: that one's error comes back with its index (its pointer is /decisions/i)."""
    out: list[Any] = []
    for i, d in enumerate(decisions):
        if isinstance(d, str):
            try:
                d = eng.decision_from_notation(d, f"/decisions/{i}")
            except IllegalDecision as e:
                return out, IllegalDecision(e.code, e.detail, e.clause, e.pointer, index=i)
        out.append(d)
    return out, None


def names(eng: GameModule, decisions: list[Any]) -> list[str | None]:
    """Each decision in notation (None for one that cannot be written)."""
    return [eng.decision_notation(d) if isinstance(d, dict) else None for d in decisions]


def annotate(eng: GameModule, events: list[dict[str, Any]], decisions: list[Any]) -> None:
    """Add `notation`, the notation of the decision that caused it, to each event."""
    written = names(eng, decisions)
    for ev in events:
        i = ev.get("decision")
        if isinstance(i, int) and 0 <= i < len(written) and written[i] is not None:
            ev["notation"] = written[i]
