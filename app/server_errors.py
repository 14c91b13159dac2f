"""gunicorn's own refusals as problem+json, like every other error of the referee.

gunicorn answers some requests before the application sees them: a request line over
`limit_request_line`, more than `limit_request_fields` headers, a malformed request line,
header or HTTP version, an unknown transfer coding. It writes those answers with
`gunicorn.util.write_error`, a fixed HTML page, and has no setting for another body
(benoitc/gunicorn#993). `install()` (called by gunicorn.conf.py) replaces that one function
in the server's process, so a client gets the same shape as from the app: `type`, `title`,
`status`, `code`, `detail` (what gunicorn found, then what to send instead) and `pointer`.
The request's headers were not read, so the answer is in English.
"""

from __future__ import annotations

import socket
from typing import NamedTuple

import orjson
from gunicorn import util

from app.errors import TITLES, cut_detail
from app.i18n import translate
from app.jsonio import PROBLEM_JSON


class Refusal(NamedTuple):
    code: str
    instead: str  # what to send instead


def refusals(line: int, fields: int, field_size: int) -> dict[int, Refusal]:
    """What each status gunicorn answers means here, with the server's limits."""
    limits = f"at most {line} bytes of request line and {fields} headers of {field_size} bytes each"
    return {
        400: Refusal(
            "malformed_request",
            "send a request line `METHOD /path HTTP/1.1`, then headers `Name: value` with "
            "token names, each line ended by CRLF (RFC 9112, 3 and 5)",
        ),
        414: Refusal("request_line_too_long", f"send a shorter request line ({limits})"),
        417: Refusal("expectation_failed", "send no Expect header but `Expect: 100-continue`"),
        431: Refusal("headers_too_large", f"send fewer or shorter headers ({limits})"),
        501: Refusal(
            "unsupported_transfer_coding",
            "send the body with a Content-Length, or with `Transfer-Encoding: chunked` alone",
        ),
    }


INTERNAL = Refusal("internal_error", "try again; if it persists, report it")
OTHER = Refusal("http_error", "send a well-formed HTTP/1.1 request")  # no other status today
TITLES_EN = {status: translate(title, "en") for status, title in TITLES.items()} | {
    417: "Expectation failed",
    431: "Request header fields too large",
    414: "URI too long",
    501: "Not implemented",
}


def problem(refusals: dict[int, Refusal], status: int, found: str) -> bytes:
    """The whole HTTP answer to a request gunicorn refused with `status`; `found` is
    gunicorn's own description (it quotes the client's bytes, so it is cut)."""
    refusal = refusals.get(status, INTERNAL if status == 500 else OTHER)
    detail = f"{found.rstrip('.')}: {refusal.instead}." if found else f"{refusal.instead}."
    body = orjson.dumps(
        {
            "type": f"urn:card-referee:problem:{refusal.code}",
            "title": TITLES_EN.get(status, "Error"),
            "status": status,
            "code": refusal.code,
            "detail": cut_detail(detail[:1].upper() + detail[1:]),
            "pointer": "",
        }
    )
    head = (
        f"HTTP/1.1 {status} {TITLES_EN.get(status, 'Error')}\r\nConnection: close\r\n"
        f"Content-Type: {PROBLEM_JSON}\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def install(line: int, fields: int, field_size: int) -> None:
    """Replace gunicorn's HTML error page, in this process, by `problem`'s answer."""
    known = refusals(line, fields, field_size)

    def write_problem(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
        # gunicorn.util.write_error's signature; `reason` is the status's own phrase
        util.write_nonblock(sock, problem(known, status_int, mesg))

    util.write_error = write_problem
