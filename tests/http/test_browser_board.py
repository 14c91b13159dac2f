"""/play's board in Chromium: the last move marked, the legend of each game, and a phone-sized
screen (390 px) where the board's text stays readable and its targets finger-sized.

Reuses tests/http/test_browser.py's server, browser and helpers (Debian's chromium)."""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_browser as tb
from playwright.sync_api import Browser, Page
from test_browser import WAIT_MS, start, step, wait_turn

pytestmark = tb.pytestmark
server = tb.server  # the same fixtures: gunicorn, and Debian's chromium
browser = tb.browser
shots = tb.shots  # docs/ with UPDATE_SCREENSHOTS=1 (the README shows them)

LEGEND_ROWS = {"architectura": 11, "fora-de-prumo": 16}


@pytest.fixture
def small(browser: Browser) -> Iterator[Page]:
    yield from tb.checked_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True)


@pytest.fixture
def wide(browser: Browser) -> Iterator[Page]:
    pg = browser.new_page(viewport={"width": 1400, "height": 1000})
    yield pg
    pg.close()


def bot_moved(page: Page) -> bool:
    return any(
        e.startswith("seat 1") or "(seat 1)" in e
        for e in page.locator("#events li").all_inner_texts()
    )


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_the_board_marks_the_bots_last_move_and_has_a_legend(
    server: str,
    wide: Page,
    game: str,
) -> None:
    start(wide, server, game, "greedy", 5)
    legend = wide.locator("#legend svg .legend-item")
    legend.first.wait_for(state="attached", timeout=WAIT_MS)
    assert legend.count() == LEGEND_ROWS[game]
    for _ in range(6):  # my decisions (first option listed) until the bot has answered
        before = step(wide)
        wide.locator("#options button").first.click()
        wide.click("#confirm")
        wait_turn(wide, before)
        if bot_moved(wide) or wide.get_attribute("body", "data-phase") == "over":
            break
    assert bot_moved(wide)
    marks = wide.locator("#board svg .last-move")
    assert marks.count() >= 1, "the bot's last decisions are marked"
    names = set(
        wide.evaluate(
            "Array.from(document.querySelectorAll('#board .last-move'), (e) => e.getAttribute('data-card') || e.getAttribute('data-cell'))"
        )
    )
    assert names and None not in names


def text_heights(page: Page, selector: str) -> list[float]:
    return list(
        page.evaluate(
            f"Array.from(document.querySelectorAll({selector!r}), (e) => e.getBoundingClientRect().height).filter((h) => h > 0)"
        )
    )


def target_sizes(page: Page) -> list[float]:
    sel = "#board .cell, #board .grid-cell, #board .hand-card, #board .market-card, #board .space"
    return list(
        page.evaluate(
            f"Array.from(document.querySelectorAll({sel!r}), (e) => {{ const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); }})"
        )
    )


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_at_390_px_the_board_is_readable_and_tappable(
    server: str,
    small: Page,
    game: str,
    shots: Path,
) -> None:
    start(small, server, game, "greedy", 5)
    assert small.evaluate("window.innerWidth") == 390
    heights = text_heights(small, "#board svg text")
    assert len(heights) > 20
    median = statistics.median(heights)
    assert median >= 9, f"median text height {median:.1f} px"
    sizes = target_sizes(small)
    assert sizes and min(sizes) >= 32, f"smallest target {min(sizes):.1f} px"
    # the page never scrolls sideways; Architectura's city scrolls inside the board's box, and
    # Fora de Prumo's seats go one a row (the render's columns), so its board fits the screen
    assert small.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    if game == "fora-de-prumo":
        box = small.evaluate(
            "(() => { const b = $('board'); return [b.scrollWidth, b.clientWidth]; })()"
        )
        assert box[0] <= box[1] + 1, f"the board is {box[0]} px wide in a box of {box[1]} px"
        panels = small.locator("#board svg .seat")
        assert panels.count() == 2
        first, second = panels.nth(0).bounding_box(), panels.nth(1).bounding_box()
        assert first and second and second["y"] >= first["y"] + first["height"] - 1  # one a row
    legend = text_heights(small, "#legend svg text")
    assert legend and statistics.median(legend) >= 9
    small.screenshot(path=str(shots / f"play-{game}-390.png"))
