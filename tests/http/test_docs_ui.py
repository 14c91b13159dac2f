"""GET / and GET /docs: Swagger UI served with every asset from this service.

The page's asset URLs are read from its HTML and each is fetched from the app; a headless
Chromium then loads /docs from gunicorn and records every request the page makes: all go to
the same origin and the operations of the contract are drawn.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from http_support import spec

from benchmarks.local import gunicorn

CHROMIUM = "/usr/bin/chromium"


def _asset_urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="([^"]+)"', html)


def test_docs_page_names_swagger_ui_and_every_asset_is_served_here(client: Any) -> None:
    r = client.get("/docs")
    assert r.status_code == 200 and r.mimetype == "text/html"
    html = r.get_data(as_text=True)
    assert "swagger-ui" in html
    urls = [u for u in _asset_urls(html) if u != "/"]
    assert any(u.endswith(".js") for u in urls) and any(u.endswith(".css") for u in urls)
    for url in urls:
        parts = urlsplit(url)
        assert not parts.scheme and not parts.netloc, f"{url} is on another host"
        a = client.get(url)
        assert a.status_code == 200, url
        assert len(a.data) > 0
    assert "default-src 'self'" in r.headers["Content-Security-Policy"]
    # Swagger UI reads the contract from this service, and never posts it to a validator
    init = client.get("/docs/assets/docs-init.js").get_data(as_text=True)
    assert '"/openapi.yaml"' in init and "validatorUrl: null" in init


def test_the_bundle_is_swagger_ui(client: Any) -> None:
    js = client.get("/docs/assets/swagger-ui-bundle.js")
    assert js.mimetype == "text/javascript" and b"SwaggerUIBundle" in js.data
    css = client.get("/docs/assets/swagger-ui.css")
    assert css.mimetype == "text/css" and b".swagger-ui" in css.data


@pytest.mark.parametrize("name", ["index.html", "..%2Fflask_swagger_ui.py", "oauth2-redirect.html"])
def test_other_files_of_the_package_are_not_served(client: Any, name: str) -> None:
    r = client.get(f"/docs/assets/{name}")
    assert r.status_code == 404
    assert r.get_json()["code"] == "not_found"


def test_landing_page_links_docs_contract_rules_and_play(client: Any) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.mimetype == "text/html"
    links = _asset_urls(r.get_data(as_text=True))
    for needed in ("/docs", "/openapi.yaml", "/v1/rules/A-4.2", "/play"):
        assert needed in links
    for link in links:  # every link of the page answers
        assert client.get(link).status_code == 200, link


# -- in a browser -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with gunicorn(env={"WEB_CONCURRENCY": "1", "LOG_LEVEL": "WARNING"}) as url:
        yield url


@pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"Debian's chromium is not installed at {CHROMIUM} (scripts/setup.sh --dev)",
)
def test_swagger_ui_draws_every_operation_from_this_origin_only(base: str) -> None:
    from playwright.sync_api import sync_playwright
    from test_browser import FLAGS

    requested: list[str] = []
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page()
        page.on("request", lambda req: requested.append(req.url))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "/docs")
        page.wait_for_selector(".opblock", timeout=60_000)
        drawn = page.locator(".opblock").count()
        browser.close()
    operations = sum(
        1 for ops in spec()["paths"].values() for m in ops if m in ("get", "post", "put", "delete")
    )
    assert drawn == operations
    assert errors == []
    assert base + "/openapi.yaml" in requested
    foreign = [u for u in requested if not u.startswith(base + "/") and not u.startswith("data:")]
    assert foreign == []
