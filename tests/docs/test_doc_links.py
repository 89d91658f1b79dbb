"""The README is a landing page and ``docs/`` the reference: every relative link of the README
and of ``docs/*.md`` (``[text](path)``, ``[text](path#anchor)``, ``[text](#anchor)``,
images) names a file of this checkout and, for ``#anchor``, a heading of that markdown file
(GitHub's anchors: lower case, punctuation but ``-`` and ``_`` dropped, spaces as ``-``, a
repeated heading gains ``-1``, ``-2``...). Links inside code (fenced blocks, inline code) are
not links. The README stays under 300 lines and links every page of ``docs/``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from docblocks import DOCUMENTS, ROOT

README = ROOT / "README.md"
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
FENCED = re.compile(r"^```.*?^```[ \t]*$", re.S | re.M)
INLINE_CODE = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)


def prose(text: str) -> str:
    return INLINE_CODE.sub("", FENCED.sub("", text))


def anchors(path: Path) -> set[str]:
    """The anchors GitHub makes of a markdown file's headings."""
    seen: dict[str, int] = {}
    out = set()
    for title in HEADING.findall(FENCED.sub("", path.read_text(encoding="utf-8"))):
        title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # a link's text only
        slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def relative_links(path: Path) -> list[str]:
    return [
        target
        for target in LINK.findall(prose(path.read_text(encoding="utf-8")))
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)  # https:, mailto:, ...
    ]


def broken(path: Path) -> list[str]:
    out = []
    for target in relative_links(path):
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            out.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            out.append(f"{target}: no heading #{anchor} in {dest.name}")
    return out


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_every_relative_link_resolves(path: Path) -> None:
    assert broken(path) == []


def test_the_checker_finds_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## A `code` heading, here\n", "utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md) [ok](other.md#a-code-heading-here) [ok](#top) ![img](other.md)\n"
        "[gone](missing.md) [bad anchor](other.md#nowhere) [web](https://example.org/x)\n"
        "`[not a link](missing.md)`\n\n```sh\n[nor](missing.md)\n```\n\n# Top\n",
        "utf-8",
    )
    assert broken(page) == [
        "missing.md: no such file",
        "other.md#nowhere: no heading #nowhere in other.md",
    ]


def test_the_readme_is_a_landing_page() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    links = set(relative_links(README))
    pages = {f"docs/{path.name}" for path in DOCUMENTS if path.parent.name == "docs"}
    assert pages <= links, sorted(pages - links)  # every page is in the table of contents
    for page in ("getting-started", "judging", "scoring", "audit", "ci", "api", "formats"):
        assert f"docs/{page}.md" in links
    assert {"docs/measures.md", "docs/cast.md", "docs/judge.png", "docs/report.png"} <= links
    assert "## Two commands" in text and "## Two ways to judge" in text
