"""The messages marshmallow may write for the app's schemas (tests/http/test_i18n.py and
scripts/messages.py): they are not in the source as msg(...) calls, so Babel does not find
them; they are read from the schemas themselves, every field of every Schema subclass the app
defines."""

from __future__ import annotations

import importlib
import pkgutil

from engine.messages import Msg


def marshmallow_messages() -> set[str]:
    """Every message marshmallow may write for the app's schemas: each field's
    error_messages (its class's and marshmallow's), each validator's, each schema's own;
    each made a template (app/schemas.py templated), so translated from it."""
    from marshmallow import Schema

    import app
    from app.schemas import map_messages, templated

    for mod in pkgutil.walk_packages(app.__path__, "app."):
        importlib.import_module(mod.name)
    out: set[str] = set()

    def add(m: object) -> object:
        assert isinstance(m, Msg), f"a marshmallow message not made a template: {m!r}"
        out.add(m.template)
        return m

    todo, seen = [Schema], set()
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
                if sub.__module__.startswith("app."):
                    map_messages(templated(sub()), add)
    return out
