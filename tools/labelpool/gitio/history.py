"""What git remembers of lines and commits: ``blame`` in porcelain form, ``log``, commit
identities and trailers, the paths a range changed, and the ``log -p`` stream the attribution
walk reads."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from labelpool.gitio.core import (
    ZERO_COMMIT,
    GitError,
    _env,
    git,
    git_text,
    toplevel,
)

BLAME_IGNORE_FILE = ".git-blame-ignore-revs"


@dataclass(frozen=True)
class CommitInfo:
    """One commit as ``git log`` / ``git blame`` describe it."""

    commit: str
    author: str
    author_mail: str
    author_date: str  # ISO 8601 with the author's offset, e.g. 2026-12-02T10:15:00+01:00
    subject: str
    parents: tuple[str, ...] = ()

    @property
    def uncommitted(self) -> bool:
        return self.commit == ZERO_COMMIT


@dataclass(frozen=True)
class BlameLine:
    """One line of a file with the commit that last changed it (``git blame --porcelain``)."""

    line: int  # 1-based line number in the blamed version
    text: str  # the line without its newline
    info: CommitInfo

    @property
    def commit(self) -> str:
        return self.info.commit

    @property
    def author(self) -> str:
        return self.info.author


def _iso_time(epoch: str, tz: str) -> str:
    try:
        sign = -1 if tz.startswith("-") else 1
        hours, minutes = int(tz[1:3]), int(tz[3:5])
        offset = timezone(sign * timedelta(hours=hours, minutes=minutes))
        return datetime.fromtimestamp(int(epoch), offset).isoformat()
    except (ValueError, IndexError, OverflowError):
        return epoch


def parse_blame_porcelain(out: str) -> list[BlameLine]:
    """Parse ``git blame --porcelain`` (or ``--line-porcelain``) output into lines.

    Commit headers are printed only the first time a commit appears; later groups of the same
    commit reuse what was seen.
    """
    seen: dict[str, dict[str, str]] = {}
    lines: list[BlameLine] = []
    commit = ""
    final_line = 0
    for raw in out.split("\n"):
        if raw.startswith("\t"):
            fields = seen.setdefault(commit, {})
            info = CommitInfo(
                commit=commit,
                author=fields.get("author", ""),
                author_mail=fields.get("author-mail", "").strip("<>"),
                author_date=_iso_time(
                    fields.get("author-time", "0"), fields.get("author-tz", "+0000")
                ),
                subject=fields.get("summary", ""),
            )
            lines.append(BlameLine(line=final_line, text=raw[1:], info=info))
            continue
        head, _, rest = raw.partition(" ")
        if len(head) in (40, 64) and all(c in "0123456789abcdef" for c in head):
            parts = rest.split()
            if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
                commit = head
                final_line = int(parts[1])
                seen.setdefault(commit, {})
                continue
        if head and commit:
            seen[commit].setdefault(head, rest)
    return lines


def ignore_revs_file(top: Path) -> Path | None:
    """``.git-blame-ignore-revs`` at the work tree's top level, when it exists."""
    path = top / BLAME_IGNORE_FILE
    return path if path.is_file() else None


def blame(
    cwd: Path, path: str, rev: str | None = None, ignore_revs: bool = True
) -> list[BlameLine]:
    """``git blame --porcelain`` of ``path`` (relative to ``cwd``) at ``rev`` (default: the
    working tree), honouring ``.git-blame-ignore-revs`` at the top level when ``ignore_revs``.

    Uncommitted lines carry :data:`ZERO_COMMIT` (``CommitInfo.uncommitted``).
    """
    args = ["blame", "--porcelain"]
    top = toplevel(cwd)
    ignore_file = ignore_revs_file(top) if ignore_revs and top is not None else None
    if ignore_file is not None:
        args += ["--ignore-revs-file", str(ignore_file)]
    if rev is not None:
        args.append(rev)
    args += ["--", path]
    return parse_blame_porcelain(git_text(cwd, *args))


_LOG_FORMAT = "%x1e%H%x00%P%x00%an%x00%ae%x00%aI%x00%s"


def log(
    cwd: Path, *paths: str, rev: str = "HEAD", no_merges: bool = True, reverse: bool = False
) -> list[CommitInfo]:
    """Commits reachable from ``rev`` that changed ``paths`` (newest first unless ``reverse``)."""
    args = ["log", f"--format={_LOG_FORMAT}", "--topo-order"]
    if no_merges:
        args.append("--no-merges")
    if reverse:
        args.append("--reverse")
    args += [rev, "--", *paths]
    out: list[CommitInfo] = []
    for record in git_text(cwd, *args).split("\x1e"):
        record = record.strip("\n")
        if not record:
            continue
        fields = record.split("\x00")
        if len(fields) < 6:
            continue
        commit, parents, author, mail, date, subject = fields[:6]
        out.append(
            CommitInfo(
                commit=commit,
                author=author,
                author_mail=mail,
                author_date=date,
                subject=subject,
                parents=tuple(parents.split()),
            )
        )
    return out


