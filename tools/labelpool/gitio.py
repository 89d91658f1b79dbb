"""Every git call labelpool makes, behind small functions.

All calls go through :func:`git`, which runs ``git`` with a fixed, locale-free environment and
turns a failure into :class:`GitError` (its message is git's own stderr).
"""

from __future__ import annotations

import functools
import os
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from labelpool.errors import StateError


class GitError(StateError):
    """A git command failed; ``str()`` says which and why."""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"LC_ALL": "C", "LANG": "C", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat"})
    return env


def git(cwd: Path, *args: str, input_bytes: bytes | None = None, check: bool = True) -> bytes:
    """Run ``git args`` in ``cwd`` and return its stdout (raises GitError on failure)."""
    try:
        proc = subprocess.run(
            ["git", *args],
            cwd=cwd,
            input=input_bytes,
            capture_output=True,
            env=_env(),
            check=False,
        )
    except FileNotFoundError:
        raise GitError("git is not installed (needed for this command)") from None
    if check and proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip()
        raise GitError(f"git {' '.join(args)}: {message}")
    return proc.stdout


def git_text(cwd: Path, *args: str) -> str:
    return git(cwd, *args).decode("utf-8", "replace")


def _probe(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """Run ``git args`` in ``cwd`` whose failure is an answer, not an error."""
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, env=_env(), check=False)


def _stdout_if_ok(proc: subprocess.CompletedProcess[bytes]) -> str | None:
    return proc.stdout.decode().strip() or None if proc.returncode == 0 else None


def toplevel(path: Path) -> Path | None:
    """The work tree holding ``path``, or None when it is not in a git repository."""
    proc = _probe(path if path.is_dir() else path.parent, "rev-parse", "--show-toplevel")
    if proc.returncode != 0:
        return None
    return Path(proc.stdout.decode().strip())


def head_commit(cwd: Path) -> str | None:
    """``HEAD``'s commit id, or None outside a repository or before the first commit."""
    return _stdout_if_ok(_probe(cwd, "rev-parse", "--verify", "-q", "HEAD"))


def is_dirty(cwd: Path, paths: tuple[str, ...] = ()) -> bool:
    """True when tracked or untracked (not ignored) changes exist (under ``paths``)."""
    out = git(cwd, "status", "--porcelain", "--untracked-files=normal", "--", *paths)
    return bool(out.strip())


def show(cwd: Path, rev: str, path: str) -> bytes | None:
    """Content of ``path`` (relative to the top level) at ``rev``; None when it is absent there."""
    proc = _probe(cwd, "show", f"{rev}:{path}")
    return proc.stdout if proc.returncode == 0 else None


def blob_id(cwd: Path, path: Path) -> str:
    """The git blob id of a file's current content (``git hash-object``)."""
    return git_text(cwd, "hash-object", "--", str(path)).strip()


# --- blame and log (history, diff, merge) -----------------------------------------------------

ZERO_COMMIT = "0" * 40
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


def rev_parse(cwd: Path, rev: str) -> str:
    """The commit id ``rev`` names (raises GitError when it names no commit)."""
    proc = _probe(cwd, "rev-parse", "--verify", "-q", "--end-of-options", f"{rev}^{{commit}}")
    if proc.returncode != 0:
        raise GitError(f"{rev!r} is not a commit in this repository")
    return proc.stdout.decode().strip()


