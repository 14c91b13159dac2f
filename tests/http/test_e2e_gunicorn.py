"""End to end: gunicorn (with the repository's gunicorn.conf.py) on a free loopback port,
and a complete game played over HTTP, always taking an option from /v1/legal-moves."""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from http_support import advanced_setup, schema_errors

from benchmarks.local import gunicorn

LOGS: dict[str, Path] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    env = {"WEB_CONCURRENCY": "2", "LOG_LEVEL": "info", "MAX_BODY_BYTES": "1000000"}
    with open(log, "wb") as out, gunicorn(env, log=out) as base:
        LOGS[base] = log
        yield base


def call(base: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path,
        data=data,
        method="GET" if body is None else "POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(r.headers), json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read())


def test_a_complete_game_over_http(server: str) -> None:
    rnd = random.Random(2024)
    setup = advanced_setup(4, 17)
    status, _, body = call(server, "/v1/games", setup)
    assert status == 200, body
    state = body["state"]
    log: list[dict[str, Any]] = []
    events = 0
    for _ in range(2000):
        status, _, moves = call(server, "/v1/legal-moves", {"state": state})
        assert status == 200, moves
        assert not schema_errors("LegalMoves", moves)
        if moves["game_over"]:
            break
        decision = rnd.choice(moves["options"])
        status, _, out = call(server, "/v1/resolve", {"state": state, "decisions": [decision]})
        assert status == 200, (decision, out)
        assert not schema_errors("ResolveResult", out)
        events += len(out["events"])
        log.append(decision)
        state = out["state"]
    else:
        pytest.fail("the game did not end in 2000 decisions")
    assert state["game_over"] is True and state["scores"]["winners"]
    assert len(log) > 20 and events > len(log) // 2
    status, _, score = call(server, "/v1/score", {"state": state})
    assert status == 200 and score["final"] is True
    assert {k: v for k, v in score.items() if k != "final"} == state["scores"]
    # a referee settles the game from the set-up and the log: the same final state
    status, _, replay = call(server, "/v1/replay", {"setup": setup, "decisions": log})
    assert status == 200 and replay["ok"] is True
    assert replay["state"] == state
    # nothing more can be decided
    status, _, problem = call(
        server, "/v1/resolve", {"state": state, "decisions": [{"type": "pass"}]}
    )
    assert status == 422 and problem["code"] == "game_over"


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_complete_fora_de_prumo_games_over_http(server: str, seats: int) -> None:
    """Fora de Prumo, 2 to 4 seats (market of 4, 5, 6): listed options only, to the final
    scores, then settled by /v1/replay from the set-up and the log."""
    rnd = random.Random(seats)
    setup = {"game": "fora-de-prumo", "seats": seats, "seed": 30 + seats, "market_size": seats + 2}
    status, _, body = call(server, "/v1/games", setup)
    assert status == 200, body
    state = body["state"]
    log: list[dict[str, Any]] = []
    kinds: set[str] = set()
    for _ in range(1000):
        status, _, moves = call(server, "/v1/legal-moves", {"state": state})
        assert status == 200, moves
        # the contract on a sample (a Fora de Prumo state takes ~15 ms to check against the
        # schema; tests/fora_de_prumo/test_fdp_http.py checks every endpoint's answers)
        checked = len(log) % 10 == 0 or moves["game_over"]
        assert not (checked and schema_errors("LegalMoves", moves))
        if moves["game_over"]:
            break
        kinds.add(moves["pending"]["kind"])
        decision = rnd.choice(moves["options"])
        status, _, out = call(server, "/v1/resolve", {"state": state, "decisions": [decision]})
        assert status == 200, (decision, out)
        assert not ((checked or out["game_over"]) and schema_errors("ResolveResult", out))
        log.append(decision)
        state = out["state"]
    else:
        pytest.fail("the game did not end in 1000 decisions")
    assert kinds == {"buy", "lay", "final"}  # F-3.1, F-3.3 and the final round (F-8.2)
    status, _, score = call(server, "/v1/score", {"state": state})
    assert status == 200 and score["final"] is True
    assert not schema_errors("ScoreResult", score)
    assert {k: v for k, v in score.items() if k != "final"} == state["scores"]
    assert len(score["seats"]) == seats and score["winners"]
    status, _, replay = call(server, "/v1/replay", {"setup": setup, "decisions": log})
    assert status == 200 and replay["ok"] is True and replay["applied"] == len(log)
    assert replay["state"] == state


def test_errors_and_request_ids_through_gunicorn(server: str) -> None:
    status, headers, body = call(server, "/healthz", headers={"X-Request-ID": "e2e-1"})
    assert status == 200 and headers["X-Request-ID"] == "e2e-1"
    status, headers, body = call(server, "/v1/games", {"seats": 7, "seed": 1})
    assert status == 422 and headers["Content-Type"] == "application/problem+json"
    assert (body["code"], body["pointer"], body["clause"]) == (
        "invalid_seat_count",
        "/seats",
        "A-1.1",
    )
    payload = json.dumps({"seats": 2, "seed": 1, "pad": "x" * 1_000_001}).encode()
    status, body = oversized_answer(server, payload, chunked=False)
    assert status == 413 and body["code"] == "body_too_large"
    status, _, body = call(server, "/readyz")
    assert status == 200 and body["status"] in ("ready", "degraded")


def oversized_answer(server: str, payload: bytes, chunked: bool) -> tuple[int, Any]:
    """POST /v1/games with a body past MAX_BODY_BYTES: the answer's status and body. The server
    may answer and close before reading the whole body (RFC 9110 allows it): the body then
    cannot be sent to its end (a broken pipe, or a reset), but the answer, sent before the
    close, is still there to read. (urllib raised on the broken pipe: a 1 MB body sent with
    its length failed so now and then, on a loaded machine.)"""
    host, port = server.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    body: Any = (
        (payload[i : i + 65536] for i in range(0, len(payload), 65536)) if chunked else payload
    )
    try:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            conn.request(
                "POST",
                "/v1/games",
                body=body,
                headers={"Content-Type": "application/json"},
                encode_chunked=chunked,
            )
        r = conn.getresponse()
        return r.status, json.loads(r.read())
    finally:
        conn.close()


@pytest.mark.parametrize("size", [1_100_000, 20_000_000])
def test_chunked_body_over_the_limit(server: str, size: int) -> None:
    """A chunked body past MAX_BODY_BYTES is answered 413 `body_too_large`, even where the
    server closes before the whole body is sent (`oversized_answer`)."""
    payload = b'{"seats": 2, "seed": 1, "pad": "' + b"x" * size + b'"}'
    status, body = oversized_answer(server, payload, chunked=True)
    assert status == 413 and body["code"] == "body_too_large"


def test_one_json_log_line_per_request(server: str) -> None:
    call(server, "/healthz", headers={"X-Request-ID": "log-check-1"})
    deadline = time.monotonic() + 5
    mine: list[dict[str, Any]] = []
    while not mine and time.monotonic() < deadline:
        time.sleep(0.1)
        lines = [x for x in LOGS[server].read_text().splitlines() if x.startswith("{")]
        mine = [y for y in map(json.loads, lines) if y.get("request_id") == "log-check-1"]
    assert len(mine) == 1
    assert mine[0]["path"] == "/healthz" and mine[0]["status"] == 200
    assert mine[0]["method"] == "GET" and mine[0]["logger"] == "app.access"
    assert {"duration_ms", "ts", "level"} <= set(mine[0])
    # gunicorn's own lines ("Booting worker with pid …") format too: was "--- Logging error
    # ---" for each, when the app turned logging's process flag off in the preloading master
    text = LOGS[server].read_text()
    assert "Booting worker with pid" in text and "Logging error" not in text


MALFORMED_CHUNKS = {  # each read by gunicorn's chunked reader, which raises its own error
    "size not hex": b"zz\r\n{}\r\n0\r\n\r\n",
    "negative size": b"-1\r\n{}\r\n0\r\n\r\n",
    "data without its CRLF": b"2\r\n{}XX0\r\n\r\n",
    "bad extension": b"2;\x01\r\n{}\r\n0\r\n\r\n",
    "bad trailer": b"2\r\n{}\r\n0\r\n<x>: 1\r\n\r\n",
}


@pytest.mark.parametrize("chunks", list(MALFORMED_CHUNKS))
def test_a_malformed_chunked_body_is_a_400_not_a_500(server: str, chunks: str) -> None:
    """gunicorn's errors while the body is read went unhandled: 500 internal_error, a traceback
    logged (audit of 2026-11-29)."""
    host, port = server.removeprefix("http://").split(":")
    head = b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    with contextlib.closing(socket.create_connection((host, int(port)), timeout=10)) as s:
        s.sendall(head + b"Transfer-Encoding: chunked\r\n\r\n" + MALFORMED_CHUNKS[chunks])
        answer = b""
        with contextlib.suppress(TimeoutError, ConnectionResetError):
            while part := s.recv(65536):
                answer += part
    status_line, _, rest = answer.partition(b"\r\n")
    assert status_line.split()[1] == b"400", answer[:300]
    assert json.loads(rest.partition(b"\r\n\r\n")[2])["code"] == "malformed_body"


BODY_REFUSALS = {  # request bytes: the code of the app's refusal, after which it closes
    "over the limit": (
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 3000000\r\n\r\n{",
        "body_too_large",
    ),
    "malformed chunks": (
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
        "malformed_body",
    ),
}


@pytest.mark.parametrize("case", list(BODY_REFUSALS))
def test_a_refused_body_closes_the_connection_and_says_so(server: str, case: str) -> None:
    """The app refuses a body it did not read whole; the connection is then closed, and the
    answer said `Connection: keep-alive` (gunicorn drops the app's own Connection header).
    Now it says `close` (RFC 9112, 9.6), and nothing follows it."""
    request, code = BODY_REFUSALS[case]
    status, headers, rest = raw_answer(server, request)
    length = int(headers["content-length"])
    assert json.loads(rest[:length])["code"] == code and status in (400, 413)
    assert headers["connection"] == "close" and rest[length:] == b""


def test_an_answer_that_keeps_the_connection_says_keep_alive(server: str) -> None:
    """The control: a refusal that read its whole body keeps the connection open."""
    body = b'{"seats": 7, "seed": 1}'
    request = (
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    )
    host, port = server.removeprefix("http://").split(":")
    with contextlib.closing(socket.create_connection((host, int(port)), timeout=10)) as s:
        s.sendall(request)
        answer = http.client.HTTPResponse(s)
        answer.begin()
        assert answer.status == 422 and json.loads(answer.read())["code"] == "invalid_seat_count"
        assert answer.getheader("Connection") == "keep-alive"


def raw_answer(base: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are; the answer's status, headers (lower-cased) and body."""
    host, port = base.removeprefix("http://").split(":")
    with contextlib.closing(socket.create_connection((host, int(port)), timeout=10)) as s:
        s.sendall(request)
        answer = b""
        with contextlib.suppress(TimeoutError, ConnectionResetError):
            while part := s.recv(65536):
                answer += part
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, body


REFUSED_BY_GUNICORN = {  # request bytes: (status, code); each refused before the app runs
    "request line over 8190 bytes": (
        b"GET /healthz?" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        414,
        "request_line_too_long",
    ),
    "101 headers": (
        b"GET /healthz HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(101)) + b"\r\n",
        431,
        "headers_too_large",
    ),
    "a header over 8190 bytes": (
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n",
        431,
        "headers_too_large",
    ),
    "a header name with a space": (
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n",
        400,
        "malformed_request",
    ),
    "HTTP/9.9": (b"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n", 400, "malformed_request"),
    "not HTTP": (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400, "malformed_request"),
    "a transfer coding gunicorn cannot read": (
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: br\r\n\r\n",
        501,
        "unsupported_transfer_coding",
    ),
    "gzip before chunked, which gunicorn takes and does not decode": (
        b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        501,
        "unsupported_transfer_coding",
    ),
    "a transfer coding that does not end with chunked": (
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
        400,
        "malformed_request",
    ),
    "an expectation other than 100-continue": (
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: the-unexpected\r\n\r\n",
        417,
        "expectation_failed",
    ),
}


@pytest.mark.parametrize("case", list(REFUSED_BY_GUNICORN))
def test_a_request_gunicorn_refuses_is_answered_as_a_problem(server: str, case: str) -> None:
    """gunicorn answered these with its own HTML page (audit of 2026-11-29): now the
    referee's problem+json, with a code and what to send instead (app/server_errors.py)."""
    request, status, code = REFUSED_BY_GUNICORN[case]
    got, headers, body = raw_answer(server, request)
    assert got == status, body[:300]
    assert headers["content-type"] == "application/problem+json"
    assert headers["x-content-type-options"] == "nosniff"
    assert int(headers["content-length"]) == len(body)
    problem = json.loads(body)
    assert problem["code"] == code and problem["status"] == status
    assert not schema_errors("Problem", problem)
    assert "send" in problem["detail"] and len(problem["detail"]) <= 400


UNREAD_BODIES = {  # a GET's chunked body, malformed in its chunks or in its trailers
    "chunk size not hex": b"zz\r\n",
    "trailer name with a space": b"0\r\nBad Name: 1\r\n\r\n",
    "trailers with a bare LF": b"0\r\nX: a\nY: b\r\n\r\n",
}


@pytest.mark.parametrize("body", list(UNREAD_BODIES))
def test_a_malformed_body_the_app_left_unread_gets_no_second_answer(server: str, body: str) -> None:
    """gunicorn reads a body the app did not read (a GET's) when it parses the next request;
    a malformed one was answered a second time, 400 after the 200, which a proxy passing
    chunks on would take for the next request's answer (audit and review of 2026-11-29).
    Now one answer, then the connection is closed."""
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
    status, headers, rest = raw_answer(server, head + UNREAD_BODIES[body])
    length = int(headers["content-length"])
    assert status == 200 and json.loads(rest[:length]) == {"status": "ok"}
    assert rest[length:] == b""  # nothing after it


def test_an_unread_body_too_long_to_drain_closes_the_connection(server: str) -> None:
    """A GET announcing a body of 10^12 bytes, then sending them: gunicorn read all of it
    after the answer, holding the thread for as long as the client kept sending (audit of
    2026-11-29). Now at most 64 KiB are read, then the connection is closed."""
    host, port = server.removeprefix("http://").split(":")
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000\r\n\r\n"
    with contextlib.closing(socket.create_connection((host, int(port)), timeout=10)) as s:
        s.sendall(head)
        answer, sent, t0 = b"", 0, time.perf_counter()
        with contextlib.suppress(OSError):
            while sent < 50_000_000 and time.perf_counter() - t0 < 20:
                s.sendall(b"x" * 65536)
                sent += 65536
        assert sent < 5_000_000  # the server stopped reading, then closed
        with contextlib.suppress(OSError):
            while part := s.recv(65536):
                answer += part
    assert answer.startswith(b"HTTP/1.1 200")


def test_a_sync_worker_answers_its_refusals_as_problems_too(tmp_path: Path) -> None:
    """GUNICORN_WORKER_CLASS=sync runs app/server_errors.py's SyncWorker."""
    with (
        open(tmp_path / "log", "wb") as out,
        gunicorn({"WEB_CONCURRENCY": "1", "GUNICORN_WORKER_CLASS": "sync"}, log=out) as base,
    ):
        status, headers, body = raw_answer(base, b"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n")
    assert status == 400 and headers["content-type"] == "application/problem+json"
    assert json.loads(body)["code"] == "malformed_request"


def test_gunicorn_logs_a_refused_request_in_one_bounded_line(server: str) -> None:
    """A header line of 300,000 control characters (no colon) went whole into gunicorn's
    warning, each byte as 4 characters: one request, a 1.2 MB log line (audit of 2026-11-29)."""
    request = b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"\x01" * 300_000 + b"\r\n\r\n"
    before = LOGS[server].stat().st_size
    status, _, body = raw_answer(server, request)
    assert status in (400, 431)
    detail = json.loads(body)["detail"]  # what gunicorn found is cut, what to send is not
    assert "send" in detail and detail.endswith("CRLF (RFC 9112, 3 and 5).") and len(detail) < 400
    time.sleep(0.2)
    with open(LOGS[server], "rb") as f:
        f.seek(before)
        grown = f.read()
    assert b"Invalid request from ip=" in grown and len(grown) < 2_000
