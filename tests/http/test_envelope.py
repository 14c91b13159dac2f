"""One envelope for every body (issue 22): every request schema refuses more than 100 unknown
fields before reading any of them, with the same answer on every endpoint.

The endpoints are those of openapi.yaml (every POST operation), each sent its first request
example with ~150,000 unknown top-level fields beside it (under the 2 MiB body limit). That
nothing read them is counted, not timed: spies on marshmallow's per-field deserialisation and
each schema's field loop, and on the engines' readers, must see no call.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest
from http_support import check_response, make_app, resolve_ref, spec
from marshmallow import Schema, fields

from app import schemas
from engine.errors import MAX_PROBLEMS
from engine.games import GAMES, engine

APP = make_app()
CLIENT = APP.test_client()
BODY_LIMIT = 2 * 1024 * 1024
FLOOD = {f"k{i}": 0 for i in range(150_000)}

# what the engines read a client's documents with (app/ reaches them only through these)
ENGINE_READERS = (
    "load",
    "new_game",
    "legal_decisions",
    "apply_all",
    "validate",
    "player_view",
    "score",
    "replay",
    "get_catalog",
    "state_from_position",
    "position_of",
    "decision_from_notation",
    "WorldSampler",
)


def post_operations() -> dict[str, dict[str, Any]]:
    """Every POST operation of openapi.yaml and its first request example (a valid body)."""
    out = {}
    for path, ops in spec()["paths"].items():
        if "post" not in ops:
            continue
        content = resolve_ref(ops["post"]["requestBody"])["content"]["application/json"]
        example = resolve_ref(next(iter(content["examples"].values())))
        out[path] = example["value"]
    return out


POSTS = post_operations()


def post(path: str, body: dict[str, Any]) -> Any:
    raw = orjson.dumps(body)
    assert len(raw) < BODY_LIMIT
    return CLIENT.post(path, data=raw, content_type="application/json")


class Reads:
    """Counts of what read a request's fields: marshmallow's field loop (per schema) and
    per-field deserialisation, and each engine reader."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: Counter[str] = Counter()
        self._spy(monkeypatch, fields.Field, "deserialize", lambda a: "field")
        self._spy(monkeypatch, Schema, "_deserialize", lambda a: type(a[0]).__name__)
        for gid in GAMES:
            eng = engine(gid)
            for name in ENGINE_READERS:
                self._spy(monkeypatch, eng, name, lambda a, n=f"{gid}.{name}": n)  # type: ignore[misc]

    def _spy(self, mp: pytest.MonkeyPatch, owner: Any, name: str, key: Callable[..., str]) -> None:
        original = getattr(owner, name)
        calls = self.calls

        def spy(*args: Any, **kwargs: Any) -> Any:
            calls[key(args)] += 1
            return original(*args, **kwargs)

        mp.setattr(owner, name, spy)

    def take(self) -> Counter[str]:
        out = self.calls.copy()
        self.calls.clear()
        return out


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[Reads]:
    yield Reads(monkeypatch)


def _answer(r: Any) -> dict[str, Any]:
    body: dict[str, Any] = r.get_json()
    body.pop("request_id", None)
    return body


def test_the_spec_lists_the_posts() -> None:
    assert "/v1/legal-moves" in POSTS and "/v1/games" in POSTS
    assert {"/v1/render", "/v1/position", "/v1/suggest"} <= set(POSTS)


def test_every_endpoint_refuses_a_flood_unread(reads: Reads) -> None:
    """The same answer on every endpoint, and nothing read the body's fields; the spies do
    see the ordinary example's reads (so zero means zero)."""
    answers = {}
    for path, example in POSTS.items():
        control = post(path, example)
        assert control.status_code in (200, 202), (path, control.data[:300])
        assert reads.take(), path  # something we spy on reads the example
        r = post(path, {**example, **FLOOD})
        seen = reads.take()
        assert not seen, (path, seen)
        check_response("POST", path, r)
        answers[path] = (r.status_code, _answer(r))
    want = answers["/v1/legal-moves"]
    assert want[0] == 400 and want[1]["code"] == "invalid_request"
    assert "150000 unknown fields" in want[1]["detail"]
    assert len(want[1]["problems"]) == MAX_PROBLEMS
    for path, got in answers.items():
        assert got == want, path


@pytest.mark.parametrize("path", list(POSTS))
def test_a_hundred_unknown_fields_are_each_read_and_named(path: str) -> None:
    """Not a flood: 100 unknown fields are reported one by one as before (a set-up's by its
    engine, 422 `unknown_field`; an envelope's by marshmallow, 400)."""
    r = post(path, {**POSTS[path], **{f"k{i}": 0 for i in range(MAX_PROBLEMS)}})
    body = check_response("POST", path, r)
    assert r.status_code == (422 if path == "/v1/games" else 400), body
    assert len(body["problems"]) == MAX_PROBLEMS
    assert {p["code"] for p in body["problems"]} == {"unknown_field"}
    assert "unknown fields; the first are listed" not in r.get_data(as_text=True)


@pytest.mark.parametrize(
    ("path", "body", "pointer", "unread"),
    [
        (
            "/v1/suggest",
            {**POSTS["/v1/suggest"], "budget": {"iterations": 10, **FLOOD}},
            "/budget",
            "BudgetSchema",
        ),
        (
            "/v1/replay",
            {"setup": {"seats": 2, "seed": 1, **FLOOD}, "decisions": []},
            "/setup",
            "architectura.replay",
        ),
        (
            "/v1/games",
            {"game": "fora-de-prumo", "seats": 2, "seed": 1, **FLOOD},
            "",
            "fora-de-prumo.new_game",
        ),
    ],
    ids=["budget", "replay setup", "fora-de-prumo setup"],
)
def test_nested_and_setup_floods_are_refused_unread(
    reads: Reads, path: str, body: dict[str, Any], pointer: str, unread: str
) -> None:
    r = post(path, body)
    p = check_response("POST", path, r)
    assert (r.status_code, p["code"], p["pointer"]) == (400, "invalid_request", pointer)
    assert p["detail"].startswith(f"{pointer or 'the body'}: 150000 unknown fields")
    assert p["problems"][1]["pointer"] == f"{pointer}/k0"
    assert reads.take()[unread] == 0


def test_a_field_named_by_its_data_key_is_known() -> None:
    """`async` (/v1/suggest's `run_async`) is a field: beside 100 unknown ones, no flood."""
    body = {**POSTS["/v1/suggest"], "async": False, **{f"k{i}": 0 for i in range(MAX_PROBLEMS)}}
    p = check_response("POST", "/v1/suggest", post("/v1/suggest", body))
    assert p.get("problems_total", MAX_PROBLEMS) == MAX_PROBLEMS
    assert {q["code"] for q in p["problems"]} == {"unknown_field"}
    assert "/async" not in {q["pointer"] for q in p["problems"]}


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_request_schema_is_an_envelope() -> None:
    """Declared once: each request schema of app/ derives from schemas.Envelope (a set-up,
    whose fields its game's engine reads, is checked by load_setup)."""
    mine = [c for c in _subclasses(Schema) if c.__module__.startswith("app")]
    assert len(mine) >= 10, mine
    setups = {schemas.SetupSchema, schemas.GameSetupSchema}
    assert [c for c in mine if c not in setups and not issubclass(c, schemas.Envelope)] == []
