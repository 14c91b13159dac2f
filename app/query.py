"""Query strings read as strictly as bodies (docs/http.md): an endpoint declares the query
parameters it reads (`@reads_query("game")`); any other, or one given twice, is a 400
`invalid_request` naming it, as an unknown or duplicate field of a body is. Before, a
misspelt `?gmae=` was ignored and the default game answered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask

from app import current
from app.errors import ApiError, escape_token
from app.schemas import unknown_field
from engine.messages import msg

F = TypeVar("F", bound=Callable[..., Any])
ATTRIBUTE = "query_keys"


def reads_query(*keys: str) -> Callable[[F], F]:
    """Declare the query parameters a view reads."""

    def mark(view: F) -> F:
        setattr(view, ATTRIBUTE, frozenset(keys))
        return view

    return mark


def query_problems(args: Any, known: frozenset[str]) -> list[dict[str, Any]]:
    """One problem per query parameter `known` does not name or that is given more than once."""
    problems: list[dict[str, Any]] = []
    for key in args:
        count, pointer = len(args.getlist(key)), "/" + escape_token(key)
        if key not in known:
            detail = (
                unknown_field(key, known)
                if known
                else msg("This request takes no query parameters.")
            )
            problems.append({"code": "unknown_field", "detail": detail, "pointer": pointer})
        elif count > 1:
            detail = msg(
                "The query parameter {key} is given {count} times; give it once.",
                key=repr(key),
                count=count,
            )
            problems.append({"code": "invalid_field", "detail": detail, "pointer": pointer})
    return problems


def install_query_check(app: Flask) -> None:
    @app.before_request
    def _check_query() -> None:
        req = current.req()
        if not req.query_string or not req.path.startswith("/v1/"):
            return  # the common case: one test of an empty bytes object
        view = app.view_functions.get(req.endpoint or "")
        if view is None:  # no route: the 404 or 405 says so
            return
        problems = query_problems(req.args, getattr(view, ATTRIBUTE, frozenset()))
        if problems:
            # one problem says itself (a parameter read but given twice is not "unread")
            detail = (
                problems[0]["detail"]
                if len(problems) == 1
                else msg("The query string names parameters this request does not read.")
            )
            raise ApiError(
                400, "invalid_request", detail, problems[0]["pointer"], problems=problems
            )
