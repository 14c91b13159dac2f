"""The page knows no game: Toy Match (tests/toygame/), a game registered only in this test's
server, is offered by /play and played to its end in a real browser (Playwright and Debian's
chromium, as tests/http/test_browser.py), its seats, cells and set-up choices read from
GET /v1/games, without a line of the page naming it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import toygame
from http_support import make_app
from playwright.sync_api import Browser, Page
from test_browser import (  # noqa: F401  (fixture: browser)
    WAIT_MS,
    browser,
    checked_page,
    finish,
    pytestmark,
    step,
    wait_turn,
)
from werkzeug.serving import make_server

from engine.registry import register_game, unregister_game

STATIC = Path(__file__).resolve().parents[2] / "app" / "static"


@pytest.fixture(scope="module")
def toy_server() -> Iterator[str]:
    """The referee with Toy Match registered, served from this process (the registry is the
    process's own) on a free loopback port."""
    register_game(toygame.INFO, toygame)
    server = make_server("127.0.0.1", 0, make_app(), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)
        unregister_game(toygame.GAME_ID)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:  # noqa: F811
    yield from checked_page(browser, viewport={"width": 1400, "height": 1000})


def test_the_page_names_no_game() -> None:
    for name in ("play.js", "review.js", "play.html"):
        text = (STATIC / name).read_text(encoding="utf-8")
        assert "architectura" not in text.lower() and "fora" not in text.lower(), name


def test_a_game_registered_in_the_server_is_played_in_the_browser(
    toy_server: str, page: Page
) -> None:
    page.goto(toy_server + "/play")
    page.wait_for_selector("body[data-phase=human]", timeout=WAIT_MS)
    offered = page.locator("#game option").all_inner_texts()
    assert "Toy Match" in offered and "Architectura" in offered
    page.select_option("#game", "toy-match")
    assert page.locator("#setup-choices select").count() == 0  # it has no set-up choice
    assert page.locator("#seats option").all_inner_texts() == ["2", "3", "4"]
    page.select_option("#seats", "3")
    assert page.locator("#seat-config b").all_inner_texts() == ["seat 0", "seat 1", "seat 2"]
    page.fill("#seed", "11")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "random")
    page.select_option("#seat-2", "greedy")
    before = step(page)
    page.click("#start")
    wait_turn(page, before)
    assert "Toy Match" in page.inner_text("#board")
    assert "TM-3" in page.inner_text("#status")
    moves = finish(page, (), 200)
    assert moves >= 1
    assert page.inner_text("#status").startswith("Game over")
    log = page.locator("#events li").all_inner_texts()
    assert any(e.startswith("seat 1 ") for e in log) and any(e.startswith("seat 2 ") for e in log)
    assert page.locator("#legend svg").count() == 1
