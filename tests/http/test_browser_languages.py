"""Every word in the player's language on /play (Playwright and Debian's chromium against
gunicorn, as tests/http/test_browser.py): in Portuguese, French and German, a game of each is
played by both seats to its end and reviewed, and nothing visible (the page's text and the
board's) names a card by its English catalog name or a decision by its untranslated kind.
Option labels once read "Jogar azul Temple em rua 1, quadra 1" beside a board that said
"Templo", and Fora de Prumo's status line "Turno 1 · lugar 0 · buy: …"."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import Browser
from test_browser import (  # noqa: F401  (fixtures: server, browser)
    TEXT,
    WAIT_MS,
    browser,
    finish,
    pytestmark,
    server,
    start,
    step,
    wait_turn,
)

from app.i18n import catalog, gettext
from engine.architectura.serialize import KIND
from engine.fora_de_prumo.serialize import STEP_INFO

SHOWN = ("render", "prompt", "card", "colour", "card type", "cell")  # catalog contexts on screen
KINDS = {k for k, _, _ in KIND.values()} | {k for k, _, _ in STEP_INFO.values()}

# what is on screen: the page's rendered text and the boards' drawn words (not the tooltips)
VISIBLE = """() => [document.body.innerText].concat(Array.from(
    document.querySelectorAll('svg text'), (e) => (e.getClientRects().length ? e.textContent : '')))
  .join('\\n')"""


def english_names(base: str, game: str, lang: str) -> set[str]:
    """The catalog's English card names that the language names otherwise (msgctxt "card")."""
    with urllib.request.urlopen(f"{base}/v1/catalogs/reference?game={game}") as r:
        cards = json.load(r)["catalog"]["cards"]
    return {c["name"] for c in cards if gettext(lang, c["name"], "card") not in (None, c["name"])}


def untranslated_kinds(lang: str) -> set[str]:
    """The decision kinds that are no word of the language's own words (the page's table, and
    what its catalog gives the board and the prompts): seen on screen, they are English."""
    shown = [str(m.string) for m in catalog(lang) if m.id and m.context in SHOWN]
    own = " ".join(shown + [e[lang] for e in TEXT.values()])
    return {k for k in KINDS if not re.search(rf"\b{k}\b", own)}


def english_on(text: str, names: set[str], kinds: set[str]) -> set[str]:
    return {w for w in names | kinds if re.search(rf"(?<![\w.]){re.escape(w)}(?![\w.])", text)}


@pytest.mark.parametrize("lang", ["pt", "fr", "de"])
@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_a_game_and_its_review_speak_the_players_language(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
    game: str,
    lang: str,
) -> None:
    names, kinds = english_names(server, game, lang), untranslated_kinds(lang)
    assert "buy" in kinds and "play" in kinds
    if game == "architectura":
        assert len(names) >= 15 and "Bridge" in names  # what there is to find
    context = browser.new_context(locale=lang, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    seen: list[str] = []
    try:
        start(page, server, game, "random", 7)
        assert page.input_value("#lang") == lang
        for _ in range(4):  # my decisions and the bot's answers, each screen read
            seen.append(page.evaluate(VISIBLE))
            before = step(page)
            page.locator("#options button").first.click()
            seen.append(page.evaluate(VISIBLE))  # the choice, before it is confirmed
            page.click("#confirm")
            wait_turn(page, before)
        preferred = (TEXT["opt_skip"][lang], TEXT["opt_pass"][lang])
        finish(page, preferred, 120)
        page.click("#review-game")
        page.wait_for_selector("body[data-review=done]", timeout=WAIT_MS)
        page.locator("#review-decisions li.reviewed").first.click()
        page.wait_for_selector("#review-alt-board svg", timeout=WAIT_MS)
        seen.append(page.evaluate(VISIBLE))
        events = page.locator("#events li").all_inner_texts()
        assert any(e.startswith(TEXT["seat_n"][lang].split("{")[0]) for e in events) or game == (
            "architectura"
        )
    finally:
        context.close()
    assert errors == []
    found = {w: i for i, text in enumerate(seen) for w in english_on(text, names, kinds)}
    assert found == {}, found
