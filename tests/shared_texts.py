"""Where the project's source texts live: `../shared/` beside the repository (the normative
rule texts and the published rulebooks). CI clones the repository with it beside; a clone
without it cannot compare the repository's restatements and translations with their sources,
so those few checks say so and are skipped (every other test needs nothing outside the
repository)."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"


def shared_text(*parts: str) -> str:
    """The text of a file under ../shared, or a skip naming what is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is not beside this clone: the check compares with the source text")
    return path.read_text(encoding="utf-8")
