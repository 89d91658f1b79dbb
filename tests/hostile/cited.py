"""Every position an output cites exists (issue 29): the checker every hostile CLI call goes
through.

A cite is ``path:line`` or ``path:line:col`` (``REV:path:line:col`` for a file at a git
revision) in stdout or stderr. :func:`check_cited` asserts, for each, that the file exists
(relative to the working folder or the repository, or absolute; a name printed through the
sanitiser is read back), that the line is at most its number of lines (lines as git counts
them: by LF; the empty line after a last newline counts, so the end of a file is a place)
and the column at most the line's length plus one (in characters). :data:`STATS` counts the
calls and cites checked (``tests/hostile/conftest.py`` reports them).
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from labelpool.cli import main

STATS = {"calls": 0, "cites": 0}

# a path (no blank, no colon; it holds a dot or a slash, so `12:30` is no cite; or a name
# such as `<string>`, which names no file), a line, a column, each cut by a colon; a
# revision may come first (`HEAD:labels/q1.yaml:3:5`)
CITE = re.compile(
    r"""(?:(?<=[\s('"`])|^)"""
    r"""(?:(?P<rev>[^\s:'"`()]+):)?"""
    r"""(?P<path><\w+>|(?!//)(?=[^\s:]*[./])[^\s:'"`()]+):(?P<line>\d+)(?::(?P<col>\d+))?"""
    r"""(?=[:\s),;'"`]|$)""",
    re.MULTILINE,
)
_ESCAPED = re.compile(r"\\x([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})")
_MARKDOWN = re.compile(r"\\([\\`*_\[\]|~#!])")


def _unescaped(shown: str) -> str:
    """A name as the sanitiser showed it, read back (``\\x1b`` -> ESC, ``#\\x23[`` -> ``##[``)."""
    return _ESCAPED.sub(lambda m: chr(int(m.group(1) or m.group(2) or m.group(3), 16)), shown)


def _spellings(shown: str) -> list[str]:
    out = [shown, _unescaped(shown), _unescaped(_MARKDOWN.sub(r"\1", shown))]
    return list(dict.fromkeys(out))


def _read(
    rev: str | None, shown: str, bases: list[Path], repo: Path | None
) -> tuple[str, bytes] | None:
    """(the file's name, its bytes) for a cited path (at ``rev`` when given), else None."""
    for name in _spellings(shown):
        if rev is not None:
            for base in [b for b in (repo, *bases) if b is not None]:
                proc = subprocess.run(
                    ["git", "cat-file", "blob", f"{rev}:{name}"],
                    cwd=base,
                    capture_output=True,
                    check=False,
                )
                if proc.returncode == 0:
                    return f"{rev}:{name}", proc.stdout
            continue
        for base in bases:
            path = Path(name) if os.path.isabs(name) else base / name
            kind = _kind(path)
            if kind == "file":
                return str(path), _content(path)
            if kind == "link":
                return str(path), b""  # a symlink's one place is 1:1 (LP037 cites it there)
    return None


def _kind(path: Path) -> str | None:
    """ "file", "link" (a symlink, followed or not), or None; a path too long for one system
    call is walked one folder at a time."""
    parts = [p for p in str(path).split("/") if p]
    fd = os.open("/" if path.is_absolute() else ".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        for part in parts[:-1]:
            try:
                new = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except OSError:
                return None
            os.close(fd)
            fd = new
        try:
            st = os.stat(parts[-1], dir_fd=fd, follow_symlinks=False)
        except OSError:
            return None
    finally:
        os.close(fd)
    if stat.S_ISLNK(st.st_mode):
        return "link"
    return "file" if stat.S_ISREG(st.st_mode) else None


def _content(path: Path) -> bytes:
    """The text a cite's line counts: a gzip file's decompressed (as much as there is)."""
    raw = path.read_bytes()
    if not path.name.endswith(".gz"):
        return raw
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        return inflate.decompress(raw)
    except zlib.error:
        return raw


def cites(text: str) -> list[re.Match[str]]:
    """Every ``path:line[:col]`` in ``text``."""
    return list(CITE.finditer(text))


def problem(match: re.Match[str], bases: list[Path], repo: Path | None) -> str | None:
    """Why the cite ``match`` names no real place (None: it does)."""
    line = int(match.group("line"))
    col = int(match.group("col")) if match.group("col") else None
    # a name with blanks: the cite's path may start before the blank the pattern stopped at
    text = match.string
    start = match.start("path")
    line_start = text.rfind("\n", 0, start) + 1
    heads = [start] + [i + 1 for i in range(start - 2, line_start - 1, -1) if text[i] == " "]
    found = None
    for head in heads[:4]:
        found = _read(match.group("rev"), text[head : match.end("path")], bases, repo)
        if found is not None:
            break
    if found is None:
        return f"{match.group()!r}: no such file"
    name, raw = found
    lines = raw.decode("utf-8", "surrogateescape").split("\n")
    if not 1 <= line <= len(lines):
        return f"{match.group()!r}: {name} has {len(lines)} lines (counting the one after the end)"
    if col is not None and not 1 <= col <= len(lines[line - 1]) + 1:
        return f"{match.group()!r}: line {line} of {name} has {len(lines[line - 1])} characters"
    return None


def check_cited(*texts: str, cwd: Path | None = None, repo: Path | None = None) -> int:
    """Assert that every position cited in ``texts`` exists; return how many were checked."""
    bases = [b for b in (cwd or Path.cwd(), repo) if b is not None]
    found = 0
    for text in texts:
        for match in cites(text):
            found += 1
            why = problem(match, bases, repo)
            assert why is None, f"a cited position does not exist: {why}\n{text}"
    STATS["calls"] += 1
    STATS["cites"] += found
    return found


def cli_in(root: Path, args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``labelpool ARGS`` in this process with ``root`` as the working folder: (exit code,
    stdout, stderr), never a traceback nor exit 70, every cited position checked."""
    capsys.readouterr()
    old = Path.cwd()
    os.chdir(root)
    try:
        code = main(list(args))
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        assert code != 70, err
        check_cited(out, err, cwd=root, repo=root)
    finally:
        os.chdir(old)
    return code, out, err


def checked_run(run: Callable[..., Any]) -> Callable[..., Any]:
    """``run`` (``faults.run``: a subprocess with faults, ``repo`` first) with every position
    cited in its outcome checked."""

    def call(repo: Path, *args: str, **kwargs: Any) -> Any:
        outcome = run(repo, *args, **kwargs)
        check_cited(outcome.out, outcome.err, repo=repo)
        return outcome

    return call


def lp(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> tuple[int, str, str]:
    """``labelpool ARGS --repo REPO`` in this process: (exit code, stdout, stderr), every
    position it cites checked."""
    capsys.readouterr()
    code = main([*args, "--repo", str(repo)])
    out, err = capsys.readouterr()
    check_cited(out, err, repo=repo)
    return code, out, err
