"""What a catalog's words may hold, for both games (A-10, F-2.1): no character that a
reader cannot show as written. A card's name reaches `/v1/render`'s SVG, /play's board and
every event and problem that names it; XML 1.0 forbids the C0 controls (tab and line breaks
aside) and U+FFFE/U+FFFF, the other controls show as nothing or break a line, and the bidi
controls show a name reversed or hide part of it. A catalog holding one is refused, never
drawn "fixed".
"""

from __future__ import annotations

import re

from engine.messages import Msg, msg

# The classes of characters a reader cannot show as written (regex class bodies, written as
# escapes so that the contract shows them; engine/render/svg.py and app/logging.py build on
# them): what XML 1.0 forbids (C0 controls but tab, LF and CR; U+FFFE, U+FFFF), DEL and the C1
# controls, Unicode's bidi controls (marks, embeddings, overrides, isolates), line separators
XML_FORBIDDEN = r"\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff"
CONTROL = r"\x7f-\x9f"
BIDI = r"\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
SEPARATORS = r"\u2028\u2029"
_UNSHOWN = XML_FORBIDDEN + CONTROL + BIDI
# a name, on one line (no U+2028/U+2029 either); a longer text, which may hold tabs and line
# breaks (msgspec patterns: `\Z`, not `$`, which would let a final line break through)
LINE = rf"^[^\t\n\r{SEPARATORS}{_UNSHOWN}]*\Z"
TEXT = rf"^[^{_UNSHOWN}]*\Z"
_LINE_RE, _TEXT_RE = re.compile(LINE), re.compile(TEXT)


def is_line(v: str) -> bool:
    return _LINE_RE.match(v) is not None


def is_text(v: str) -> bool:
    return _TEXT_RE.match(v) is not None


def line_rule(key: str, most: int) -> Msg:
    """What to send for a name refused by `is_line` or its length."""
    return msg(
        "{key} must be a string of 1 to {most} characters on one line, without control characters",
        key=key,
        most=most,
    )


def text_rule(key: str, most: int, *, required: bool) -> Msg:
    """What to send for a text refused by `is_text` or its length."""
    if required:
        return msg(
            "{key} must be a string of 1 to {most} characters, without control characters "
            "but tabs and line breaks",
            key=key,
            most=most,
        )
    return msg(
        "{key} must be a string of at most {most} characters, without control characters "
        "but tabs and line breaks",
        key=key,
        most=most,
    )
