"""Compressed answers (app/compression.py, issue 18 item 7): the contract, /docs' assets and
large JSON answers come back br- or gzip-encoded when the client asks, and decode to exactly
the bytes an uncompressed answer carries."""

from __future__ import annotations

import gzip
from typing import Any

import brotli
import pytest
from flask_compress import flask_compress


def _decoded(resp: Any) -> bytes:
    data: bytes = resp.get_data()
    encoding = resp.headers.get("Content-Encoding")
    if encoding == "gzip":
        return gzip.decompress(data)
    if encoding == "br":
        return bytes(brotli.decompress(data))
    assert encoding is None, encoding
    return data


@pytest.mark.parametrize(
    ("accept", "encoding"), [("gzip", "gzip"), ("br", "br"), ("gzip, br", "br")]
)
def test_the_contract_comes_back_compressed(client: Any, accept: str, encoding: str) -> None:
    plain = client.get("/openapi.yaml")
    packed = client.get("/openapi.yaml", headers={"Accept-Encoding": accept})
    assert packed.status_code == 200 and packed.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.get_data()) < len(plain.get_data()) / 4
    assert _decoded(packed) == plain.get_data()


def test_nothing_is_compressed_unasked(client: Any) -> None:
    resp = client.get("/openapi.yaml")
    assert "Content-Encoding" not in resp.headers


def test_a_large_json_answer_decodes_to_the_same_bytes(client: Any) -> None:
    body = {"game": "fora-de-prumo", "seats": 4, "seed": 5}
    plain = client.post("/v1/games", json=body)
    packed = client.post("/v1/games", json=body, headers={"Accept-Encoding": "gzip"})
    assert plain.status_code == packed.status_code == 200
    assert packed.headers["Content-Encoding"] == "gzip"
    assert _decoded(packed) == plain.get_data()


def test_a_small_answer_is_sent_as_it_is(client: Any) -> None:
    resp = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert resp.status_code == 200 and "Content-Encoding" not in resp.headers


def test_the_docs_bundle_is_compressed(client: Any) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    bundle = "/docs/assets/swagger-ui-bundle.js"
    assert bundle in page.get_data(as_text=True)
    plain = client.get(bundle)
    packed = client.get(bundle, headers={"Accept-Encoding": "br"})
    assert plain.status_code == packed.status_code == 200
    assert packed.headers["Content-Encoding"] == "br"
    assert len(packed.get_data()) < len(plain.get_data()) / 2
    assert _decoded(packed) == plain.get_data()


def test_fixed_documents_are_compressed_once_and_answers_each_time(app: Any) -> None:
    client = app.test_client()
    for _ in range(2):
        client.get("/openapi.yaml", headers={"Accept-Encoding": "gzip"})
        client.post("/v1/games", json={"seats": 4, "seed": 5}, headers={"Accept-Encoding": "br"})
    cache = app.extensions["compression"].cache
    assert set(cache._store) == {"gzip;/openapi.yaml"}


def test_a_head_takes_its_gets_compressed_bytes(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A HEAD of the Swagger bundle compressed it anew each time (35 ms of CPU a request;
    audit of 2026-11-29): it reads the GET's cached bytes, and says the same length."""
    client = app.test_client()
    asset = "/docs/assets/swagger-ui-bundle.js"
    got = client.get(asset, headers={"Accept-Encoding": "gzip"})
    compressed: list[Any] = []
    compress = flask_compress._compress_data
    monkeypatch.setattr(
        flask_compress, "_compress_data", lambda *a: compressed.append(a) or compress(*a)
    )
    for _ in range(3):
        head = client.head(asset, headers={"Accept-Encoding": "gzip"})
        assert head.headers["Content-Encoding"] == "gzip" and head.data == b""
        assert head.headers["Content-Length"] == got.headers["Content-Length"]
    assert compressed == []


@pytest.mark.parametrize(
    "accept, encoding",
    [("gzip;q=0", None), ("gzip;q=-5", None), ("gzip;q=nan", None), ("gzip;q=0, br", "br")],
)
def test_a_coding_weighed_zero_is_refused_not_chosen(
    client: Any, accept: str, encoding: str | None
) -> None:
    """q=0 means "not acceptable" (RFC 9110, 12.4.2): flask-compress answered gzip;q=0 with
    gzip (audit of 2026-11-29)."""
    r = client.get("/openapi.yaml", headers={"Accept-Encoding": accept})
    assert r.status_code == 200 and r.headers.get("Content-Encoding") == encoding
