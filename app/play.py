"""GET /play: a page to play the registered games against the bots, and to replay a log.

The page (app/static/play.html, play.js, play.css; no build step) is a third-party client of
the public API like any other: it only calls /v1/* over HTTP. Its assets are served from this
service (Flask's static route) and its Content-Security-Policy forbids any other host.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from flask import Blueprint, Response
from flask.blueprints import BlueprintSetupState

bp = Blueprint("play", __name__)

PAGE = Path(__file__).resolve().parent / "static" / "play.html"
# Inline styles are allowed because the board SVG carries its own <style>; scripts only from
# this origin, so nothing a state contains can run.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)


@bp.get("/play")
def play() -> Response:
    """The play and replay page."""
    resp = Response(PAGE.read_bytes(), mimetype="text/html")
    resp.headers["Content-Security-Policy"] = CSP
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.record_once
def _static_pages_keep_the_policy(state: BlueprintSetupState) -> None:
    """The static route serves play.html too (/static/play.html): with the same policy as
    /play, or it could be framed and would run whatever a page it loads allows. The static
    view itself is wrapped, so that no other request pays for the check."""
    views = state.app.view_functions
    static = views["static"]

    def static_with_policy(filename: str) -> Response:
        resp = cast(Response, static(filename=filename))  # Flask's send_static_file
        if resp.mimetype == "text/html":
            resp.headers["Content-Security-Policy"] = CSP
        return resp

    views["static"] = static_with_policy
