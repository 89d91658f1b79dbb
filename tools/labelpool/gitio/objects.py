"""Commits built as git objects (merge, pool): blobs, trees through a temporary index, a chain
of ``commit-tree``; nothing here touches a branch, the index or the working tree except
:func:`update_ref`, :func:`set_head` and :func:`set_index`, and every path travels on stdin."""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from labelpool.gitio.core import (
    ZERO_COMMIT,
    GitError,
    _env,
    git,
    git_text,
    ref_value,
)


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


def write_blobs(cwd: Path, contents: list[bytes]) -> list[str]:
    """Store every content as a blob (one ``git fast-import``, fed one blob at a time: the
    stream is never held whole); their ids, in order."""
    if not contents:
        return []

    def stream() -> Iterator[bytes]:
        for i, data in enumerate(contents, start=1):
            yield b"blob\nmark :%d\ndata %d\n" % (i, len(data))
            yield data
            yield b"\nget-mark :%d\n" % i
        yield b"done\n"

    out = _git_fed(cwd, ["fast-import", "--quiet", "--done"], stream())
    ids = out.decode().split()
    if len(ids) != len(contents):
        raise GitError(f"git fast-import returned {len(ids)} ids for {len(contents)} blobs")
    return ids


def _git_fed(cwd: Path, args: list[str], chunks: Iterable[bytes]) -> bytes:
    """:func:`git` with stdin written chunk by chunk as they come (never joined in memory);
    stdout and stderr are read by threads meanwhile, so that neither pipe fills and stops
    git while it waits for more input."""
    try:
        proc = subprocess.Popen(
            ["git", *args],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_env(),
        )
    except FileNotFoundError:
        raise GitError("git is not installed (needed for this command)") from None
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    got: dict[str, bytes] = {}
    readers = [
        threading.Thread(target=lambda n=n, f=f: got.__setitem__(n, f.read()), daemon=True)
        for n, f in (("out", proc.stdout), ("err", proc.stderr))
    ]
    for r in readers:
        r.start()
    try:
        for chunk in chunks:
            proc.stdin.write(chunk)
        proc.stdin.close()
    except BrokenPipeError:
        pass  # git stopped reading: its exit code and stderr say why
    finally:
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.close()
        for r in readers:
            r.join()
        proc.stdout.close()
        proc.stderr.close()
    if proc.wait() != 0:
        message = got.get("err", b"").decode("utf-8", "replace").strip()
        raise GitError(f"git {' '.join(args)}: {message}")
    return got.get("out", b"")


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


def _entries(out: bytes, column: int, value: bytes, blob: int) -> dict[str, tuple[str, str]]:
    """``path -> (mode, blob id)`` of NUL-separated ``META\tPATH`` records whose three-field
    meta holds ``value`` at ``column`` and the blob id at ``blob``."""
    entries: dict[str, tuple[str, str]] = {}
    for entry in out.split(b"\x00"):
        meta, _, name = entry.partition(b"\t")
        parts = meta.split()
        if len(parts) == 3 and parts[column] == value:
            entries[name.decode("utf-8", "surrogateescape")] = (
                parts[0].decode(),
                parts[blob].decode(),
            )
    return entries


def tree_entries(top: Path, rev: str, path: str) -> dict[str, tuple[str, str]]:
    """``path -> (mode, blob id)`` of every file under ``path`` at ``rev``."""
    out = git(top, "ls-tree", "-r", "-z", "--full-tree", rev, "--", path)
    return _entries(out, 1, b"blob", 2)  # MODE blob ID


def index_entries(top: Path, path: str) -> dict[str, tuple[str, str]]:
    """``path -> (mode, blob id)`` of the index's entries under ``path`` (stage 0)."""
    out = git(top, "ls-files", "-s", "-z", "--full-name", "--", path)
    return _entries(out, 2, b"0", 1)  # MODE ID STAGE


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


def reset_paths(top: Path, rev: str, paths: list[str]) -> None:
    """The index entries of ``paths`` as at ``rev`` (absent there: removed from the index);
    the working tree untouched (``git reset REV`` with the paths on stdin)."""
    if paths:
        git(
            top,
            "--literal-pathspecs",
            "reset",
            "-q",
            "--pathspec-from-file=-",
            "--pathspec-file-nul",
            rev,
            input_bytes=b"".join(p.encode("utf-8", "surrogateescape") + b"\x00" for p in paths),
        )


def commit_paths(
    top: Path, paths: list[str], message: str, identity: tuple[str, str] | None = None
) -> str:
    """``git commit --only`` of ``paths`` (relative to ``top``, on stdin) with ``message``:
    the working-tree content of those files and nothing else the index holds; hooks run; the
    author and committer are the local git identity, or ``identity`` (name, email) when
    given. Returns the new commit id. A refusal is a :class:`GitError` ``git commit: <git's
    message>``, without the command line (the commit message it holds names the batch, which
    the judging page must not show)."""
    if not paths:
        raise GitError("nothing to commit")
    who = (
        {}
        if identity is None
        else {
            "GIT_AUTHOR_NAME": identity[0],
            "GIT_AUTHOR_EMAIL": identity[1],
            "GIT_COMMITTER_NAME": identity[0],
            "GIT_COMMITTER_EMAIL": identity[1],
        }
    )
    args = (
        "--literal-pathspecs",
        "commit",
        "--only",
        "--quiet",
        "--pathspec-from-file=-",
        "--pathspec-file-nul",
        "-m",
        message,
    )
    try:
        _git_env(
            top,
            *args,
            input_bytes=b"".join(p.encode("utf-8", "surrogateescape") + b"\x00" for p in paths),
            env=who,
        )
    except GitError as exc:
        said = str(exc).removeprefix(f"git {' '.join(args)}: ")
        raise GitError(f"git commit: {said}") from None
    return git_text(top, "rev-parse", "HEAD").strip()
