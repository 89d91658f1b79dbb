"""Git blob ids of the files of one folder, read from git where git vouches for them.

For a folder inside a git work tree, one ``git ls-files -s -v`` gives every tracked file's
blob id and one ``git diff-files --name-only`` names the tracked files whose working-tree
content may differ from it (git's own stat check, with its racy-timestamp rule: a file
written in the same second as the index is compared by content). A file git does not vouch
for is read and hashed here exactly as ``git hash-object --no-filters`` hashes it
(``sha1("blob <size>\\0" + bytes)``, or SHA-256 in a SHA-256 repository): untracked files,
dirty files, entries marked assume-unchanged or skip-worktree (git trusts them without
looking), unmerged entries, symbolic links. Where git could change a file's bytes on the way
in or out (``core.autocrlf``, an attributes file that applies to the folder), and
outside a git work tree, every file is hashed here: a blob id is then always the hash of the
bytes as they are.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from labelpool.gitio import GitError, git

SHA1 = "sha1"


@dataclass(frozen=True)
class Known:
    """What git vouches for: file name -> blob id of the folder's clean, tracked, regular
    files; the hash git uses (``sha1`` or ``sha256``)."""

    blobs: dict[str, str]
    algorithm: str = SHA1


def hash_bytes(raw: bytes, algorithm: str = SHA1) -> str:
    """``git hash-object --no-filters`` of ``raw``: the blob id of these bytes."""
    h = hashlib.new(algorithm)
    h.update(b"blob %d\0" % len(raw))
    h.update(raw)
    return h.hexdigest()


def blob_id_like(text: str, like: str) -> str:
    """The blob id of ``text`` (UTF-8) in the hash of the blob id ``like`` (SHA-1, SHA-256)."""
    return hash_bytes(text.encode("utf-8"), "sha256" if len(like) == 64 else SHA1)


def known(folder: Path) -> Known:
    """The blob ids git vouches for in ``folder`` (its own files, not subfolders'); none
    outside a git work tree, or where git could not be asked or could filter the bytes."""
    try:
        return _known(folder)
    except (OSError, ValueError, GitError):  # git missing or too old: every file is hashed
        return Known({})


def _known(folder: Path) -> Known:
    real = folder.resolve()
    probe = git(
        real,
        "rev-parse",
        "--show-toplevel",
        "--git-common-dir",
        "--show-object-format",
        check=False,
    )
    lines = os.fsdecode(probe).splitlines()
    if len(lines) != 3:  # not a work tree (or a bare folder), or a git without the option
        return Known({})
    top, common, algorithm = Path(lines[0]), real / lines[1], lines[2].strip()
    if algorithm not in ("sha1", "sha256"):
        return Known({})
    rel = os.path.relpath(real, top)
    if rel == ".." or rel.startswith("../"):
        return Known({}, algorithm)
    if _may_filter(top, real, common):
        return Known({}, algorithm)
    spec = "." if rel == "." else rel
    listed = git(top, "--literal-pathspecs", "ls-files", "-s", "-v", "-z", "--", spec)
    dirty = git(top, "--literal-pathspecs", "diff-files", "--name-only", "-z", "--", spec)
    prefix = "" if rel == "." else os.fsdecode(os.fsencode(rel)) + "/"
    # "H MODE ID 0\tPATH": only a cached (H), regular (100644/100755), merged (0) entry of a
    # file of the folder itself
    head = r"(?<![^\0])H 100(?:644|755) ([0-9a-f]+) 0\t"  # at a record's start
    entry = re.compile(head + re.escape(prefix) + r"([^/\0]+)\0")
    found = entry.findall(os.fsdecode(listed))
    blobs = {name: blob for blob, name in found}
    if dirty:
        for path in os.fsdecode(dirty).split("\0"):
            if path.startswith(prefix):
                blobs.pop(path[len(prefix) :], None)
    return Known(blobs, algorithm)


def _may_filter(top: Path, folder: Path, common: Path) -> bool:
    """Whether git could turn the folder's working-tree bytes into other blob bytes: an
    end-of-line conversion in the config, or an attributes file that could apply (a filter or
    ``text``/``eol`` attribute; a filter configured alone, as git-lfs installs, changes no
    file without one)."""
    found = git(
        top,
        "config",
        "-z",
        "--get-regexp",
        r"^core\.(autocrlf|attributesfile)$",
        check=False,
    )
    for entry in found.split(b"\0"):
        key, _, value = entry.partition(b"\n")
        if key == b"core.autocrlf" and value.strip().lower() in (b"false", b""):
            continue
        if key:
            return True
    home = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    attribute_files = [common / "info" / "attributes", home / "git" / "attributes"]
    here = folder
    while True:
        attribute_files.append(here / ".gitattributes")
        if here == top or here.parent == here:
            break
        here = here.parent
    return any(p.exists() for p in attribute_files)
