"""The objects behind Flask's context proxies, for code that runs on every request.

An attribute read through a proxy (`current_app.config`, `request.environ`, `g.__dict__`)
costs about 1.3 µs (werkzeug's descriptor, a bound partial and the context variable, each
time); the object itself, fetched once with the proxy's `_get_current_object()`, answers in
about 0.2 µs. A sealed /v1/resolve read some seventeen of them (issue 10). Each function needs
the context its proxy needs (an application's, or a request's).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Request, current_app, g, request
from flask.config import Config


def app() -> Flask:
    return current_app._get_current_object()  # type: ignore[attr-defined,no-any-return]


def config() -> Config:
    return app().config


def req() -> Request:
    return request._get_current_object()  # type: ignore[attr-defined,no-any-return]


def environ() -> dict[str, Any]:
    return req().environ


def values() -> dict[str, Any]:
    """The attributes of Flask's `g` for this application context, as a dict."""
    return g._get_current_object().__dict__  # type: ignore[no-any-return]
