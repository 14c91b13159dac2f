"""GET /play: a page to play the registered games against the bots, and to replay a log.

The page (app/static/play.html, play.js, play.css; no build step) is a third-party client of
the public API like any other: it only calls /v1/* over HTTP. Its assets are served from this
service (Flask's static route) and its Content-Security-Policy forbids any other host.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, request

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


@bp.after_app_request
def _static_pages_keep_the_policy(resp: Response) -> Response:
    """The static route serves play.html too (/static/play.html): with the same policy as
    /play, or it could be framed and would run whatever a page it loads allows."""
    if request.endpoint == "static" and resp.mimetype == "text/html":
        resp.headers["Content-Security-Policy"] = CSP
    return resp
