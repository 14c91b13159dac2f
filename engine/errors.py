"""Typed errors. Each names the rule clause it enforces, like python-chess's IllegalMoveError."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, located by a JSON pointer."""

    code: str
    detail: str
    pointer: str = ""
    clause: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "detail": self.detail, "pointer": self.pointer}
        if self.clause:
            out["clause"] = self.clause
        return out


class EngineError(Exception):
    """Base class: a machine-readable code, the clause broken and a sentence for a person."""

    status = 422

    def __init__(
        self,
        code: str,
        detail: str,
        clause: str | None = None,
        pointer: str = "",
        problems: list[Problem] | None = None,
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.clause = clause
        self.pointer = pointer
        self.problems: list[Problem] = problems or []

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "detail": self.detail, "pointer": self.pointer}
        if self.clause:
            out["clause"] = self.clause
        if self.problems:
            out["problems"] = [p.to_json() for p in self.problems]
        return out


class IllegalDecision(EngineError):
    """A decision that the rules do not allow in this state."""

    def __init__(
        self,
        code: str,
        detail: str,
        clause: str | None = None,
        pointer: str = "",
        index: int | None = None,
    ) -> None:
        super().__init__(code, detail, clause, pointer)
        self.index = index

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        if self.index is not None:
            out["index"] = self.index
        return out


def summary(problems: list[Problem]) -> str:
    """The first problem's sentence, with how many more there are."""
    first, n = problems[0], len(problems)
    return first.detail if n == 1 else f"{first.detail} (and {n - 1} more problems)"


class InvalidState(EngineError):
    """A state that is malformed or inconsistent; every problem is listed."""

    def __init__(self, problems: list[Problem]) -> None:
        first = problems[0]
        super().__init__("invalid_state", summary(problems), first.clause, first.pointer, problems)


class CatalogError(EngineError):
    """A card catalog that does not follow the catalog format; every problem is listed."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(
            "invalid_catalog", summary(problems), "A-10", problems[0].pointer, problems
        )


class SetupError(EngineError):
    """A game set-up that the rules do not allow."""
