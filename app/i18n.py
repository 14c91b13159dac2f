"""Answers in the client's language: `Accept-Language` picks en, pt, fr or de; the answer
says which (`Content-Language`).

The catalogs are gettext files read with Babel (app/locales/<lang>/LC_MESSAGES/messages.po,
template app/locales/messages.pot). Every sentence the service writes is a message
(engine/messages.py): its English text, built from a catalog template and named values. The
engines stay pure and deterministic and write English; the answer is translated where it is
built, from each message's template and values (never by reading the English back): a
problem's `title` and `detail` and those of its `problems` (app/errors.py), and the `prompt` of
the pending decision that /v1/resolve and /v1/legal-moves answer beside the state (msgctxt
"prompt"; the one inside a state or a view is not, since states are sealed and views are
checked when they come back). A value put into a message is kept, except card and colour
names and card types, translated too (msgctxt "card", "colour", "card type", by the
placeholder that holds them), and messages put into messages ("unknown {what}field {field}",
"{where}: {why}"), translated as messages. A message the catalog does not have stays English.
Card ids, codes, clauses and pointers never change; event fields and clause texts are English.
Every message has a translation: tests/http/test_i18n.py extracts them from the source with
Babel (scripts/messages.sh regenerates the catalogs).
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from flask import Flask, Response, has_request_context
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from app import current
from engine.messages import Msg

LANGUAGES = ("en", "pt", "fr", "de")  # the first is the default
LOCALES = Path(__file__).resolve().parent / "locales"
# placeholder -> context of the names it holds
NAMED = {"card": "card", "colour": "colour", "card_type": "card type"}


def _catalog_file(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / "messages.po"


@cache
def catalog(lang: str) -> Catalog:
    with _catalog_file(lang).open("rb") as f:
        return read_po(f, locale=lang)


@cache
def template() -> Catalog:
    with (LOCALES / "messages.pot").open("rb") as f:
        return read_po(f)


def gettext(lang: str, msgid: str, context: str | None = None) -> str | None:
    """The translation of a message, or None when the catalog lacks it."""
    if lang == "en":
        return msgid
    m = catalog(lang).get(msgid, context=context)
    return str(m.string) if m is not None and m.string and not m.fuzzy else None


def translate(text: str, lang: str) -> str:
    """A message in `lang`: its template's translation filled with its values (themselves
    translated when they are names or messages). A plain string is a value, not a message,
    and stays as it is; so does a message whose template the catalog lacks."""
    if lang == "en" or not isinstance(text, Msg):
        return text
    translated = gettext(lang, text.template)
    if translated is None:
        return str(text)
    if not text.args:  # a template without values is its text (it may hold braces)
        return translated
    return translated.format(**{k: _value(k, v, lang) for k, v in text.args.items()})


def _value(placeholder: str, value: object, lang: str) -> object:
    if isinstance(value, Msg):
        return translate(value, lang)
    if placeholder in NAMED and isinstance(value, str):
        return gettext(lang, value, NAMED[placeholder]) or value
    return value


def translate_prompt(prompt: Any, lang: str) -> Any:
    """The prompt of a pending decision in `lang` (msgctxt "prompt"), unchanged when the
    catalog lacks it or it is not a string."""
    if lang == "en" or not isinstance(prompt, str):
        return prompt
    return gettext(lang, prompt, "prompt") or prompt


def said_in(response: Response, languages: str) -> Response:
    """`response`, its Content-Language saying what its body is in whatever was asked: `en`
    for an English body (a catalog), `fr, en` for one in both (the rules: titles translated,
    texts English). The answer still varies with Accept-Language (Vary)."""
    response.headers["Content-Language"] = languages
    return response


def answer_language() -> str:
    """The language of the answer being built: the request's, English outside one."""
    return negotiate() if has_request_context() else LANGUAGES[0]


# Accept-Language values up to this long are remembered (browsers send a few dozen
# characters); a longer one is read each time, so made-up kilobyte values fill no memory
REMEMBERED_HEADER_CHARS = 200
# An Accept-* value is read up to the last comma in its first MAX_ACCEPT_CHARS: gunicorn
# joins a header sent many times, and 98 lines of Accept-Language made one 786 KB value,
# parsed whole twice an answer (1.4 s for a 404: audit of 2026-11-30)
MAX_ACCEPT_CHARS = 1024
_NEGOTIATED = "referee.language"  # the request's language, negotiated once (environ key)


def bounded_accept(value: str) -> str:
    """The part of an Accept-* header value that is read (MAX_ACCEPT_CHARS)."""
    if len(value) <= MAX_ACCEPT_CHARS:
        return value
    return value[:MAX_ACCEPT_CHARS].rpartition(",")[0]


def negotiate() -> str:
    """The language of this request's answer (Accept-Language; English by default)."""
    environ = current.environ()
    lang: str | None = environ.get(_NEGOTIATED)
    if lang is None:
        header = environ.get("HTTP_ACCEPT_LANGUAGE")
        if not header:
            lang = LANGUAGES[0]
        elif len(header) > REMEMBERED_HEADER_CHARS:
            lang = _language_of(bounded_accept(header))
        else:
            lang = _best_language(header)
        environ[_NEGOTIATED] = lang
    return lang


def _language_of(header: str) -> str:
    """The best of LANGUAGES for an Accept-Language value: the one the client rates highest,
    a regional tag counting for its language (`pt-BR` is `pt`; RFC 4647 lookup), the earlier
    one on a tie; English when none is accepted. (werkzeug's `best_match` would prefer an
    exact `en;q=0.5` to `pt-BR` itself.)"""
    best, best_q = LANGUAGES[0], 0.0
    for tag, q in parse_accept_header(header, LanguageAccept):
        lang = "*" if tag == "*" else tag.split("-", 1)[0].split("_", 1)[0].lower()
        if lang == "*" and q > best_q:
            best, best_q = LANGUAGES[0], q
        elif lang in LANGUAGES and q > best_q:
            best, best_q = lang, q
    return best


@lru_cache(maxsize=1024)
def _best_language(header: str) -> str:
    """`_language_of`, a pure function of the header, remembered for the few short values
    clients send."""
    return _language_of(header)


def init_app(app: Flask) -> None:
    @app.after_request
    def content_language(response: Response) -> Response:
        """Says which language a JSON answer is in (the body was built in it), unless its
        route said so itself (a body in English whatever was asked: rules, catalogs)."""
        if response.mimetype in ("application/json", "application/problem+json"):
            headers = response.headers
            # which of the two headers the answer has, in one pass (werkzeug's `in` raises
            # and catches a KeyError for each header absent: the common case)
            named = {k.lower() for k, _ in headers}
            if "content-language" not in named:  # else the route said (app/rules.py)
                headers["Content-Language"] = negotiate()
            if "vary" in named:
                response.vary.add("Accept-Language")
            else:  # the common case, without parsing a header set
                headers["Vary"] = "Accept-Language"
        return response
