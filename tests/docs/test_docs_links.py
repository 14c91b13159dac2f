"""Every relative link and image of the README and docs/ names a file the repository holds
(a user has nothing beside it). Checked against git's index when the tree is a checkout:
a plot generated in place but ignored by .gitignore once looked fine here and was missing
from every clone."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _tracked() -> set[str] | None:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None  # not a git checkout: existence on disk is all there is to check
    return set(out.decode().split("\0"))


def _links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return [
        m.group(1)
        for m in LINK.finditer(text)
        if not re.match(r"[a-z][a-z0-9+.-]*:|#|/", m.group(1))  # URLs, anchors, site paths
    ]


def test_every_relative_link_of_the_docs_names_a_file_of_the_repository() -> None:
    tracked = _tracked()
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    checked = 0
    for page in pages:
        for link in _links(page):
            target = (page.parent / link.split("#", 1)[0]).resolve()
            assert target.is_relative_to(ROOT), (
                f"{page.relative_to(ROOT)}: {link} leaves the repository"
            )
            rel = target.relative_to(ROOT).as_posix()
            assert target.exists(), f"{page.relative_to(ROOT)}: {link} does not exist"
            if tracked is not None and target.is_file():
                assert rel in tracked, f"{page.relative_to(ROOT)}: {link} is not in git"
            checked += 1
    assert checked > 50  # the pattern finds the links
