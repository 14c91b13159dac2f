"""A few SVG building blocks: every attribute value and every text is escaped here.

States are hostile input (custom catalogs carry arbitrary names), so the drawing code never
formats markup by hand: it calls `el` (or its shorthands `rect`, `line`, `circle`), `text` and
`title`, which escape what they are given.
Attribute names come from the code only (`class_` -> class, `font_size` -> font-size,
`data_cell` -> data-cell).
"""

from __future__ import annotations

import re
from html import escape

from engine.text import BIDI, CONTROL, XML_FORBIDDEN

FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"


# What XML 1.0 forbids, the other controls and Unicode's bidi controls (engine/text.py), and
# lone surrogates: a catalog holding one is refused, but every text drawn passes here, so no
# picture is ever unreadable (a forbidden character) or shows a text reversed (a bidi control).
_UNDRAWABLE = re.compile(f"[{XML_FORBIDDEN}{CONTROL}{BIDI}\\ud800-\\udfff]")


def esc(value: object) -> str:
    """`value` as SVG text or attribute: escaped, each character XML cannot hold (or a bidi
    control) drawn as U+FFFD."""
    return escape(_UNDRAWABLE.sub("\ufffd", str(value)), quote=True)


def clip(value: object, n: int) -> str:
    """At most `n` characters (with an ellipsis when cut): card names may be long."""
    s = str(value)
    return s if len(s) <= n else s[: max(n - 1, 0)] + "…"


def _num(v: object) -> str:
    if isinstance(v, float):
        return f"{v:.1f}".rstrip("0").rstrip(".")
    return str(v)


def _attrs(attrs: dict[str, object]) -> str:
    out = []
    for k, v in attrs.items():
        if v is None or v is False:
            continue
        name = k.rstrip("_").replace("_", "-")
        out.append(f' {name}="{esc(_num(v))}"')
    return "".join(out)


def el(tag: str, *children: str, **attrs: object) -> str:
    """An element; `children` are markup made by these functions."""
    inner = "".join(children)
    if inner:
        return f"<{tag}{_attrs(attrs)}>{inner}</{tag}>"
    return f"<{tag}{_attrs(attrs)}/>"


def rect(x: float, y: float, w: float, h: float, *children: str, **attrs: object) -> str:
    return el("rect", *children, x=x, y=y, width=w, height=h, **attrs)


def line(x1: float, y1: float, x2: float, y2: float, **attrs: object) -> str:
    return el("line", x1=x1, y1=y1, x2=x2, y2=y2, **attrs)


def circle(cx: float, cy: float, r: float, **attrs: object) -> str:
    return el("circle", cx=cx, cy=cy, r=r, **attrs)


def text(x: float, y: float, value: object, **attrs: object) -> str:
    return f"<text{_attrs({'x': x, 'y': y, **attrs})}>{esc(value)}</text>"


def title(value: object) -> str:
    """A hover title (the first child of the element it describes)."""
    return f"<title>{esc(value)}</title>"


def document(
    width: float, height: float, label: str, *children: str, defs: str = "", style: str = ""
) -> str:
    """The SVG document; `style`: more rules for its inline <style>."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'width="{_num(width)}" height="{_num(height)}" role="img" aria-label="{esc(label)}" '
        f'font-family="{esc(FONT)}">'
    )
    style = (
        "<style>svg text{dominant-baseline:middle}svg .c{text-anchor:middle}"
        "svg .r{text-anchor:end}svg .b{font-weight:bold}" + style + "</style>"
    )
    return (
        head
        + title(label)
        + style
        + (f"<defs>{defs}</defs>" if defs else "")
        + "".join(children)
        + "</svg>"
    )
