"""The English of an answer read back into its template and values, as app/i18n.py once
translated answers (a regular expression per catalog template, the longer first): kept here
as an independent oracle. The service translates from each message's template and values
(engine/messages.py); the tests check that the answer it builds is the one this reader
makes of the English answer, so that building the translation where the answer is built
changed no sentence in any language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from app.i18n import NAMED, gettext, template

# placeholders that hold a part of the sentence ("unknown {what}field", "cannot start: {why}")
# or a message of its own ("{where}: {why}"): their values are translated as messages; a
# part may be empty
FRAGMENTS = ("what", "why", "where", "problem")
# messages inside messages read at most this deep ("a: b: c: …" is not read on without end)
MAX_NESTING = 4
# engine.errors.summary: a sentence and how many problems follow it; the sentence is translated
# on its own, since a template ending in a placeholder would otherwise swallow the tail
MORE = "{problem} (and {more} more)"
_MORE = re.compile(r"^(?P<problem>.+) \(and (?P<more>\d+) more\)$", re.S)
_FIELD = re.compile(r"\{(\w+)\}")
# the words engine.describe.brief names a kind of value with (translated as messages)
KINDS = ("a huge integer", "a number with a fraction", "an object", "an array")


@dataclass(frozen=True)
class Template:
    msgid: str
    pattern: re.Pattern[str]


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


def read_back(text: str, lang: str, depth: int = 0) -> str:
    """An English message in `lang`: a catalog message as it is, or one whose template
    matches with its values put back; unchanged when the catalog has neither."""
    if lang == "en":
        return text
    plain = gettext(lang, text)
    if plain is not None:
        return plain
    more = _MORE.match(text)
    if more is not None and (translated := gettext(lang, MORE)) is not None:
        problem = read_back(more["problem"], lang, depth + 1)
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
    if value in KINDS:
        return gettext(lang, value) or value
    if placeholder in NAMED:
        return gettext(lang, value, NAMED[placeholder]) or value
    if placeholder in FRAGMENTS and value and depth < MAX_NESTING:
        return read_back(value, lang, depth + 1)
    return value
