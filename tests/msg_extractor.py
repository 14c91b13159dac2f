"""Babel's extraction method for the code's messages (engine/messages.py): each
`msg("template", ...)` call. Read with `ast`, so that a template is found however it is
written: Babel's own python extractor reads tokens and misses an implicitly concatenated
template in parentheses, the way `ruff format` lays out a long one before other arguments.

Used by tests/http/test_i18n.py (babel.messages.extract) and by scripts/messages.sh
(`pybabel extract -F scripts/babel.cfg`, with tests/ on PYTHONPATH).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def message_calls(source: str | bytes, keywords: Collection[str] = ("msg",)) -> list[ast.Call]:
    """Every call of a message function in a module's source, in line order."""
    calls = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and _callee(node) in keywords
    ]
    return sorted(calls, key=lambda c: (c.lineno, c.col_offset))


def extract_messages(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extraction method signature: (line, function, message, comments) for each
    call whose first argument is a literal template."""
    for call in message_calls(fileobj.read(), keywords):
        first = call.args[0] if call.args else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            yield call.lineno, str(_callee(call)), first.value, []
