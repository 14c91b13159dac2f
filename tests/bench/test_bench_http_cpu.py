"""The servers benchmarks/http_cpu.py compares (issue 10, item 2): its floors must answer
what the referee answers, or the ratios it prints mean nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from flask import Flask

from app import create_app
from benchmarks.http_cpu import _memo, app_layer_only, minimal_app, service_mid_game_body
from engine.games import GAMES, engine


@pytest.fixture(scope="module")
def body() -> bytes:
    return orjson.dumps(service_mid_game_body())


@pytest.fixture
def engines_restored() -> Iterator[None]:
    """app_layer_only() replaces each game's apply_all: put them back afterwards."""
    originals = {gid: engine(gid).apply_all for gid in GAMES}
    yield
    for gid, fn in originals.items():
        engine(gid).apply_all = fn  # type: ignore[method-assign]


def _post(app: Flask, body: bytes) -> tuple[int, bytes]:
    r = app.test_client().post("/v1/resolve", data=body, content_type="application/json")
    return r.status_code, r.data


def test_minimal_app_sends_the_body_back(body: bytes) -> None:
    assert _post(minimal_app(), body) == (200, orjson.dumps(orjson.loads(body)))


@pytest.mark.usefixtures("engines_restored")
def test_app_layer_only_answers_as_the_referee(body: bytes) -> None:
    want = _post(create_app(), body)
    assert want[0] == 200
    floor = app_layer_only()
    assert [_post(floor, body) for _ in range(3)] == [want] * 3  # computed, then memoised


def test_memo_computes_once_per_input() -> None:
    calls: list[Any] = []

    def apply_all(
        state: Any, decisions: Any, catalog: Any = None, sealed: bool = False
    ) -> tuple[Any, Any]:
        calls.append(decisions)
        return {"seen": state["n"]}, [{"event": d} for d in decisions]

    memo = _memo(apply_all)
    state = {"n": 1}
    assert memo(state, [1, 2]) == ({"seen": 1}, [{"event": 1}, {"event": 2}])
    state["n"] = 5  # a later input equal in value, not in identity, is what is compared
    assert memo({"n": 1}, [1, 2]) == ({"seen": 1}, [{"event": 1}, {"event": 2}])
    assert calls == [[1, 2]]
    assert memo({"n": 1}, [1, 3]) == ({"seen": 1}, [{"event": 1}, {"event": 3}])
    assert memo({"n": 1}, [1, 3], {"id": "x"}) == ({"seen": 1}, [{"event": 1}, {"event": 3}])
    assert calls == [[1, 2], [1, 3], [1, 3]]
