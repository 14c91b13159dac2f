"""Messages as data: a sentence the service writes is a `Msg`, the English text of a gettext
template with named placeholders (`msg("{card} is not in your hand.", card=card)`), which also
keeps its template and arguments, so that the answer is translated from them (app/i18n.py)
instead of reading the English back. A Msg is a `str`: engines compare, store and encode it
as the English text they always wrote. Arguments may be messages themselves (a part of a
sentence: "unknown {what}field {field}"). Templates are found by `pybabel extract -k msg`
(scripts/messages.sh).

Not compiled with mypyc (scripts/compile.py): a subclass of str is not a native class.
"""

from __future__ import annotations

from functools import lru_cache
from string import Formatter
from typing import Any


class Msg(str):
    """A sentence: its English text, its template and the values put into it."""

    template: str
    args: dict[str, object]

    @classmethod
    def made(cls, text: str, template: str, args: dict[str, object]) -> Msg:
        """The message of this text, template and values (as they are: not checked)."""
        m = cls(text)  # str's own constructor: a message is made often, and must be cheap
        m.template = template
        m.args = args
        return m

    def __reduce__(self) -> tuple[Any, ...]:
        return (Msg.made, (str(self), self.template, self.args))

    def format(self, *args: object, **kwargs: object) -> Msg:
        """The template filled with these values (marshmallow formats its messages this way:
        a template of `template()` stays a message once filled). Unused values are dropped."""
        names = {name for _, name, _, _ in Formatter().parse(self.template) if name}
        return msg(self.template, **{k: v for k, v in kwargs.items() if k in names})


def msg(template: str, /, **args: object) -> Msg:
    """The message of a template with its values (a template without values is its text)."""
    if not args:
        return _constant(template)
    return Msg.made(template.format(**args), template, args)


@lru_cache(maxsize=1024)
def _constant(template: str) -> Msg:
    """A message without values, made once: some are made on every read of a state (the
    part of a sentence a list's limit would be refused with), not only when one is refused.
    Templates are literals of the code, so a few hundred."""
    return Msg.made(template, template, {})


def template(text: str) -> Msg:
    """A template still to be filled by whoever formats it (marshmallow's messages)."""
    return Msg.made(text, text, {})
