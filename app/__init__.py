"""The stateless HTTP referee for the registered card games (docs/http.md, openapi.yaml).

`create_app()` is the application factory gunicorn serves (`gunicorn "app:create_app()"`).
No game is stored server-side: every request carries the full state. The app only translates
HTTP to engine calls and back; the rules live in `engine/`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from logging import getLogger  # (`logging` in this package is app.logging)
from typing import Any

from flask import Flask, Response
from werkzeug.routing import Map

from app import i18n, seal
from app.body_timeout import install_body_timeout
from app.compression import install_compression
from app.errors import register_error_handlers
from app.jsonio import json_response
from app.limits import install_cors, install_rate_limit
from app.logging import configure_logging, install_request_logging
from app.metrics import install_metrics
from app.query import install_query_check
from app.settings import config_from_env
from engine.compiled import build_of
from engine.games import all_engines

ReadinessCheck = Callable[[], tuple[str, bool, str]]


def critical(check: ReadinessCheck) -> ReadinessCheck:
    """Mark a readiness check whose failure makes the service unready (503). Unmarked checks
    (an optional cache, say) only turn the status to "degraded" and keep 200."""
    check.critical = True  # type: ignore[attr-defined]
    return check


@critical
def _engine_check() -> tuple[str, bool, str]:
    try:
        names = [f"{gid}/{c}" for gid, eng in all_engines().items() for c in eng.builtin_catalogs()]
    except Exception as e:  # readiness reports, it never raises
        return "engine", False, f"the built-in catalogs do not load: {e}"
    return "engine", True, f"catalogs: {', '.join(sorted(names))}"


def engine_builds() -> dict[str, str]:
    """Which build of each game's engine runs, "compiled" or "pure" (docs/compiled.md), as
    read from the modules actually imported (engine/compiled.py)."""
    return {gid: build_of(getattr(eng, "__name__", "")) for gid, eng in all_engines().items()}


OPENAPI_PATH = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "openapi.yaml"
)


def openapi_text() -> str:
    """The contract served at /openapi.yaml (the repository's openapi.yaml)."""
    with open(OPENAPI_PATH, encoding="utf-8") as f:
        return f.read()


def _register_blueprints(app: Flask) -> None:
    """Every endpoint's blueprint (imported here: they import this package's settings)."""
    from app.bots import bp as bots_bp
    from app.docs import bp as docs_bp
    from app.jobs import bp as jobs_bp
    from app.play import bp as play_bp
    from app.record import bp as record_bp
    from app.render.http import bp as render_bp
    from app.review import bp as review_bp
    from app.routes import bp as v1_bp
    from app.rules import bp as rules_bp
    from app.suggest import bp as suggest_bp

    app.register_blueprint(v1_bp)
    app.register_blueprint(suggest_bp, url_prefix="/v1")
    app.register_blueprint(jobs_bp, url_prefix="/v1")
    app.register_blueprint(render_bp)
    app.register_blueprint(play_bp)
    app.register_blueprint(docs_bp)
    app.register_blueprint(rules_bp)
    app.register_blueprint(record_bp)
    app.register_blueprint(review_bp)
    app.register_blueprint(bots_bp)


# Flask asks `ensure_sync` of every hook, view and error handler on every request; its answer
# (the function itself, unless it is a coroutine function) never changes for a function.
SYNC_REMEMBERED = 1024  # functions whose answer is kept (the app's hooks and views: a few dozen)


class ExactPaths(Map):
    """werkzeug's URL map, without merging repeated slashes: `/v1//rules` was a 308 HTML
    redirect to a URL built from the client's Host header, outside the error handlers (audit
    of 2026-11-29); it is a 404 problem now, as any other unknown path."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("merge_slashes", False)
        super().__init__(*args, **kwargs)


class Referee(Flask):
    """Flask, with each function's `ensure_sync` answer remembered: the `inspect` check behind
    it ran about eight times a request (issue 19: about 1 % of a /v1/resolve)."""

    url_map_class = ExactPaths

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        try:
            known = self._sync.get(func)
        except TypeError:  # an unhashable callable: asked each time
            return super().ensure_sync(func)
        if known is None:
            known = super().ensure_sync(func)
            if len(self._sync) < SYNC_REMEMBERED:
                self._sync[func] = known
        return known


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the referee. Settings come from the environment, then `config` overrides them."""
    app = Referee(__name__)
    for eng in all_engines().values():
        eng.builtin_catalogs()  # parsed once here: with preload_app, before gunicorn forks
    app.config.update(config_from_env())
    if config:
        app.config.update(config)
    configure_logging(str(app.config["LOG_LEVEL"]))
    builds = engine_builds()
    getLogger("app").info(
        "engine: %s", ", ".join(f"{g} {b}" for g, b in builds.items()), extra={"fields": builds}
    )
    app.extensions["readiness_checks"] = [_engine_check]
    install_compression(app)  # first: its hook runs after every other
    seal.init_app(app)
    install_request_logging(app)
    i18n.init_app(app)  # after the access log: Flask runs after_request hooks last first
    register_error_handlers(app)
    install_body_timeout(app)
    install_metrics(app)
    install_cors(app)
    install_rate_limit(app)
    install_query_check(app)

    _register_blueprints(app)

    @app.after_request
    def _nosniff(response: Response) -> Response:
        """Every answer is read as the media type it says it is (an SVG or a problem is never
        sniffed into HTML by a browser)."""
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    @app.get("/healthz")
    def healthz() -> Response:
        """Liveness: the process answers."""
        return json_response({"status": "ok"})

    @app.get("/readyz")
    def readyz() -> Response:
        """Readiness: every registered check; a degraded optional dependency (the cache) is
        reported but does not make the service unready."""
        checks: dict[str, dict[str, Any]] = {}
        unready = False
        for check in app.extensions["readiness_checks"]:
            try:
                name, ok, detail = check()
            except Exception as e:  # a broken check is reported, never a 500
                name = getattr(check, "__name__", "check")
                getLogger("app").warning("readiness check %s raised", name, exc_info=True)
                ok, detail = False, f"the check raised {type(e).__name__}"  # text: in the log
            checks[str(name)] = {"ok": bool(ok), "detail": str(detail)}
            unready = unready or (not ok and getattr(check, "critical", False))
        engines = engine_builds()
        if unready:
            return json_response({"status": "unready", "checks": checks, "engines": engines}, 503)
        status = "ready" if all(c["ok"] for c in checks.values()) else "degraded"
        return json_response({"status": status, "checks": checks, "engines": engines})

    text = openapi_text()

    @app.get("/openapi.yaml")
    def openapi() -> Response:
        """The API contract."""
        return Response(text, mimetype="application/yaml")

    return app
