"""What gunicorn's refusals are answered with (app/server_errors.py), exception by exception,
without a server: the client's faults each with their code, the server's own a 500."""

from __future__ import annotations

import json

import pytest
from gunicorn.http import errors as g
from http_support import schema_errors

from app.server_errors import INTERNAL, LIMITS, problem, refusal_for

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