def ls_tree(cwd: Path, rev: str, path: str) -> dict[str, str]:
    """Blob id of every file under ``path`` (relative to the top level) at ``rev``."""
    out = git(cwd, "ls-tree", "-r", "-z", "--full-tree", rev, "--", path)
    blobs: dict[str, str] = {}
    for entry in out.split(b"\x00"):
        if not entry:
            continue
        meta, _, name = entry.partition(b"\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == b"blob":
            blobs[name.decode("utf-8", "surrogateescape")] = parts[2].decode()
    return blobs


def cat_blobs(cwd: Path, specs: list[str]) -> list[bytes | None]:
    """Contents of many objects at once (``git cat-file --batch``): blob ids or ``rev:path``.

    None for a spec that names nothing (e.g. a file absent at that revision).
    """
    if not specs:
        return []
    if any("\n" in s for s in specs):
        raise GitError("object names must not contain a newline")
    out = git(cwd, "cat-file", "--batch", input_bytes="".join(s + "\n" for s in specs).encode())
    result: list[bytes | None] = []
    pos = 0
    for _ in specs:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if len(header) == 3 and header[2].isdigit():
            size = int(header[2])
            result.append(out[pos : pos + size] if header[1] == b"blob" else None)
            pos += size + 1
        else:  # "<spec> missing" / "ambiguous"
            result.append(None)
    return result


# --- branches and commits (pool, merge) --------------------------------------------------------


def branch_exists(cwd: Path, name: str) -> bool:
    return _probe(cwd, "show-ref", "--verify", "-q", f"refs/heads/{name}").returncode == 0


def check_branch_name(cwd: Path, name: str) -> bool:
    """True when ``name`` is a valid branch name (``git check-ref-format --branch``)."""
    return _probe(cwd, "check-ref-format", "--branch", name).returncode == 0


# commits built as git objects (merge, pool): nothing here touches a branch, the index or the
# working tree except update_ref, set_head and set_index; every path travels on stdin.


def _git_env(
    cwd: Path, *args: str, input_bytes: bytes | None = None, env: dict[str, str] | None = None
) -> bytes:
    """:func:`git` with extra environment variables (a temporary index, an author)."""
    full = _env()
    full.update(env or {})
    try:
        proc = subprocess.run(
            ["git", *args], cwd=cwd, input=input_bytes, capture_output=True, env=full, check=False
        )
    except FileNotFoundError:
        raise GitError("git is not installed (needed for this command)") from None
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip()
        raise GitError(f"git {' '.join(args)}: {message}")
    return proc.stdout


@functools.lru_cache(maxsize=16)
def git_dir(cwd: Path) -> Path:
    """The repository's git folder (``.git``, or a worktree's own folder); remembered per
    folder for the life of the process."""
    return Path(git_text(cwd, "rev-parse", "--absolute-git-dir").strip())


def head_ref(cwd: Path) -> str:
    """The ref ``HEAD`` points to (``refs/heads/main``), or ``HEAD`` when detached."""
    return _stdout_if_ok(_probe(cwd, "symbolic-ref", "-q", "HEAD")) or "HEAD"


def ref_value(cwd: Path, ref: str) -> str | None:
    """The commit ``ref`` (a full ref name) points to, None when it does not exist."""
    return _stdout_if_ok(_probe(cwd, "rev-parse", "-q", "--verify", f"{ref}^{{commit}}"))


def write_blobs(cwd: Path, contents: list[bytes]) -> list[str]:
    """Store every content as a blob (one ``git fast-import``); their ids, in order."""
    if not contents:
        return []
    stream = bytearray()
    for i, data in enumerate(contents, start=1):
        stream += b"blob\nmark :%d\ndata %d\n" % (i, len(data))
        stream += data
        stream += b"\nget-mark :%d\n" % i
    out = git(cwd, "fast-import", "--quiet", "--done", input_bytes=bytes(stream) + b"done\n")
    ids = out.decode().split()
    if len(ids) != len(contents):
        raise GitError(f"git fast-import returned {len(ids)} ids for {len(contents)} blobs")
    return ids


def hash_files(top: Path, paths: list[str]) -> list[str]:
    """Blob id of each file's bytes as they are (no filters); paths relative to ``top``."""
    if not paths:
        return []
    out = git(
        top, "hash-object", "--no-filters", "--stdin-paths", input_bytes=_lines(paths)
    ).split()
    return [h.decode() for h in out]


def _lines(paths: list[str]) -> bytes:
    if any("\n" in p for p in paths):
        raise GitError("a path with a newline cannot be passed to git")
    return "".join(p + "\n" for p in paths).encode("utf-8", "surrogateescape")


def tree_entries(top: Path, rev: str, path: str) -> dict[str, tuple[str, str]]:
    """``path -> (mode, blob id)`` of every file under ``path`` at ``rev``."""
    out = git(top, "ls-tree", "-r", "-z", "--full-tree", rev, "--", path)
    entries: dict[str, tuple[str, str]] = {}
    for entry in out.split(b"\x00"):
        meta, _, name = entry.partition(b"\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == b"blob":
            entries[name.decode("utf-8", "surrogateescape")] = (
                parts[0].decode(),
                parts[2].decode(),
            )
    return entries


def index_entries(top: Path, path: str) -> dict[str, tuple[str, str]]:
    """``path -> (mode, blob id)`` of the index's entries under ``path`` (stage 0)."""
    out = git(top, "ls-files", "-s", "-z", "--full-name", "--", path)
    entries: dict[str, tuple[str, str]] = {}
    for entry in out.split(b"\x00"):
        meta, _, name = entry.partition(b"\t")
        parts = meta.split()
        if len(parts) == 3 and parts[2] == b"0":
            entries[name.decode("utf-8", "surrogateescape")] = (
                parts[0].decode(),
                parts[1].decode(),
            )
    return entries


def _index_info(entries: list[tuple[str, str, str]]) -> bytes:
    if any("\x00" in p for _, _, p in entries):
        raise GitError("a path with a NUL byte cannot be passed to git")
    return b"".join(
        f"{mode} {blob}\t{path}\x00".encode("utf-8", "surrogateescape")
        for mode, blob, path in entries
    )


def build_commits(
    top: Path,
    index_file: Path,
    base: str,
    steps: list[tuple[list[tuple[str, str, str]], str, tuple[str, str] | None]],
) -> list[str]:
    """A chain of commits on ``base``, one per step ``(entries, message, author)``: each
    step's ``(mode, blob, path)`` entries replace those paths in the previous tree (a
    temporary index at ``index_file``); ``author`` None is whoever runs this (the committer
    always is). Returns the commits, in order; no ref moves."""
    env = {"GIT_INDEX_FILE": str(index_file)}
    index_file.unlink(missing_ok=True)
    try:
        _git_env(top, "read-tree", base, env=env)
        parent = base
        commits: list[str] = []
        for entries, message, author in steps:
            _git_env(
                top, "update-index", "-z", "--index-info", input_bytes=_index_info(entries), env=env
            )
            tree = _git_env(top, "write-tree", env=env).decode().strip()
            who = (
                {}
                if author is None
                else {"GIT_AUTHOR_NAME": author[0], "GIT_AUTHOR_EMAIL": author[1]}
            )
            parent = (
                _git_env(
                    top,
                    "commit-tree",
                    tree,
                    "-p",
                    parent,
                    "-F",
                    "-",
                    input_bytes=message.encode("utf-8"),
                    env=who,
                )
                .decode()
                .strip()
            )
            commits.append(parent)
        return commits
    finally:
        index_file.unlink(missing_ok=True)


def tree_of(top: Path, rev: str) -> str:
    return git_text(top, "rev-parse", f"{rev}^{{tree}}").strip()


def update_ref(top: Path, ref: str, new: str, old: str, reason: str) -> bool:
    """Move ``ref`` to ``new`` if it still is at ``old`` (:data:`ZERO_COMMIT` for ``old``: if
    it does not exist; for ``new``: delete it); False, and nothing changed, when it is not."""
    try:
        if new == ZERO_COMMIT:
            git(top, "update-ref", "-m", reason, "-d", ref, old)
        else:
            git(top, "update-ref", "-m", reason, ref, new, old)
    except GitError:
        if (ref_value(top, ref) or ZERO_COMMIT) != old:
            return False
        raise
    return True


def set_head(top: Path, ref: str) -> None:
    """Point ``HEAD`` at the branch ``ref`` (``refs/heads/...``); index and tree untouched."""
    git(top, "symbolic-ref", "HEAD", ref)


def set_index(top: Path, entries: list[tuple[str, str, str]]) -> None:
    """Set the index entries of these ``(mode, blob, path)`` (no other entry changes)."""
    if entries:
        git(top, "update-index", "-z", "--index-info", input_bytes=_index_info(entries))


def user_identity(cwd: Path) -> tuple[str, str]:
    """``(user.name, user.email)`` from git config (empty strings when unset)."""
    name = git(cwd, "config", "user.name", check=False).decode("utf-8", "replace").strip()
    mail = git(cwd, "config", "user.email", check=False).decode("utf-8", "replace").strip()
    return name, mail


# --- changed files (diff) ----------------------------------------------------------------------


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


# attribution: trailers, shallow, log walk ------------------------------------------------------


def is_shallow(cwd: Path) -> bool:
    """True in a shallow clone (``git rev-parse --is-shallow-repository``)."""
    return _stdout_if_ok(_probe(cwd, "rev-parse", "--is-shallow-repository")) == "true"


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


# --- a commit of some files, hooks included (judge) --------------------------------------------


def commit_paths(top: Path, paths: list[str], message: str) -> str:
    """``git commit --only`` of ``paths`` (relative to ``top``, on stdin) with ``message``:
    the working-tree content of those files and nothing else the index holds; hooks run; the
    author is the local git identity. Returns the new commit id."""
    if not paths:
        raise GitError("nothing to commit")
    git(
        top,
        "--literal-pathspecs",
        "commit",
        "--only",
        "--quiet",
        "--pathspec-from-file=-",
        "--pathspec-file-nul",
        "-m",
        message,
        input_bytes=b"".join(p.encode("utf-8", "surrogateescape") + b"\x00" for p in paths),
    )
    return git_text(top, "rev-parse", "HEAD").strip()
