"""The buffering proxy's own refusals (deploy/nginx.conf, compose.yaml) are problems in the
referee's shape: each status nginx answers itself goes to an internal location whose body
is a Problem of the contract, with its status, a code of the ErrorCode enum and a sentence
saying what to send instead. (Read from the file: nginx is not part of the test machine;
each answer was also seen from a real nginx 1.22 in front of gunicorn, docs/http.md.)"""

from __future__ import annotations

import json
import re

from http_support import ROOT, schema_errors

CONF = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
ERROR_PAGES = re.findall(r"^\s*error_page ([0-9 ]+?) (?:= )?(/_problem/\w+);", CONF, re.M)
LOCATIONS = dict(
    re.findall(
        r"location = (/_problem/\w+) \{\s*internal;\s*default_type application/problem\+json;"
        r"\s*add_header X-Content-Type-Options nosniff always;\s*(?:add_header [^;]*;\s*)?"
        r"return (\d+ '[^']*');",
        CONF,
    )
)
# what nginx may answer itself here: a bad request, a header too large (its 494), a body or
# request line too long, too many connections (limit_conn_status), the referee down or too
# slow, an HTTP version it does not read, a path it refuses (/metrics, /readyz), a method it refuses
# (TRACE), a transfer coding it does not decode (a client too slow gets no answer: 408 is
# never sent, reset_timedout_connection)
NGINX_OWN = {400, 404, 405, 413, 414, 429, 494, 501, 502, 504, 505}


def test_every_status_nginx_answers_itself_has_a_problem() -> None:
    covered = {int(code) for codes, _ in ERROR_PAGES for code in codes.split()}
    assert covered == NGINX_OWN
    assert {uri for _, uri in ERROR_PAGES} == set(LOCATIONS)
    assert re.search(r"^\s*limit_conn_status 429;", CONF, re.M)
    assert "proxy_intercept_errors on" not in CONF  # the referee's own answers pass as they are


def test_each_problem_is_a_problem_of_the_contract() -> None:
    assert len(LOCATIONS) == 10
    for uri, answer in LOCATIONS.items():
        status, _, body = answer.partition(" ")
        problem = json.loads(body.strip("'"))
        assert not schema_errors("Problem", problem), uri
        assert problem["status"] == int(status), uri
        named = {"/_problem/http_version": "malformed_request"}.get(uri, uri.rsplit("/", 1)[1])
        assert problem["code"] == named, uri
        assert problem["type"] == f"urn:card-referee:problem:{problem['code']}"
        assert "send" in problem["detail"].partition(": ")[2], uri


def test_too_many_connections_say_when_to_come_back() -> None:
    """The contract's 429 carries Retry-After (audit of 2026-11-29: the proxy's had none)."""
    block = CONF[CONF.index("location = /_problem/rate_limited") :].split("}", 1)[0]
    assert "add_header Retry-After 1 always;" in block


def test_the_limits_the_refusals_name_are_the_configured_ones() -> None:
    """Each detail names a limit of this file: it says what to send instead."""

    def detail(name: str) -> str:
        return str(json.loads(LOCATIONS[f"/_problem/{name}"].split(" ", 1)[1].strip("'"))["detail"])

    def setting(name: str) -> str:
        found = re.search(rf"^\s*{name} ([^;]+);", CONF, re.M)
        assert found, name
        return found.group(1)

    assert setting("limit_conn per_client") == "32" and "32 connections" in detail("rate_limited")
    assert setting("client_max_body_size") == "2m" and "(2 MiB)" in detail("body_too_large")
    assert setting("large_client_header_buffers") == "4 8k"
    assert "(8 KiB)" in detail("request_line_too_long") and "(8 KiB)" in detail("headers_too_large")


def test_searches_go_one_at_a_time_an_address_and_readiness_stays_inside() -> None:
    """Deployment audit of 2026-11-30: one address running four long suggestions at once left
    another client's 9 in 10 answered `suggest_busy`, and /readyz (workers, queue depth,
    models, engines) was public through the proxy. A search location with its own limit_conn
    or error_page would inherit none of the server's: it names both limits, no error page."""
    block = CONF[CONF.index("location ~ ^/v1/(suggest|review)$") :].split("}", 1)[0]
    assert "limit_conn searching 1;" in block and "limit_conn per_client 32;" in block
    assert "error_page" not in block
    assert re.search(r"location = /readyz \{\s*return 404;\s*\}", CONF)
    assert (
        "a search running"
        in json.loads(LOCATIONS["/_problem/rate_limited"][4:].strip("'"))["detail"]
    )
