"""Keep the catalogs in step with the code's messages (run by scripts/messages.sh).

    .venv/bin/python scripts/messages.py build/messages-code.pot [--prune]

The argument is what `pybabel extract -k msg` found in the code (engine/messages.py: every
message is `msg(template, ...)`). With marshmallow's messages for the app's schemas, those are
the messages without context the service writes; the others (msgctxt card, colour, card type,
prompt, clause, render) come from data and are kept as they are. A message new to the code is
added to app/locales/messages.pot and, untranslated, to every language's messages.po (the i18n
tests fail until it is translated); one the code no longer writes is removed from all of them.
Every other entry, its translation and the files' layout are left untouched (the catalogs are
edited, not rewritten: their comments and line breaks are the translators').
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.pofile import denormalize, normalize, read_po

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
LOCALES = ROOT / "app" / "locales"
# more messages than this to remove at once is more likely a failed extraction than a change
PRUNE_AT = 10


def code_messages(extracted: Path) -> set[str]:
    """The templates of the code (extracted) and marshmallow's messages for the app."""
    from i18n_support import marshmallow_messages

    with extracted.open("rb") as f:
        found = {str(m.id) for m in read_po(f) if m.id}
    return found | marshmallow_messages()


def _entry_id(chunk: str) -> tuple[str | None, str] | None:
    """(msgctxt, msgid) of an entry of a .po file's text, None for a comment or the header."""
    lines = chunk.splitlines()
    ctx: str | None = None
    for i, line in enumerate(lines):
        if line.startswith("msgctxt "):
            ctx = denormalize(line[len("msgctxt ") :])
        if line.startswith("msgid "):
            parts = [line[len("msgid ") :]]
            parts += [x for x in lines[i + 1 :] if x.startswith('"')][: _continued(lines, i)]
            msgid = denormalize("\n".join(parts))
            return (ctx, msgid) if msgid else None
    return None


def _continued(lines: list[str], i: int) -> int:
    n = 0
    for x in lines[i + 1 :]:
        if not x.startswith('"'):
            break
        n += 1
    return n


def _comments(chunk: str) -> str:
    """The leading comment lines of an entry (a section's title), kept when it goes."""
    kept = [x for x in chunk.splitlines() if x.startswith("# ")]
    return "\n".join(kept)


def update(path: Path, added: list[str], removed: set[str]) -> None:
    text = path.read_text(encoding="utf-8")
    chunks = text.rstrip("\n").split("\n\n")
    out = []
    for chunk in chunks:
        key = _entry_id(chunk)
        if key is not None and key[0] is None and key[1] in removed:
            if _comments(chunk):
                out.append(_comments(chunk))
            continue
        out.append(chunk)
    for m in added:
        out.append(f'msgid {normalize(m, width=100)}\nmsgstr ""')
    path.write_text("\n\n".join(out) + "\n", encoding="utf-8")


def main(extracted: Path, prune: bool) -> int:
    written = code_messages(extracted)
    with (LOCALES / "messages.pot").open("rb") as f:
        known = {str(m.id) for m in read_po(f) if m.id and not m.context}
    added, removed = sorted(written - known), known - written
    if len(removed) > PRUNE_AT and not prune:
        for m in sorted(removed):
            print(f"no code writes: {m!r}")
        print(f"{len(removed)} messages to remove: nothing changed; --prune to remove them")
        return 1
    for path in [LOCALES / "messages.pot", *sorted(LOCALES.glob("*/LC_MESSAGES/messages.po"))]:
        update(path, added, removed)
    for m in added:
        print(f"added, to translate: {m!r}")
    for m in sorted(removed):
        print(f"removed, no code writes it: {m!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), "--prune" in sys.argv[2:]))
