"""/play's own words: one table, app/static/play-text.json ({key: {en, pt, fr, de}}), read by
play.js and the review's review.js; every key in the four languages with the same placeholders, every key the page names
in the table, every key of the table named by the page. (The browser tests check that a
Portuguese browser sees no English sentence of it: tests/http/test_browser.py, and
tests/http/test_browser_review.py for the review panel.)"""

from __future__ import annotations

import json
import re
from typing import Any

from http_support import ROOT

STATIC = ROOT / "app" / "static"
LANGUAGES = ("en", "pt", "fr", "de")
# keys play.js builds from a value (`opt_${o.type}`, ...): the prefix, and the values it takes
# (label_<field>, <field>_<choice>: the set-up choices GET /v1/games lists, e.g. variant)
DYNAMIC = ("bot_", "dir_", "word_", "opt_", "ev_", "verdict_", "label_", "variant_")
# the page's scripts that name keys: play.js, and review.js (loaded after it, using its t/tn)
SCRIPTS = ("play.js", "review.js")
# the review's verdicts (POST /v1/review, docs/review.md): review.js names them `verdict_${v}`
VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")


def table() -> dict[str, dict[str, str]]:
    return dict(json.loads((STATIC / "play-text.json").read_text(encoding="utf-8")))


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_key_has_the_four_languages_with_the_same_placeholders() -> None:
    texts = table()
    assert len(texts) > 100
    for key, entry in texts.items():
        assert set(entry) == set(LANGUAGES), key
        for lang in LANGUAGES:
            assert isinstance(entry[lang], str) and entry[lang].strip(), (key, lang)
            assert placeholders(entry[lang]) == placeholders(entry["en"]), (key, lang)
        if key not in ("label_variant", "scores", "word_passes"):  # the same word in some
            assert len({entry[lang] for lang in LANGUAGES}) > 1, f"{key} is not translated"


def named_keys() -> tuple[set[str], set[str]]:
    """The keys the scripts and play.html name literally, and the count keys (`tn`: _one,
    _many)."""
    js = "\n".join((STATIC / name).read_text(encoding="utf-8") for name in SCRIPTS)
    html = (STATIC / "play.html").read_text(encoding="utf-8")
    literal = set(re.findall(r"\bt\(\"(\w+)\"", js))
    literal |= set(re.findall(r'data-t(?:-label|-placeholder)?="(\w+)"', html))
    counted = set(re.findall(r"\btn\(\"(\w+)\"", js))
    counted |= {f"ev_{k}_count" for k in ("drew", "looked")}  # cards("ev_drew") -> tn(_count)
    return literal, counted


def test_every_key_the_page_names_is_in_the_table_and_every_key_is_used() -> None:
    texts = table()
    literal, counted = named_keys()
    wanted = literal | {f"{k}_{n}" for k in counted for n in ("one", "many")}
    assert wanted - set(texts) == set(), "keys the page names but the table lacks"
    unused = {k for k in set(texts) - wanted if not k.startswith(DYNAMIC)}
    assert unused == set(), "keys of the table no code names"


def test_the_review_names_its_words_in_the_table_and_every_verdict_is_there() -> None:
    texts = table()
    literal, counted = named_keys()
    review = (STATIC / "review.js").read_text(encoding="utf-8")
    assert "t(`verdict_${verdict}`)" in review
    assert {f"verdict_{v}" for v in VERDICTS} <= set(texts)
    assert {k for k in texts if k.startswith("verdict_")} == {f"verdict_{v}" for v in VERDICTS}
    own = {k for k in set(re.findall(r"\btn?\(\"(\w+)\"", review))}
    assert {"rv_running", "rv_done", "rv_alt_best", "rv_alt_other", "rv_blunders"} <= own
    assert own <= literal | counted
    html = (STATIC / "play.html").read_text(encoding="utf-8")
    panel = html[html.index('<div id="review"') : html.index("</main>")]
    assert re.findall(r">([^<]*\w[^<]*)<", panel) == [], "the review panel's words are in the table"


def test_the_page_asks_the_api_in_its_language_and_fetches_the_table(client: Any) -> None:
    js = (STATIC / "play.js").read_text(encoding="utf-8")
    assert '"accept-language": lang' in js
    assert "/static/play-text.json" in js
    r = client.get("/static/play-text.json")
    assert r.status_code == 200 and r.get_json() == table()
