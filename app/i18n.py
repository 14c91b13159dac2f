"""Answers in the client's language: `Accept-Language` picks en, pt, fr or de; the answer
says which (`Content-Language`).

The catalogs are gettext files read with Babel (app/locales/<lang>/LC_MESSAGES/messages.po,
template app/locales/messages.pot). The engines write their messages in English (they stay
pure and deterministic); a problem's `title` and `detail` (and those of its `problems`) are
translated here on the way out. A detail is matched against the catalog's message templates
(`{card} is not in your hand.`); the values it carries are kept, except card and colour names,
which are translated too (msgctxt "card" / "colour"), and parts of sentences ({what}, {why},
{where}: "unknown card field 'x'", a 400's "/seats: Not a valid integer."), translated as
messages themselves. Every message the code can write has a translation: tests/http/test_i18n.py
reads them all from the source (tests/message_sites.py) and from the marshmallow schemas. The `prompt` of the pending decision
that /v1/resolve and /v1/legal-moves answer beside the state is translated too (msgctxt
"prompt"); the one inside a state or a view is not, since states are sealed and views are
checked when they come back. A message the catalog does not have stays English. Card ids,
codes, clauses and pointers never change; event fields and clause texts are English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import orjson
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from flask import Flask, Response, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

LANGUAGES = ("en", "pt", "fr", "de")  # the first is the default
LOCALES = Path(__file__).resolve().parent / "locales"
# placeholder -> context of the names it holds
NAMED = {"card": "card", "colour": "colour", "card_type": "card type"}
# placeholders that hold a part of the sentence ("unknown {what}field", "cannot start: {why}")
# or a message of its own ("{where}: {why}"): their values are translated as messages; a
# part may be empty
FRAGMENTS = ("what", "why", "where")
# messages inside messages read at most this deep ("a: b: c: …" is not read on without end)
MAX_NESTING = 4
# engine.errors.summary: a sentence and how many problems follow it; the sentence is translated
# on its own, since a template ending in a placeholder would otherwise swallow the tail
MORE = "{problem} (and {more} more)"
_MORE = re.compile(r"^(?P<problem>.+) \(and (?P<more>\d+) more\)$", re.S)
_FIELD = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Template:
    msgid: str
    pattern: re.Pattern[str]


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


@cache
def templates() -> tuple[Template, ...]:
    """The messages with placeholders, as patterns that read the values back. Longer
    templates first, so that a more specific message wins over a shorter one it contains."""
    out = []
    for m in template():
        if not m.id or m.context or "{" not in str(m.id):
            continue
        msgid = str(m.id)
        out.append(Template(msgid, re.compile(_pattern(_FIELD.split(msgid)), re.S)))
    return tuple(sorted(out, key=lambda t: -len(t.msgid)))


def _pattern(parts: list[str]) -> str:
    """The pattern of a template split into literal, name, literal, name, …, literal. A value
    ends at the first place the text that follows it in the template appears (an atomic
    group: never retried further on), so that matching costs in proportion to the detail's
    length: a detail the client fills with pieces of a template (a pointer, a quoted value)
    would otherwise be split every possible way before failing (cubic in its length)."""
    regex = [re.escape(parts[0])]
    for i in range(1, len(parts), 2):
        name, after = parts[i], re.escape(parts[i + 1])
        value = f"(?P<{name}>.{'*' if name in FRAGMENTS else '+'}?)"
        last = i + 2 >= len(parts)
        regex.append(value + after if last or not after else f"(?>{value}{after})")
    return f"^{''.join(regex)}$"


def gettext(lang: str, msgid: str, context: str | None = None) -> str | None:
    """The translation of a message, or None when the catalog lacks it."""
    if lang == "en":
        return msgid
    m = catalog(lang).get(msgid, context=context)
    return str(m.string) if m is not None and m.string and not m.fuzzy else None


def translate(text: str, lang: str, depth: int = 0) -> str:
    """An English message in `lang`: a catalog message as it is, or one whose template
    matches with its values put back; unchanged when the catalog has neither."""
    if lang == "en":
        return text
    plain = gettext(lang, text)
    if plain is not None:
        return plain
    more = _MORE.match(text)
    if more is not None and (translated := gettext(lang, MORE)) is not None:
        problem = translate(more["problem"], lang, depth + 1)
        return translated.format(problem=problem, more=more["more"])
    for t in templates():
        m = t.pattern.match(text)
        if m is None:
            continue
        translated = gettext(lang, t.msgid)
        if translated is None:
            return text
        values = {k: _value(k, v, lang, depth) for k, v in m.groupdict().items()}
        return translated.format(**values)
    return text


def _value(placeholder: str, value: str, lang: str, depth: int) -> str:
    """A value read back from a message, in `lang`: a name the catalog knows, a part of the
    sentence (FRAGMENTS), or the value unchanged."""
    if placeholder in NAMED:
        return gettext(lang, value, NAMED[placeholder]) or value
    if placeholder in FRAGMENTS and value and depth < MAX_NESTING:
        return translate(value, lang, depth + 1)
    return value


# Accept-Language values up to this long are remembered (browsers send a few dozen
# characters); a longer one is read each time, so made-up kilobyte values fill no memory
REMEMBERED_HEADER_CHARS = 200


def negotiate() -> str:
    """The language of this request's answer (Accept-Language; English by default)."""
    header = request.environ.get("HTTP_ACCEPT_LANGUAGE")
    if not header:
        return LANGUAGES[0]
    if len(header) > REMEMBERED_HEADER_CHARS:
        return _language_of(header)
    return _best_language(header)


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


def _translate_problem(body: dict[str, Any], lang: str) -> None:
    for key in ("title", "detail"):
        if isinstance(body.get(key), str):
            body[key] = translate(body[key], lang)
    for p in body.get("problems") or []:
        if isinstance(p, dict) and isinstance(p.get("detail"), str):
            p["detail"] = translate(p["detail"], lang)


PENDING_BESIDE_STATE = ("/v1/resolve", "/v1/legal-moves")  # answers whose `pending` is a copy


def _translate_pending(response: Response, lang: str) -> None:
    body = orjson.loads(response.get_data())
    pending = body.get("pending") if isinstance(body, dict) else None
    if isinstance(pending, dict) and isinstance(pending.get("prompt"), str):
        translated = gettext(lang, pending["prompt"], "prompt")
        if translated is not None:
            pending["prompt"] = translated
            response.set_data(orjson.dumps(body))


def init_app(app: Flask) -> None:
    @app.after_request
    def localise(response: Response) -> Response:
        lang = negotiate()
        mimetype = response.mimetype  # parsed once: read three times below
        if mimetype == "application/problem+json" and lang != "en":
            body = orjson.loads(response.get_data())
            _translate_problem(body, lang)
            response.set_data(orjson.dumps(body))
        elif (
            lang != "en"
            and response.status_code == 200
            and request.path in PENDING_BESIDE_STATE
            and mimetype == "application/json"
        ):
            _translate_pending(response, lang)
        if mimetype in ("application/json", "application/problem+json"):
            headers = response.headers
            headers["Content-Language"] = lang
            if "Vary" in headers:
                response.vary.add("Accept-Language")
            else:  # the common case, without parsing a header set
                headers["Vary"] = "Accept-Language"
        return response
