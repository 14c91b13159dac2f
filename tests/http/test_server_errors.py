"""What gunicorn's refusals are answered with (app/server_errors.py), exception by exception,
without a server: the client's faults each with their code, the server's own a 500."""

from __future__ import annotations

import json
import socket

import pytest
from gunicorn.http import errors as g
from http_support import schema_errors

from app.server_errors import INTERNAL, LIMITS, ProblemAnswers, problem, refusal_for

CASES = [
    (g.InvalidRequestLine("x"), 400, "malformed_request"),
    (g.InvalidRequestMethod("x"), 400, "malformed_request"),
    (g.InvalidHTTPVersion("x"), 400, "malformed_request"),
    (g.InvalidHeader("x"), 400, "malformed_request"),
    (g.InvalidHeaderName("x"), 400, "malformed_request"),
    (g.ObsoleteFolding("x"), 400, "malformed_request"),
    (g.InvalidChunkSize(b"zz"), 400, "malformed_request"),
    (g.LimitRequestLine(9000, 8190), 414, "request_line_too_long"),
    (g.LimitRequestHeaders("x"), 431, "headers_too_large"),
    (g.UnsupportedTransferCoding("br"), 501, "unsupported_transfer_coding"),
    (g.ExpectationFailed("x"), 417, "expectation_failed"),
    # the server's own faults: a header the app sent, gunicorn's settings; anything else
    (g.InvalidResponseHeader("x"), 500, "internal_error"),
    (g.InvalidResponseHeaderName("x"), 500, "internal_error"),
    (g.ConfigurationProblem("x"), 500, "internal_error"),
    (ValueError("x"), 500, "internal_error"),
]


@pytest.mark.parametrize("exc, status, code", CASES, ids=lambda v: type(v).__name__)
def test_each_refusal_has_its_status_and_code(exc: Exception, status: int, code: str) -> None:
    refusal = refusal_for(exc)
    assert (refusal.status, refusal.code) == (status, code)
    assert (refusal is INTERNAL) == (status == 500)


def test_an_answer_is_a_problem_whose_advice_is_never_cut() -> None:
    limits = LIMITS.format(line=8190, fields=100, size=8190)
    answer = problem(refusal_for(g.InvalidHeader("\x01" * 100_000)), "\x01" * 100_000, limits)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 Bad request\r\n") and b"Connection: close" in head
    assert f"Content-Length: {len(body)}".encode() in head
    found = json.loads(body)
    assert not schema_errors("Problem", found) and len(found["detail"]) < 400
    assert found["detail"].endswith("each line ended by CRLF (RFC 9112, 3 and 5).")


class _Log:
    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def exception(self, fmt: str, *args: object) -> None:
        self.lines.append(("exception", fmt % args))

    def warning(self, fmt: str, *args: object) -> None:
        self.lines.append(("warning", fmt % args))

    def debug(self, fmt: str, *args: object) -> None:
        self.lines.append(("debug", fmt % args))


class _Cfg:
    limit_request_line, limit_request_fields, limit_request_field_size = 8190, 100, 8190


class _Req:
    method, uri = "GET", "/x\u2028y" + "z" * 1000


def _answered(exc: BaseException, req: object = None) -> tuple[bytes, list[tuple[str, str]]]:
    worker = ProblemAnswers()
    worker.cfg, worker.log = _Cfg(), _Log()
    ours, theirs = socket.socketpair()
    with ours, theirs:
        worker.handle_error(req, ours, ("10.0.0.1", 5), exc)
        ours.close()
        answer = theirs.recv(1 << 20)
    return answer, worker.log.lines


def test_a_server_fault_is_a_500_logged_with_the_request_on_one_line() -> None:
    answer, log = _answered(g.InvalidResponseHeader("x"), _Req())
    assert answer.startswith(b"HTTP/1.1 500 ") and b'"code":"internal_error"' in answer
    ((kind, line),) = log
    assert kind == "exception" and line.startswith("Error handling request 'GET /x\\u2028y")
    assert len(line.splitlines()) == 1 and len(line) < 260


def test_a_client_fault_is_logged_as_a_warning_naming_its_address() -> None:
    answer, log = _answered(g.InvalidHTTPVersion("HTTP/9.9"))
    assert answer.startswith(b"HTTP/1.1 400 ") and b'"code":"malformed_request"' in answer
    assert log == [
        ("warning", "Invalid request from ip=10.0.0.1: \"Invalid HTTP Version: 'HTTP/9.9'\"")
    ]
