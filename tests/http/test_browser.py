"""The /play page in a real browser: Playwright driving Debian's chromium against gunicorn.

For each game: load /play, start a 2-seat game against a bot, make a legal move by clicking
the board, see the bot answer and the board change, play on to the end of the game, with no
console error. Architectura's game is then stepped through in the replay tab.

Chromium comes from Debian (`scripts/setup.sh --dev` installs it with apt-get; a browser
downloaded by Playwright does not run on these machines). Screenshots go to a temporary
directory, or to docs/ with UPDATE_SCREENSHOTS=1 (the README shows those).
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from ai.redis_server import RedisServer
from benchmarks.local import ROOT, gunicorn

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps calling Google's hosts, which this
# machine's closed network refuses; a fresh profile per launch (Playwright's default).
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 60_000  # a bot's answer on a loaded 2-core machine, with margin

pytestmark = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"Debian's chromium is not installed at {CHROMIUM} and could not be installed "
    "(scripts/setup.sh --dev runs apt-get install chromium); the browser tests need it",
)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with gunicorn(env={"WEB_CONCURRENCY": "2", "LOG_LEVEL": "WARNING"}) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    yield from checked_page(browser, viewport={"width": 1400, "height": 1000})


def checked_page(browser: Browser, **options: Any) -> Iterator[Page]:
    """A new page (Playwright's `new_page` options) that must end with no console error."""
    pg = browser.new_page(**options)
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    pg.close()
    assert errors == [], f"console errors: {errors}"


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    return ROOT / "docs" if os.environ.get("UPDATE_SCREENSHOTS") == "1" else tmp_path


def start(page: Page, base: str, game: str, bot: str, seed: int) -> None:
    page.goto(base + "/play")
    page.wait_for_selector("#board svg", timeout=10_000)  # a board within a few seconds
    page.wait_for_selector("body[data-phase=human]", timeout=WAIT_MS)
    page.select_option("#game", game)
    page.fill("#seed", str(seed))
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", bot)
    before = step(page)
    page.click("#start")
    wait_turn(page, before)


def step(page: Page) -> str:
    return page.get_attribute("body", "data-step") or ""


def wait_turn(page: Page, before: str) -> None:
    """Until the human decides again (after the bot's answers) or the game is over."""
    page.wait_for_selector(
        f'body:not([data-step="{before}"])[data-phase=human], body[data-phase=over]',
        timeout=WAIT_MS,
    )


def events(page: Page) -> list[str]:
    return page.locator("#events li").all_inner_texts()


def finish(page: Page, preferred: tuple[str, ...], limit: int, eager: int = 0) -> int:
    """Take the first option listed for `eager` decisions, then the preferred option (by its
    label) or the first listed, until the game ends."""
    moves = 0
    while page.get_attribute("body", "data-phase") != "over":
        assert moves < limit, "the game did not end"
        before = step(page)
        buttons = page.locator("#options button")
        labels = buttons.all_inner_texts()
        pick = 0 if moves < eager else next((i for i, t in enumerate(labels) if t in preferred), 0)
        buttons.nth(pick).click()
        buttons.nth(pick).click()  # a second tap on the same option commits it
        wait_turn(page, before)
        moves += 1
    return moves


def attrs(page: Page, selector: str, name: str) -> list[str]:
    loc = page.locator(selector)
    return [v for i in range(loc.count()) if (v := loc.nth(i).get_attribute(name)) is not None]


def test_architectura_against_a_bot_by_clicking_then_replayed(
    server: str, page: Page, shots: Path
) -> None:
    start(page, server, "architectura", "easy", 5)
    assert page.locator("#board svg .cell").count() == 2 * 8
    hand = attrs(page, "#board .hand-card", "data-card")
    assert len(hand) == 3 and all(c.startswith("blue.") for c in hand)  # only my own hand
    board_before = page.inner_html("#board")
    before = step(page)
    # a legal move by clicking: the first cell of the first street (each card of the hand
    # may go there: three options light up), then a card of the hand (one option: played)
    page.click('#board .cell[data-cell="[1, 1]"]')
    assert page.locator("#options button.match").count() == 3
    page.click(f'#board .hand-card[data-card="{hand[0]}"]')
    # one option left: picked, not played, until confirmed
    assert page.is_visible("#choice") and "street 1, block 1" in page.inner_text("#choice-text")
    assert step(page) == before and page.get_attribute("body", "data-phase") == "human"
    page.click("#confirm")
    wait_turn(page, before)
    assert page.get_attribute('#board .cell[data-cell="[1, 1]"]', "data-card") == hand[0]
    log = events(page)
    assert any(e.startswith("blue (seat 0) played") and "A-3.2" in e for e in log)
    assert any(e.startswith("green (seat 1) played") for e in log), "the bot answered"
    assert page.inner_html("#board") != board_before
    finish(page, (), 40)
    page.screenshot(path=str(shots / "play-architectura.png"), full_page=True)
    status = page.inner_text("#status")
    assert status.startswith("Game over"), status
    assert any(e.startswith("game over") and "A-3.7" in e for e in events(page))
    # the replay tab steps through the log of this game
    page.click("#tab-replay")
    page.click("#log-from-game")
    page.click("#log-load")
    page.wait_for_selector("#replay-verdict.ok", timeout=WAIT_MS)
    verdict = page.inner_text("#replay-verdict")
    total = int(verdict.split(": ")[1].split()[0])
    assert page.inner_text("#rp-step") == f"decision 0 of {total}"
    page.click("#rp-next")
    page.wait_for_selector("#rp-step:has-text('decision 1 of')")
    assert page.get_attribute('#replay-board .cell[data-cell="[1, 1]"]', "data-card") == hand[0]
    assert "played" in page.inner_text("#rp-events")
    page.click("#rp-last")
    page.wait_for_selector(f"#rp-step:has-text('decision {total} of {total}')", timeout=WAIT_MS)
    assert "Game over" in page.inner_text("#replay-board")
    # a disputed log: one decision too many is refused with its clause, the rest still steps
    log = json.loads(page.input_value("#log"))
    log["decisions"].append({"seat": 0, "type": "mulligan"})
    page.fill("#log", json.dumps(log))
    page.click("#log-load")
    page.wait_for_selector("#replay-verdict.error", timeout=WAIT_MS)
    verdict = page.inner_text("#replay-verdict")
    assert f"Decision {total} is illegal: game_over" in verdict, verdict
    assert page.inner_text("#rp-step") == f"decision 0 of {total}"


def test_fora_de_prumo_against_a_bot_by_clicking(server: str, page: Page, shots: Path) -> None:
    start(page, server, "fora-de-prumo", "greedy", 5)
    market = attrs(page, "#board .market-card", "data-card")
    assert len(market) == 5
    # buy: click a space in the market
    space = next(c for c in market if c.startswith("SP"))
    before = step(page)
    page.click(f'#board .market-card[data-card="{space}"]')
    page.click("#confirm")
    wait_turn(page, before)
    assert space in attrs(page, '#board .hand-card[data-seat="0"]', "data-card")
    assert any(e.startswith(f"seat 0 bought {space}") for e in events(page))
    # lay it: the card in the hand, then the origin cell of my building, then a rotation
    page.click(f'#board .hand-card[data-card="{space}"]')
    page.click('#board .building[data-seat="0"] .grid-cell[data-cell="[0, 0]"]')
    matches = page.locator("#options button.match")
    assert matches.count() == 4  # F-R10: the first space at (0, 0), any of four rotations
    before = step(page)
    matches.first.click()
    page.click("#confirm")
    wait_turn(page, before)
    laid = attrs(page, '#board .building[data-seat="0"] .space', "data-card")
    assert laid == [space]
    assert any(e.startswith("seat 1 ") for e in events(page)), "the bot answered"
    # a few more decisions, then F-R27: the game ends soon when one side keeps passing
    finish(page, ("Buy nothing", "Pass"), 120, eager=12)
    page.screenshot(path=str(shots / "play-fora-de-prumo.png"), full_page=True)
    assert page.inner_text("#status").startswith("Game over")
    assert any(e.startswith("game over") and "F-8.4" in e for e in events(page))


def state_json(page: Page) -> str:
    return str(page.evaluate("JSON.stringify(state)"))


def test_undo_takes_back_my_decision_and_the_bots_answer(server: str, page: Page) -> None:
    """Undo restores the position before my last decision exactly (the same state JSON), the
    bot's answer after it included; the events and the board go back with it."""
    start(page, server, "architectura", "greedy", 8)
    assert page.is_disabled("#undo")
    before_state, before_events = state_json(page), events(page)
    board = page.inner_html("#board")
    before = step(page)
    buttons = page.locator("#options button")
    buttons.first.click()
    page.click("#confirm")
    wait_turn(page, before)
    assert state_json(page) != before_state and len(events(page)) > len(before_events)
    before = step(page)
    page.click("#undo")
    page.wait_for_selector(f'body:not([data-step="{before}"])[data-phase=human]', timeout=WAIT_MS)
    assert state_json(page) == before_state
    assert events(page) == before_events and page.inner_html("#board") == board
    assert page.is_disabled("#undo")


@pytest.mark.parametrize(
    ("game", "prefix", "ruling"), [("fora-de-prumo", "F-", "F-R14"), ("architectura", "A-", "A-R1")]
)
def test_a_clause_badge_opens_the_rules_at_that_clause(
    server: str, page: Page, game: str, prefix: str, ruling: str
) -> None:
    start(page, server, game, "greedy", 3)
    badge = page.locator("#status a.clause")
    clause = badge.inner_text()
    assert clause.startswith(prefix)
    badge.click()
    page.wait_for_selector("#rules-text .target", timeout=WAIT_MS)
    assert page.is_visible("#rules") and not page.is_visible("#play")
    target = page.locator("#rules-text .target")
    assert target.count() == 1
    shown = target.get_attribute("id") or ""
    assert clause.startswith(shown.removeprefix("rule-")), (clause, shown)
    assert page.locator("#rules-text section").count() >= 8  # the sections and the rulings
    assert page.locator(f"#rule-{ruling}").inner_text().startswith(ruling)
    # an event's badge too, back on the play tab, after a move
    page.click("#tab-play")
    before = step(page)
    page.locator("#options button").first.click()
    page.click("#confirm")
    wait_turn(page, before)
    event_badge = page.locator("#events a.clause").first
    event_clause = event_badge.inner_text()
    event_badge.click()
    page.wait_for_selector("#rules:not(.hidden) #rules-text .target", timeout=WAIT_MS)
    shown = page.locator("#rules-text .target").get_attribute("id") or ""
    assert event_clause.startswith(shown.removeprefix("rule-"))


def test_the_replay_board_draws_its_own_hatching_and_step_glyphs(server: str, page: Page) -> None:
    """Two pictures on the page: each uses its own hatch pattern (ids prefixed by board), so a
    face-down card of the replay is hatched while the play pane is hidden; the step buttons
    draw their glyphs as pictures (no font needed)."""
    start(page, server, "architectura", "easy", 5)
    page.click("#tab-replay")
    seats_log = {"setup": {"seats": 2, "seed": 5}, "decisions": []}
    page.fill("#log", json.dumps(seats_log))
    page.click("#log-load")
    page.wait_for_selector("#replay-verdict.ok", timeout=WAIT_MS)
    # each board's patterns are its own: no id is on the page twice ...
    for board in ("board", "replay-board"):
        own = attrs(page, f"#{board} pattern", "id")
        assert own and all(i.startswith(f"{board}-") for i in own), own
    ids = page.evaluate("Array.from(document.querySelectorAll('[id]'), (e) => e.id)")
    assert len(ids) == len(set(ids))
    # ... and a reference to one (a face-down card's fill) follows it
    svg = page.evaluate(
        """() => {
          const d = new DOMParser().parseFromString('<svg xmlns="http://www.w3.org/2000/svg">'
            + '<pattern id="hatch"/><rect fill="url(#hatch)"/><use href="#hatch"/>'
            + '<rect fill="url(#elsewhere)"/></svg>', "image/svg+xml");
          ownIds(d.documentElement, "replay-board");
          return d.documentElement.outerHTML;
        }"""
    )
    assert 'id="replay-board-hatch"' in svg and 'fill="url(#replay-board-hatch)"' in svg
    assert 'href="#replay-board-hatch"' in svg and 'fill="url(#elsewhere)"' in svg
    for button in ("#rp-first", "#rp-prev", "#rp-next", "#rp-last"):
        box = page.locator(f"{button} svg").bounding_box()
        assert box is not None and box["width"] >= 12 and box["height"] >= 12, button


# -- issue 18: the player's language, secrets, a card's text on tap, a space's preview ---------

TEXT = json.loads((ROOT / "app" / "static" / "play-text.json").read_text(encoding="utf-8"))


def english_patterns() -> list[re.Pattern[str]]:
    """Each English text of the page's table as a pattern (its placeholders match anything),
    but for those that would also match a Portuguese text of the table (`passes`)."""
    portuguese = [entry["pt"] for entry in TEXT.values()]
    out = []
    for entry in TEXT.values():
        parts = re.split(r"\{\w+\}", entry["en"])
        pattern = r"\b" + ".+?".join(re.escape(p) for p in parts).strip() + r"(?!\w)"
        compiled = re.compile(pattern)
        if not any(compiled.search(pt) for pt in portuguese):
            out.append(compiled)
    return out


def english_words(shown_names: set[str]) -> set[str]:
    """The words (4 letters or more) of the table's English texts that no Portuguese text of
    the table uses and no card name shown (the catalogs name Architectura's cards in English)."""
    words = lambda s: set(re.findall(r"[A-Za-z]{4,}", re.sub(r"\{\w+\}", " ", s)))  # noqa: E731
    portuguese = set().union(*(words(e["pt"]) for e in TEXT.values()))
    names = set().union(*(words(n) for n in shown_names))
    return set().union(*(words(e["en"]) for e in TEXT.values())) - portuguese - names


def catalog_names(base: str, game: str) -> set[str]:
    with urllib.request.urlopen(f"{base}/v1/catalogs/reference?game={game}") as r:
        return {c["name"] for c in json.load(r)["catalog"]["cards"]}


def page_texts(page: Page) -> list[str]:
    """The page's own text, line by line: status, selection, options, events, scores, tabs,
    headings, buttons and labels (hidden ones too), the seats' set-up."""
    return list(
        page.evaluate(
            """() => Array.from(document.querySelectorAll(
                 '#status, #selection, #options button, #events li, #scores td, .tab, h1, h2,'
                 + ' button, label > span, #seat-config b, #seat-config option, #setup-choices option,'
                 + ' #board > p, #rules-text p, #choice-text'), (e) => e.textContent)
               .concat([document.title])"""
        )
    )


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_a_portuguese_browser_sees_no_english_of_the_page(
    server: str, browser: Browser, game: str
) -> None:
    """With a pt-BR browser, every text of the page's own table is Portuguese: no line of the
    page matches an English text of the table, and no English word of it is on the page; the
    API is asked in Portuguese too (the prompt, the board); the picker switches to English."""
    context = browser.new_context(locale="pt-BR", viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        start(page, server, game, "greedy", 4)
        assert page.input_value("#lang") == "pt"
        for _ in range(2):  # two decisions: my events and the bot's
            before = step(page)
            page.locator("#options button").first.click()
            assert page.is_visible("#choice")
            page.click("#confirm")
            wait_turn(page, before)
        lines = page_texts(page)
        assert (
            len(page.locator("#events li").all()) >= 2 and page.locator("#options button").count()
        )
        english = [
            (p.pattern, line) for line in lines for p in english_patterns() if p.search(line)
        ]
        assert english == [], english
        left = english_words(catalog_names(server, game))
        assert left, "the table has English words to look for"
        found = {w for line in lines for w in re.findall(r"[A-Za-z]{4,}", line)} & left
        assert found == set(), found
        assert "sua decisão" in page.inner_text("#status")
        assert page.evaluate("document.documentElement.lang") == "pt"
        assert page.get_attribute("#undo", "aria-label") is None  # its name is its text
        # the picker: English at once, kept for the next visit
        before = step(page)
        page.select_option("#lang", "en")
        page.wait_for_selector(
            f'body:not([data-step="{before}"])[data-phase=human]', timeout=WAIT_MS
        )
        assert "your decision" in page.inner_text("#status")
        assert page.inner_text("#undo") == "Undo"
        page.reload()
        page.wait_for_selector("body[data-phase=human]", timeout=WAIT_MS)
        assert page.input_value("#lang") == "en" and page.inner_text("#tab-rules") == "Rules"
    finally:
        context.close()
    assert errors == []


@pytest.fixture(scope="module")
def sealed_server() -> Iterator[str]:
    with RedisServer(policy="noeviction") as redis_server:
        env = {
            "WEB_CONCURRENCY": "2",
            "LOG_LEVEL": "WARNING",
            "STATE_SECRET": "a-test-secret-of-at-least-32-characters!",
            "STATE_ENCRYPT": "1",  # which needs anti-rollback (app/seal.py `from_config`)
            "STATE_ANTI_ROLLBACK": "1",
            "REDIS_URL": redis_server.url,
        }
        with gunicorn(env=env) as base:
            yield base


def post(base: str, path: str, body: dict[str, object]) -> dict[str, object]:
    req = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(req) as r:
        return dict(json.load(r))


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_the_page_keeps_no_hidden_card_of_an_encrypted_game(
    sealed_server: str, page: Page, game: str
) -> None:
    """STATE_SECRET + STATE_ENCRYPT: the page holds the state sealed (game, sealed, seal) and
    shows its seat's view only: none of the opponent's hidden hand cards is in what the play
    tab keeps (playMemory) or in the page's DOM, and the page never asks for a position or a
    record."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    start(page, sealed_server, game, "greedy", 6)
    dealt = post(sealed_server, "/v1/view", {"state": page.evaluate("state"), "seat": 1})
    for _ in range(3):
        if page.get_attribute("body", "data-phase") == "over":
            break
        before = step(page)
        page.locator("#options button").first.click()
        page.click("#confirm")
        wait_turn(page, before)
    state = page.evaluate("state")
    assert set(state) == {"game", "sealed", "seal"}
    opponent = post(sealed_server, "/v1/view", {"state": state, "seat": 1})
    # the cards dealt to the opponent and still in its hand: never shown to seat 0 (a card it
    # bought from the market is in its hand too, but everyone saw it bought)
    hand = set(opponent["seats"][1]["hand"]) & set(dealt["seats"][1]["hand"])  # type: ignore[index]
    assert hand, "the opponent still holds cards it was dealt"
    memory = str(page.evaluate("JSON.stringify(playMemory())"))
    dom = page.content()
    for card in hand:
        assert card not in memory and card not in dom, card
    mine = post(sealed_server, "/v1/view", {"state": state, "seat": 0})
    assert any(c in dom for c in mine["seats"][0]["hand"])  # type: ignore[index]
    assert not any(p in url for url in asked for p in ("/v1/position", "/v1/record"))


def test_a_tap_on_a_card_shows_its_text(server: str, browser: Browser) -> None:
    """A touch screen has no hover: a tap on a card of the board shows its <title> text in the
    card panel (a region named by its heading), Close hides it; Enter on a card does too."""
    context = browser.new_context(has_touch=True, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        start(page, server, "architectura", "easy", 5)
        card = page.locator("#board .hand-card").first
        expected = card.locator("title").first.text_content()
        assert expected and not page.is_visible("#card-info")
        card.tap()
        page.wait_for_selector("#card-info:not(.hidden)")
        assert page.inner_text("#card-info-text").strip() == expected.strip()
        region = page.get_by_role("region", name=TEXT["card"]["en"])
        assert region.is_visible()
        page.tap("#card-info-close")
        assert not page.is_visible("#card-info")
        other = page.locator('#board [data-card][tabindex="0"]').last
        other.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#card-info:not(.hidden)")
        assert (
            page.inner_text("#card-info-text").strip()
            == (other.locator("title").first.text_content() or "").strip()
        )
    finally:
        context.close()


def test_a_space_is_previewed_and_turned_before_it_is_laid(server: str, page: Page) -> None:
    """Fora de Prumo: a lay into the building is drawn in place before it is confirmed; Turn
    goes to the next rotation on the same cell (another option, another picture); nothing is
    committed (same state, same events) until Confirm."""
    start(page, server, "fora-de-prumo", "greedy", 5)
    market = attrs(page, "#board .market-card", "data-card")
    space = next(c for c in market if c.startswith("SP"))
    before = step(page)
    page.click(f'#board .market-card[data-card="{space}"]')
    page.click("#confirm")
    wait_turn(page, before)
    page.click(f'#board .hand-card[data-card="{space}"]')
    page.click('#board .building[data-seat="0"] .grid-cell[data-cell="[0, 0]"]')
    assert page.locator("#options button.match").count() == 4
    held, logged, at = state_json(page), events(page), step(page)
    page.locator("#options button.match").first.click()
    page.wait_for_selector(f'#board[data-preview^="{space}@0,0,"]', timeout=WAIT_MS)
    assert attrs(page, "#board .space.preview", "data-card") == [space]
    first = page.get_attribute("#board", "data-preview")
    text = page.inner_text("#choice-text")
    picture = page.inner_html("#board")
    assert page.is_visible("#turn")
    page.click("#turn")
    page.wait_for_selector(f'#board[data-preview^="{space}@0,0,"]:not([data-preview="{first}"])')
    assert page.inner_text("#choice-text") != text
    assert page.inner_text("#options button.picked") == page.inner_text("#choice-text")
    assert attrs(page, "#board .space.preview", "data-card") == [space]
    assert page.inner_html("#board") != picture
    # nothing committed: the same state, events and step, still my decision
    assert state_json(page) == held and events(page) == logged and step(page) == at
    assert page.get_attribute("body", "data-phase") == "human"
    turned = page.inner_text("#choice-text")
    before = step(page)
    page.click("#confirm")
    wait_turn(page, before)
    assert attrs(page, '#board .building[data-seat="0"] .space', "data-card") == [space]
    assert page.locator("#board .preview").count() == 0
    laid = [e for e in events(page) if e.startswith(f"seat 0 laid {space}")]
    assert laid and turned.split(" at ")[1] in laid[0], (turned, laid)
