"""GET / (a landing page) and GET /docs (Swagger UI over /openapi.yaml).

Swagger UI's files come from the `flask-swagger-ui` package, which bundles the upstream
`swagger-ui-dist` build; this service serves them itself under /docs/assets/, so the page
fetches nothing from another host (its Content-Security-Policy says so too). Only the few
files the page names are served: the package's directory is not browsable.
"""

from __future__ import annotations

from importlib import metadata, resources
from pathlib import Path

from flask import Blueprint, Response, current_app

from app.errors import ApiError
from engine.games import GAMES
from engine.messages import msg

bp = Blueprint("docs", __name__)

DIST = Path(str(resources.files("flask_swagger_ui"))) / "dist"
SWAGGER_UI_VERSION = metadata.version("flask-swagger-ui")  # the bundled Swagger UI's version

# name -> mimetype: the files /docs needs, nothing else
ASSETS = {
    "swagger-ui.css": "text/css",
    "swagger-ui-bundle.js": "text/javascript",
    "favicon-32x32.png": "image/png",
}
INIT = "docs-init.js"  # ours: Swagger UI's start-up, a file so that no inline script runs

# Swagger UI styles some elements inline and draws its icons as data: images; scripts, the
# contract and everything else come only from this origin.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)

DOCS_PAGE = f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Referee API — swagger-ui</title>
  <meta name="generator" content="swagger-ui {SWAGGER_UI_VERSION}">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <p style="margin:8px 16px;font-family:sans-serif"><a href="/">← referee home</a></p>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/{INIT}"></script>
</body>
</html>
"""

# validatorUrl null: Swagger UI would otherwise send the contract to an online validator.
INIT_JS = """window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.yaml",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
});
"""

LANDING = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Card game referee</title>
  <style>
    body {{ font-family: sans-serif; max-width: 42em; margin: 2em auto; line-height: 1.5;
           padding: 0 1em; }}
    code {{ background: #f3f3f3; padding: 0 .2em; }}
  </style>
</head>
<body>
  <h1>Card game referee</h1>
  <p>A stateless HTTP referee for the card games <em>Architectura</em> and
  <em>Fora de Prumo</em>: send a game state and a decision, get the new state and what
  happened, each event citing its rule clause.</p>
  <ul>
    <li><a href="/docs">Interactive API documentation</a> (Swagger UI; try every request)</li>
    <li><a href="/openapi.yaml">The contract</a> (<code>openapi.yaml</code>, OpenAPI 3.1)</li>
    <li>The rules: any clause or ruling an error or event cites, e.g.
      <a href="/v1/rules/A-4.2"><code>/v1/rules/A-4.2</code></a>,
      <a href="/v1/rules/A-R3"><code>A-R3</code></a>,
      <a href="/v1/rules/F-5.2"><code>F-5.2</code></a>,
      <a href="/v1/rules/F-R14"><code>F-R14</code></a></li>
    {play}
    <li><a href="/v1/catalogs">The cards</a> (<code>/v1/catalogs?game={other}</code>
      for the other game)</li>
    <li><a href="/readyz">Readiness</a></li>
  </ul>
  <p>First steps: <code>curl -s localhost:8000/v1/games -H 'content-type: application/json'
  -d '{{"seats": 2, "seed": 42}}'</code>, then send a decision to <code>/v1/resolve</code>
  (see the README's walkthrough).</p>
</body>
</html>
"""


def _html(text: str) -> Response:
    resp = Response(text, mimetype="text/html")
    resp.headers["Content-Security-Policy"] = CSP
    return resp


@bp.get("/")
def landing() -> Response:
    """A page linking the docs, the contract, the rules and (when served) /play."""
    has_play = any(r.rule == "/play" for r in current_app.url_map.iter_rules())
    play = (
        '<li><a href="/play">Play against the bots</a> and replay a decision log</li>'
        if has_play
        else ""
    )
    return _html(LANDING.format(play=play, other=GAMES[-1]))


@bp.get("/docs")
def docs() -> Response:
    """Swagger UI over this service's contract."""
    return _html(DOCS_PAGE)


@bp.get("/docs/assets/<name>")
def asset(name: str) -> Response:
    """One of the files the /docs page loads."""
    if name == INIT:
        resp = Response(INIT_JS, mimetype="text/javascript")
    elif name in ASSETS:
        resp = Response((DIST / name).read_bytes(), mimetype=ASSETS[name])
    else:
        raise ApiError(
            404, "not_found", msg("No documentation asset {name}.", name=repr(name[:80])), ""
        )
    resp.headers["Cache-Control"] = "public, max-age=86400"
    return resp
