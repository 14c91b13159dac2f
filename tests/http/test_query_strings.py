"""Query strings are read as strictly as bodies (app/query.py): every /v1 operation takes
exactly the query parameters openapi.yaml declares for it; any other, or one given twice, is a
400 `invalid_request` naming it. Before, `GET /v1/catalogs?gmae=fora-de-prumo` answered
Architectura's catalogs, and `?game=` twice took the first."""

from __future__ import annotations

from typing import Any

import pytest
from http_support import check_response, spec

PATH_VALUES = {"catalog_id": "reference", "clause": "A-4.1", "job_id": "0" * 32}
DECLARED_VALUES = {"game": "fora-de-prumo"}


def _resolve(ref: dict[str, Any]) -> dict[str, Any]:
    if "$ref" not in ref:
        return ref
    node: Any = spec()
    for part in ref["$ref"].removeprefix("#/").split("/"):
        node = node[part]
    return dict(node)


def _operations() -> list[tuple[str, str, str, frozenset[str]]]:
    out = []
    for path, item in spec()["paths"].items():
        if not path.startswith("/v1/"):
            continue
        for method, op in item.items():
            if method not in ("get", "post"):
                continue
            params = [_resolve(p) for p in op.get("parameters", [])]
            url = path.format(**PATH_VALUES)
            query = frozenset(p["name"] for p in params if p["in"] == "query")
            out.append((method.upper(), path, url, query))
    return out


OPERATIONS = _operations()


def test_the_contract_declares_the_query_parameters_we_know() -> None:
    declared = {(m, p): q for m, p, _, q in OPERATIONS if q}
    assert declared == {
        ("GET", "/v1/catalogs"): {"game"},
        ("GET", "/v1/catalogs/{catalog_id}"): {"game"},
        ("GET", "/v1/bots"): {"game"},
        ("GET", "/v1/legend"): {"game"},
        ("GET", "/v1/rules"): {"game"},
    }


@pytest.mark.parametrize(("method", "path", "url", "query"), OPERATIONS, ids=lambda x: str(x))
def test_an_undeclared_query_parameter_is_refused(
    client: Any, method: str, path: str, url: str, query: frozenset[str]
) -> None:
    r = client.open(f"{url}?gmae=fora-de-prumo", method=method, json={})
    problem = check_response(method, path, r)
    assert r.status_code == 400 and problem["code"] == "invalid_request", problem
    assert problem["problems"][0]["pointer"] == "/gmae"
    assert problem["problems"][0]["code"] == "unknown_field"
    hint = "Did you mean 'game'?" if query else "takes no query parameters"
    assert hint in problem["problems"][0]["detail"]
    # a pointer token escapes `~` and `/` (RFC 6901), as a body's does (was: `/a/b~c`)
    r = client.open(f"{url}?a/b~c=1", method=method, json={})
    assert check_response(method, path, r)["problems"][0]["pointer"] == "/a~1b~0c"


@pytest.mark.parametrize(
    ("method", "path", "url", "query"), [o for o in OPERATIONS if o[3]], ids=lambda x: str(x)
)
def test_a_declared_parameter_is_read_once_and_refused_twice(
    client: Any, method: str, path: str, url: str, query: frozenset[str]
) -> None:
    (name,) = query
    once = client.open(f"{url}?{name}={DECLARED_VALUES[name]}", method=method)
    assert once.status_code == 200
    twice = client.open(f"{url}?{name}={DECLARED_VALUES[name]}&{name}=architectura", method=method)
    problem = check_response(method, path, twice)
    assert twice.status_code == 400 and problem["problems"][0]["code"] == "invalid_field"
    assert "given 2 times" in problem["problems"][0]["detail"]
    assert "given 2 times" in problem["detail"]  # not "a parameter this request does not read"


def test_catalogs_no_longer_answer_the_default_game_for_a_misspelt_parameter(client: Any) -> None:
    right = client.get("/v1/catalogs?game=fora-de-prumo")
    assert right.status_code == 200 and right.get_json()["game"] == "fora-de-prumo"
    assert client.get("/v1/catalogs?gmae=fora-de-prumo").status_code == 400


def test_an_unknown_game_of_the_catalogs_points_at_its_parameter(client: Any) -> None:
    """/v1/catalogs named the whole request (pointer "") where every other endpoint points at
    `/game` (audit of 2026-11-29)."""
    r = client.get("/v1/catalogs?game=chess")
    assert r.status_code == 404 and r.get_json()["code"] == "unknown_game"
    assert r.get_json()["pointer"] == "/game"
