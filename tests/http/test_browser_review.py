"""The game review on /play in a real browser (app/static/review.js; Playwright and Debian's
chromium against gunicorn, as tests/http/test_browser.py): a short game played by clicking,
then "Review" shows the win-chance chart and a verdict for every reviewed decision, marks the
mistakes in the event list, and a decision clicked shows its best alternative on a board; the
replay tab reviews a pasted log the same way."""

from __future__ import annotations

from playwright.sync_api import Page
from test_browser import (  # noqa: F401  (fixtures: server, browser, page)
    WAIT_MS,
    browser,
    finish,
    page,
    pytestmark,
    server,
    start,
)


def reviewed(pg: Page) -> tuple[int, int]:
    """(reviewed decisions listed, verdict badges among them) once the review is shown."""
    pg.wait_for_selector("body[data-review=done]", timeout=WAIT_MS)
    rows = pg.locator("#review-decisions li.reviewed")
    return rows.count(), pg.locator("#review-decisions li.reviewed .verdict").count()


def test_a_game_played_then_reviewed_shows_the_chart_and_every_verdict(
    server: str,  # noqa: F811
    page: Page,  # noqa: F811
) -> None:
    start(page, server, "architectura", "random", 3)
    assert not page.is_visible("#review-game")  # offered once the game is over
    finish(page, (), 40)
    page.click("#review-game")
    rows, badges = reviewed(page)
    assert rows >= 1 and badges == rows  # a verdict per reviewed decision
    assert page.locator("#review-chart polyline").count() == 2  # one line per seat
    assert page.locator("#review-chart circle").count() == rows
    assert "accuracy" in page.inner_text("#review-seats")
    marked = page.locator("#review-decisions li.reviewed .verdict").all_inner_texts()
    in_events = page.locator("#events li .verdict").count()
    assert in_events == sum(v in ("inaccuracy", "mistake", "blunder") for v in marked)
    # a decision clicked: its best alternative on a board of its own
    page.locator("#review-decisions li.reviewed").first.click()
    page.wait_for_selector("#review-alt-board svg", timeout=WAIT_MS)
    assert "best" in page.inner_text("#review-alt-text")
    # the replay tab reviews the log of the same game: the same verdicts
    page.click("#tab-replay")
    page.click("#log-from-game")
    page.click("#log-load")
    page.wait_for_selector("#replay-verdict.ok", timeout=WAIT_MS)
    page.click("#review-log")
    again = reviewed(page)
    assert again == (rows, badges)
    assert page.locator("#review-decisions li.reviewed .verdict").all_inner_texts() == marked
