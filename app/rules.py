"""GET /v1/rules/{clause}: the text of a rule clause or a ruling, so that the `clause` of any
error or event can be looked up (`A-4.2`, `A-R3`, `F-5.2`, `F-R14`, a section `A-9`); GET
/v1/rules: every section, clause and ruling of every game (or of one, `?game=`), in the order
of its pages, for a reader of the whole rules (/play's rules panel).

The text is the project's own restatement of each game's rules under docs/ (clause ids as in
the normative rule text), read from the repository beside this package, as /openapi.yaml is.
Both spellings of a clause are read: the docs' `- **A-4.2** text` and the normative
`- A-4.2 text`; sections are headings (`## A-4 Eligible cells`); rulings are the rows of the
rulings tables (`| A-R3 | A-3.2 | text |`) or the normative `- F-R14 (F-5.2) text`.
"""

from __future__ import annotations

import errno
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, request

from app.errors import ApiError
from app.i18n import gettext, negotiate, said_in
from app.jsonio import json_response
from app.query import reads_query
from engine.games import GAMES, info, unknown_game
from engine.messages import msg

bp = Blueprint("rules", __name__, url_prefix="/v1")

ROOT = Path(__file__).resolve().parent.parent
Sources = dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]


def sources() -> Sources:
    """clause prefix -> (game, rule pages, rulings pages), relative to the repository: each
    registered game's (engine.registry.GameInfo), read from the registry when asked (a game
    registered later is answered too)."""
    return {
        info(g).clause_prefix: (g, info(g).rule_documents, info(g).ruling_documents) for g in GAMES
    }


@dataclass(frozen=True)
class Grammar:
    """The patterns of the registered games' clause ids (`A|F` as prefixes)."""

    clause_id: re.Pattern[str]
    heading: re.Pattern[str]
    # `- **A-4.2** text`, `- **F-9.1 Player 1, 62.** text` (a title inside the bold) or
    # `- A-4.2 text`
    item: re.Pattern[str]
    table_row: re.Pattern[str]
    normative_ruling: re.Pattern[str]


@cache
def _grammar(prefixes: tuple[str, ...]) -> Grammar:
    prefix = "|".join(map(re.escape, prefixes))  # A|F
    cid = rf"(?:{prefix})-(?:R\d+|\d+(?:\.\d+)*)"
    return Grammar(
        re.compile(rf"^({prefix})-(R\d+|\d+(?:\.\d+)*)([a-z]?)$"),
        re.compile(rf"^(#{{2,4}})\s+({cid})\b\s*(.*)$"),
        re.compile(rf"^- (?:\*\*({cid})\b\s*([^*]*)\*\*|({cid})\b)\s*(.*)$"),
        re.compile(rf"^\|\s*({cid})\s*\|(.*)\|\s*$"),
        re.compile(rf"^- ({cid})\s+\(([^)]*)\)\s*(.*)$"),
    )


def grammar() -> Grammar:
    """The clause-id patterns of the games registered now."""
    return _grammar(tuple(sources()))


@dataclass
class Clause:
    clause: str
    game: str
    kind: str  # "section", "clause" or "ruling"
    text: str
    source: str
    title: str | None = None
    section: str | None = None
    completes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"clause": self.clause, "game": self.game, "kind": self.kind}
        if self.title:
            out["title"] = self.title
        out["text"] = self.text
        if self.section:
            out["section"] = self.section
        if self.completes:
            out["completes"] = self.completes
        out["source"] = self.source
        return out


def parse_rules(text: str, game: str, source: str) -> dict[str, Clause]:
    """Every section heading and clause item of a rules page, by id. An item runs on over its
    indented continuation lines; a section's text is everything up to the next heading."""
    g = grammar()
    out: dict[str, Clause] = {}
    section: Clause | None = None
    item: Clause | None = None
    for line in text.splitlines():
        h = g.heading.match(line)
        if h:
            item = None
            section = Clause(h[2], game, "section", "", source, h[3].strip() or None)
            out.setdefault(section.clause, section)
            continue
        if line.startswith("#"):  # a heading without an id ends the section's text
            item = None
            section = None
            continue
        m = g.item.match(line)
        if m:
            cid = m[1] or m[3]
            title = (m[2] or "").strip().rstrip(".") or None
            sec = section.clause if section else None
            item = Clause(cid, game, "clause", m[4].strip(), source, title, sec)
            out.setdefault(cid, item)
        elif item is not None and line.startswith("  ") and line.strip():
            item.text += " " + line.strip()
        else:
            item = None
        if section is not None:
            section.text += line + "\n"
    for c in out.values():
        c.text = c.text.strip()
    return out


