"""The per-request hooks made cheaper for issue 19 (docs/speed.md, "Sealed states") do what
they did: Flask's `ensure_sync` still wraps coroutine functions, the body timeout reads the
app's setting as it is at each request, the language headers are written once each."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from http_support import make_app
from werkzeug.exceptions import ClientDisconnected
from werkzeug.wsgi import get_input_stream

from app.limits import read_all
from app.logging import timestamp


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


class _Trickle:
    """A body as gunicorn hands it (`read` only), a few bytes per read (a socket's partial
    reads), then, if `fail`, a timeout instead of its end."""

    def __init__(self, data: bytes, step: int, fail: bool = False) -> None:
        self.data, self.step, self.fail = data, step, fail

    def read(self, size: int = -1) -> bytes:
        if not self.data and self.fail:
            raise TimeoutError("timed out")
        n = min(self.step, len(self.data) if size < 0 else size)
        out, self.data = self.data[:n], self.data[n:]
        return out


@pytest.mark.parametrize("terminated", [False, True])
@pytest.mark.parametrize("step", [1, 7, 5000])
def test_reading_the_body_in_reads_of_its_length_reads_what_werkzeug_reads(
    terminated: bool, step: int
) -> None:
    """`read_all` reads werkzeug's request stream as `request.get_data` did (its 64 KiB
    reads were the cost): the same bytes, and a stalled body the same ClientDisconnected."""
    body = bytes(range(256)) * 20
    for fail in (False, True):
        got = []
        for read in (lambda s: s.read(), lambda s: read_all(s, len(body))):
            env = {"wsgi.input": _Trickle(body, step, fail), "CONTENT_LENGTH": str(len(body))}
            if terminated:
                env["wsgi.input_terminated"] = True
            try:
                got.append(read(get_input_stream(env, max_content_length=10**6)))
            except ClientDisconnected as e:
                got.append(type(e.__context__))
        assert got[0] == got[1]
        assert got[0] == (TimeoutError if fail and terminated else body)


def test_the_log_timestamp_is_datetime_s() -> None:
    """The access line's `ts`, its second remembered, is what datetime writes: the fraction
    rounded to microseconds half to even (a carry into the next second), cut to ms."""
    base = 1_764_000_000
    instants = [base + k / 1000 + d for k in range(0, 2000, 7) for d in (0, 4.999e-4, 5e-4)]
    instants += [base + 0.9999995, base + 0.9999994, base + 5e-7, base + 1.5e-6, 1e9 + 0.25]
    instants += [base + i * 0.123456789 for i in range(3000)]
    for t in instants:
        assert timestamp(t) == datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds")
