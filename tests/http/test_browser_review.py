"""The game review on /play in a real browser (app/static/review.js; Playwright and Debian's
chromium against gunicorn, as tests/http/test_browser.py): a short game played by clicking,
then "Review" shows the win-chance chart and a verdict for every reviewed decision, marks the
mistakes in the event list, and a decision clicked shows its best alternative on a board; the
replay tab reviews a pasted log the same way; a Portuguese browser sees the review in
Portuguese (the words of app/static/play-text.json), and the language picker rewrites it."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page
from test_browser import (  # noqa: F401  (fixtures: server, browser, page)
    WAIT_MS,
    browser,
    catalog_names,
    english_patterns,
    english_words,
    finish,
    page,
    pytestmark,
    server,
    start,
)

VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")  # in English


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


def review_texts(pg: Page) -> list[str]:
    """The review panel's own words, line by line (hidden ones too): heading, explanation,
    status, the seats' accuracy, each decision and verdict, the chart's label and dot titles,
    the best alternative's sentence, and the verdicts marked in the event list."""
    return list(
        pg.evaluate(
            """() => Array.from(document.querySelectorAll(
                 '#review h2, #review > p, #review-seats, #review-decisions li, .verdict,'
                 + ' #review-chart title, #review-alt-text'), (e) => e.textContent)
               .concat([document.querySelector('#review-chart').getAttribute('aria-label')])"""
        )
    )


def test_a_portuguese_browser_sees_the_review_in_portuguese_then_in_english(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    """With a pt-BR browser the review panel shows no English text or word of the page's table
    (the check of test_browser.py's pt-BR test); the picker writes it again in English, the
    mistakes marked in the event list still on the decisions that made them."""
    context = browser.new_context(locale="pt-BR", viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        start(pg, server, "architectura", "random", 3)
        assert pg.input_value("#lang") == "pt"
        finish(pg, (), 40)
        pg.click("#review-game")
        rows, _ = reviewed(pg)
        assert rows >= 1
        pg.locator("#review-decisions li.reviewed").first.click()
        pg.wait_for_selector("#review-alt-board svg", timeout=WAIT_MS)
        marked = pg.evaluate(MARKED_EVENTS)
        assert marked, "the game has mistakes marked in its events"
        lines = review_texts(pg)
        assert "Revisão da partida" in lines and "precisão" in pg.inner_text("#review-seats")
        patterns = english_patterns()
        english = [(p.pattern, line) for line in lines for p in patterns if p.search(line)]
        assert english == [], english
        left = english_words(catalog_names(server, "architectura"))
        found = {w for line in lines for w in re.findall(r"[A-Za-z]{4,}", line)} & left
        assert found == set(), found
        # English at once: the panel, the verdicts, the alternative shown, the marks kept
        pg.select_option("#lang", "en")
        for written in (
            '#review h2:text-is("Game review")',
            '#review-seats:has-text("accuracy")',
            '#review-alt-text:text-matches("^Decision .* best")',
        ):
            pg.wait_for_selector(written, timeout=WAIT_MS)
        verdicts = pg.locator("#review-decisions li.reviewed .verdict")
        assert set(verdicts.all_inner_texts()) <= set(VERDICTS)
        assert pg.evaluate(MARKED_EVENTS) == marked
    finally:
        context.close()
    assert errors == []


# each event item marked with a verdict: (the decision that made it, the verdict)
MARKED_EVENTS = """() => Array.from(document.querySelectorAll('#events li .verdict'),
    (b) => [b.closest('li').dataset.decision, b.dataset.verdict])"""