def changed_paths(cwd: Path, rev: str, rev2: str | None, path: str) -> set[str]:
    """Files under ``path`` (relative to the top level) that differ between ``rev`` and ``rev2``
    (``None``: the working tree, untracked files included), as paths from the top level."""
    spec = [rev] if rev2 is None else [rev, rev2]
    out = git(cwd, "diff", "--name-only", "-z", "--no-renames", "--no-relative", *spec, "--", path)
    names = {n.decode("utf-8", "surrogateescape") for n in out.split(b"\x00") if n}
    if rev2 is None:
        extra = git(
            cwd, "ls-files", "-z", "--others", "--exclude-standard", "--full-name", "--", path
        )
        names |= {n.decode("utf-8", "surrogateescape") for n in extra.split(b"\x00") if n}
    return names


def changed_blobs(
    cwd: Path, rev: str, rev2: str, path: str
) -> dict[str, tuple[str | None, str | None]]:
    """Files under ``path`` (relative to the top level) that differ between the commits
    ``rev`` and ``rev2``, each with its blob id at ``rev`` and at ``rev2`` (None where it is
    no file: absent, or a submodule), from one ``git diff-tree``: what ``git ls-tree`` of both
    commits would say of them, at the cost of the change, not of the trees."""
    out = git(
        cwd, "diff-tree", "-r", "-z", "--raw", "--no-abbrev", "--no-renames", "--no-relative",
        rev, rev2, "--", path,
    )  # fmt: skip
    fields = out.split(b"\x00")
    found: dict[str, tuple[str | None, str | None]] = {}
    for meta, name in zip(fields[0:-1:2], fields[1::2], strict=True):
        mode, mode2, blob, blob2 = meta.lstrip(b":").split()[:4]
        found[name.decode("utf-8", "surrogateescape")] = (
            _blob_or_none(mode, blob),
            _blob_or_none(mode2, blob2),
        )
    return found


def _blob_or_none(mode: bytes, blob: bytes) -> str | None:
    """A raw diff's side: its blob id, None for no file (mode 000000) or a submodule."""
    return None if mode in (b"000000", b"160000") else blob.decode()


def commit_idents(cwd: Path, commits: list[str]) -> dict[str, tuple[str, str, str]]:
    """``commit -> (author name, author email, raw message)`` for many commits at once (ids on
    stdin); names and emails through ``.mailmap``, as ``git blame`` shows them."""
    if not commits:
        return {}
    out = git(
        cwd,
        "log",
        "--no-walk=unsorted",
        "--stdin",
        "--format=%H%x00%aN%x00%aE%x00%B%x00%x1e",
        input_bytes="".join(c + "\n" for c in commits).encode(),
    )
    idents: dict[str, tuple[str, str, str]] = {}
    for record in out.decode("utf-8", "replace").split("\x00\x1e"):
        fields = record.lstrip("\n").split("\x00")
        if len(fields) == 4:
            idents[fields[0]] = (fields[1], fields[2], fields[3])
    return idents


def trailers(cwd: Path, message: str) -> list[tuple[str, str]]:
    """``(key, value)`` of every trailer of a commit message, as ``git interpret-trailers
    --parse`` reads them (``:`` the one separator, whatever the configuration says)."""
    out = git(
        cwd,
        "-c",
        "trailer.separators=:",
        "interpret-trailers",
        "--parse",
        input_bytes=message.encode("utf-8", "surrogateescape"),
    )
    pairs = []
    for line in out.decode("utf-8", "replace").splitlines():
        key, sep, value = line.partition(":")
        if sep:
            pairs.append((key.strip(), value.strip()))
    return pairs


# ``git log -p`` / ``git diff`` read for line attribution: fixed, configuration-proof options
# (no colour, no external diff or textconv, every file as text, zero context, no renames,
# quoted paths with a/ and b/ prefixes).
PATCH_OPTIONS = (
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--text",
    "-U0",
    "--inter-hunk-context=0",
    "--no-renames",
    "--src-prefix=a/",
    "--dst-prefix=b/",
)


@contextmanager
def stream(cwd: Path, *args: str) -> Iterator[Iterator[bytes]]:
    """``git args`` whose stdout is read line by line while git runs; leaving the block
    early stops git. A failure of git read to the end is a :class:`GitError`."""
    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(
                ["git", "-c", "core.quotePath=true", *args],
                cwd=cwd,
                stdout=subprocess.PIPE,
                stderr=err,
                env=_env(),
            )
        except FileNotFoundError:
            raise GitError("git is not installed (needed for this command)") from None
        assert proc.stdout is not None
        finished = False
        try:
            yield iter(proc.stdout)
            finished = proc.stdout.read(1) == b""
        finally:
            if not finished:
                proc.kill()
            proc.stdout.close()
            code = proc.wait()
        if finished and code != 0:
            err.seek(0)
            message = err.read().decode("utf-8", "replace").strip()
            raise GitError(f"git {' '.join(args)}: {message}")


def renamed_into(cwd: Path, old: str, new: str) -> set[str]:
    """Paths (from the top level) that ``git diff -M old new`` finds renamed or copied."""
    out = git(cwd, "diff", "--no-ext-diff", "-M", "--name-status", "-z", "--no-relative", old, new)
    fields = out.split(b"\x00")
    found: set[str] = set()
    i = 0
    while i < len(fields) and fields[i]:
        status = fields[i][:1]
        if status in (b"R", b"C"):
            found.add(fields[i + 2].decode("utf-8", "surrogateescape"))
            i += 3
        else:
            i += 2
    return found
