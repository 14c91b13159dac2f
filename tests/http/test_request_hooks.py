"""The per-request hooks made cheaper for issue 19 (docs/speed.md, "Sealed states") do what
they did: Flask's `ensure_sync` still wraps coroutine functions, the body timeout reads the
app's setting as it is at each request, the language headers are written once each."""

from __future__ import annotations

from typing import Any

import pytest
from http_support import make_app


def test_ensure_sync_is_remembered_for_plain_functions_only() -> None:
    app = make_app()

    def view() -> str:
        return "x"

    async def coroutine_view() -> str:
        return "x"

    assert app.ensure_sync(view) is view
    assert app.ensure_sync(view) is view  # remembered: the same answer
    # a coroutine function still goes to Flask's async support (which needs its "async"
    # extra, not installed here): never handed back as if it were synchronous
    for _ in range(2):
        with pytest.raises(RuntimeError):
            app.ensure_sync(coroutine_view)


def test_ensure_sync_accepts_an_unhashable_callable() -> None:
    class Unhashable:
        __hash__ = None  # type: ignore[assignment]

        def __call__(self) -> str:
            return "x"

    f = Unhashable()
    assert make_app().ensure_sync(f) is f


class _Socket:
    def __init__(self) -> None:
        self.timeouts: list[float] = []

    def settimeout(self, value: float) -> None:
        self.timeouts.append(value)


def test_the_body_timeout_reads_the_setting_at_each_request() -> None:
    app = make_app(BODY_READ_TIMEOUT_S=7)
    sock = _Socket()
    client = app.test_client()
    client.get("/healthz", environ_base={"gunicorn.socket": sock})
    app.config["BODY_READ_TIMEOUT_S"] = 3  # changed after the app was made
    client.get("/healthz", environ_base={"gunicorn.socket": sock})
    assert sock.timeouts == [7.0, 3.0]


@pytest.mark.parametrize("header", ["Content-Language", "content-language"])
def test_a_route_s_own_content_language_is_kept(header: str) -> None:
    app = make_app()

    @app.get("/said-in-latin")
    def latin() -> Any:
        return app.response_class(b"{}", mimetype="application/json", headers={header: "la"})

    r = app.test_client().get("/said-in-latin", headers={"Accept-Language": "fr"})
    assert r.headers.getlist("Content-Language") == ["la"]
    assert r.headers["Vary"] == "Accept-Language, Accept-Encoding"


def test_a_json_answer_says_its_language_once_and_varies_with_it() -> None:
    app = make_app()

    @app.get("/varies")
    def varies() -> Any:
        return app.response_class(b"{}", mimetype="application/json", headers={"Vary": "Origin"})

    r = make_app().test_client().get("/healthz", headers={"Accept-Language": "de"})
    assert r.headers.getlist("Content-Language") == ["de"]
    assert r.headers.getlist("Vary") == ["Accept-Language, Accept-Encoding"]
    r = app.test_client().get("/varies", headers={"Accept-Language": "pt"})
    assert r.headers.getlist("Content-Language") == ["pt"]
    assert r.headers.getlist("Vary") == ["Origin, Accept-Language, Accept-Encoding"]