def parse_rulings(text: str, game: str, source: str) -> dict[str, Clause]:
    """Every ruling of a rulings page: table rows `| id | completes | ruling | … |` or the
    normative `- F-R14 (F-5.2) text`."""
    g = grammar()
    out: dict[str, Clause] = {}
    for line in text.splitlines():
        row = g.table_row.match(line)
        if row and "-R" in row[1]:
            cells = [c.strip() for c in row[2].split("|")]
            if len(cells) >= 2:
                completes = [s.strip() for s in cells[0].split(",") if s.strip()]
                out.setdefault(row[1], Clause(row[1], game, "ruling", cells[1], source))
                out[row[1]].completes = completes
            continue
        n = g.normative_ruling.match(line)
        if n and "-R" in n[1]:
            completes = [s.strip() for s in n[2].split(",") if s.strip()]
            out.setdefault(
                n[1], Clause(n[1], game, "ruling", n[3].strip(), source, None, None, completes)
            )
    return out


@cache
def clauses(prefix: str) -> dict[str, Clause]:
    """Every clause, section and ruling of one game (read once per process)."""
    game, rule_pages, ruling_pages = sources()[prefix]
    out: dict[str, Clause] = {}
    for rel in rule_pages:
        out.update(parse_rules((ROOT / rel).read_text(encoding="utf-8"), game, rel))
    for rel in ruling_pages:
        out.update(parse_rulings((ROOT / rel).read_text(encoding="utf-8"), game, rel))
    return out


def lookup(clause_id: str) -> dict[str, Any] | None:
    """A clause's answer, or None. A lettered part (`A-3.1c`) is answered by its clause, with
    `part` naming the letter."""
    m = grammar().clause_id.match(clause_id)
    if m is None:
        return None
    found = clauses(m[1]).get(f"{m[1]}-{m[2]}")
    if found is None:
        return None
    out = found.to_json()
    if m[3]:
        out["clause"], out["part"] = clause_id, m[3]
    return out


def _unavailable(e: OSError) -> ApiError:
    """An installation without docs/ (the Dockerfile copies the pages)."""
    # the error's code (ENOENT), not the system's English sentence for it
    code = errno.errorcode.get(e.errno or 0, type(e).__name__)
    return ApiError(
        503,
        "rules_unavailable",
        msg("The rule pages cannot be read here ({error}).", error=code),
        "",
    )


def _titled(entry: dict[str, Any], lang: str) -> dict[str, Any]:
    """An entry with its title in the asked language when the catalog has it (the text is
    English)."""
    if "title" in entry:
        entry["title"] = gettext(lang, entry["title"], "clause") or entry["title"]
    return entry


def in_languages(body: Any, lang: str, translated: bool) -> Response:
    """A rules answer whose Content-Language says what its body is in: the rule texts are
    English, the section titles in `lang` where `translated` (`fr, en`: titles in French,
    texts in English), so `en` when nothing of it is in another language."""
    return said_in(json_response(body), f"{lang}, en" if translated and lang != "en" else "en")


def _entries(prefix: str, lang: str) -> list[dict[str, Any]]:
    """Every entry of one game's rules, as /v1/rules/{clause} answers each."""
    return [_titled(c.to_json(), lang) for c in clauses(prefix).values()]


@bp.get("/rules")
@reads_query("game")
def rules_index() -> Response:
    """Every section, clause and ruling of each registered game, in the order of its pages."""
    wanted = request.args.get("game")
    if wanted is not None and wanted not in GAMES:
        raise ApiError(404, "unknown_game", unknown_game(wanted), "/game")
    lang = negotiate()
    try:
        games = []
        for g in GAMES:
            if wanted in (None, g):
                facts = info(g)
                entries = _entries(facts.clause_prefix, lang)
                games.append({"game": g, "name": facts.name, "clauses": entries})
    except OSError as e:
        raise _unavailable(e) from None
    return in_languages({"games": games}, lang, True)  # every game's pages have titles


@bp.get("/rules/<clause>")
def rule(clause: str) -> Response:
    """The text of a clause, a section or a ruling of either game."""
    try:
        out = lookup(clause)
    except OSError as e:
        raise _unavailable(e) from None
    if out is None:
        raise ApiError(
            404,
            "unknown_clause",
            msg(
                "No clause or ruling {clause}: ids look like A-4.2, A-R3, F-5.2 or F-R14.",
                clause=repr(clause[:40]),
            ),
            "",
        )
    lang, english = negotiate(), out.get("title")
    titled = _titled(out, lang)
    return in_languages(titled, lang, titled.get("title") != english)
