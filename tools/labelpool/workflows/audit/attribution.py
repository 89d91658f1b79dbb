"""Who wrote a line: the author and co-authors of the commit that last changed it.

The rule (``merge``'s judges, ``history``'s co-authors): a line's author is the author of the
commit ``git blame`` names for it (honouring ``.git-blame-ignore-revs`` and
``blame.ignoreRevsFile``; names and emails through ``.mailmap``); its co-authors are that
commit's ``Co-authored-by:`` trailers, read with ``git interpret-trailers --parse``,
de-duplicated by email (case-insensitively, the first spelling kept; the author's own email
dropped) and sorted by (name, email). A line not committed yet has no commit
(:data:`~labelpool.gitio.ZERO_COMMIT`). A shallow clone cannot say who wrote anything
(``git blame`` credits the boundary commit with every older line): :func:`refuse_shallow`.

:func:`attribute` answers for many lines of many files with one ``git log -p`` walk instead of
one ``git blame`` per file (13-50 ms each: minutes at 10,000 files). It replays blame's own
rules backwards from the working tree, newest commit first (``--topo-order``, children before
parents), on zero-context diffs:

* working tree against ``HEAD`` (``git diff HEAD``): a line inside an added range is not
  committed; any other line moves to its number in ``HEAD``;
* a commit that changed the file: a line inside an added range is that commit's; any other
  line moves to its number in the parent;
* a commit that did not change the file (and a merge whose file equals one parent's, the first
  such parent): every line moves to that parent unchanged;
* a merge whose file differs from every parent (``git diff PARENT MERGE`` per parent): a line
  unchanged against a parent moves to the first such parent.

The walk stops as soon as every line has its commit. Where blame's answer rests on something
the walk does not replay, the file falls back to ``git blame`` (same answer, one call per such
file): a line changed by a commit listed in the ignore-revs files (blame then guesses the
line's origin), a line a merge commit changed against every parent (an evil merge or a
conflict resolution), a line reached at the commit that created the file by a rename or a copy
(blame follows it), a file not in ``HEAD``, and every file when an ignore-revs file cannot be read.
The property test in ``tests/unit/workflows/test_attribution.py`` holds the walk to blame on
real histories with rebases, merges, co-authors and ignored revisions.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from labelpool import gitio

SHALLOW = "shallow clone: verdict authors cannot be read; run git fetch --unshallow"
CoAuthors = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Author:
    """Who wrote one line: the commit's author and its co-authors (no commit: uncommitted)."""

    commit: str
    name: str
    email: str
    co_authors: CoAuthors = ()

    @property
    def uncommitted(self) -> bool:
        return self.commit == gitio.ZERO_COMMIT


@dataclass(frozen=True)
class Attribution:
    """The answer of :func:`attribute` for every path asked about."""

    lines: dict[str, dict[int, Author]]  # path -> line -> author (committed lines only)
    uncommitted: dict[str, frozenset[int]]  # path -> lines not committed yet
    unreadable: dict[str, gitio.GitError] = field(default_factory=dict)  # blame failed
    blamed: frozenset[str] = frozenset()  # paths answered by ``git blame``, not the walk


def is_shallow(root: Path) -> bool:
    return gitio.toplevel(root) is not None and gitio.is_shallow(root)


# --- co-authors ---------------------------------------------------------------------------------

_IDENT = re.compile(r"^(?P<name>.*?)\s*<(?P<email>[^<>]*)>$")
_CO_AUTHOR = "co-authored-by"


def co_authors_of(message: str, author_email: str, top: Path) -> CoAuthors:
    """The ``Co-authored-by:`` trailers of one commit message (see the module doc)."""
    if _CO_AUTHOR not in message.lower():
        return ()
    seen = {author_email.casefold()}
    found: list[tuple[str, str]] = []
    for key, value in gitio.trailers(top, message):
        if key.lower() != _CO_AUTHOR:
            continue
        match = _IDENT.match(value.strip())
        if match is None or not match.group("email").strip():
            continue
        name, email = match.group("name").strip(), match.group("email").strip()
        if email.casefold() in seen:
            continue
        seen.add(email.casefold())
        found.append((name, email))
    return tuple(sorted(found))


def authors_of(top: Path, commits: Iterable[str]) -> dict[str, Author]:
    """``commit -> Author`` (name, email and co-authors) for many commits at once."""
    wanted = sorted({c for c in commits if c != gitio.ZERO_COMMIT})
    out: dict[str, Author] = {}
    for commit, (name, email, message) in gitio.commit_idents(top, wanted).items():
        out[commit] = Author(commit, name, email, co_authors_of(message, email, top))
    return out


def refuse_if_shallow(root: Path, error: type[Exception]) -> None:
    """Raise ``error(SHALLOW)`` in a shallow clone (before anything is read or written)."""
    if is_shallow(root):
        raise error(SHALLOW)


# --- the walk -----------------------------------------------------------------------------------


@dataclass
class _FileDiff:
    created: bool = False
    hunks: list[tuple[int, int, int, int]] = field(default_factory=list)  # old, n, new, n

    def split(
        self, pairs: list[tuple[int, int]]
    ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """``(target, line)`` pairs of this side of the diff -> (those inside an added range,
        the others with ``line`` moved to the other side's numbering); one pass over both."""
        if self.created:
            return list(pairs), []
        own: list[tuple[int, int]] = []
        moved: list[tuple[int, int]] = []
        hunks, h, shift = self.hunks, 0, 0
        for target, line in sorted(pairs, key=lambda p: p[1]):
            while h < len(hunks) and line >= hunks[h][2] + max(hunks[h][3], 1):
                shift += hunks[h][3] - hunks[h][1]
                h += 1
            if h < len(hunks) and hunks[h][3] and hunks[h][2] <= line:
                own.append((target, line))
            else:
                moved.append((target, line - shift))
        return own, moved


_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_ESCAPES = {b"a": 7, b"b": 8, b"t": 9, b"n": 10, b"v": 11, b"f": 12, b"r": 13}


def _unquote(raw: bytes) -> str:
    """A path as git prints it in a diff header (C-quoted when it has special bytes)."""
    if not raw.startswith(b'"'):
        return raw.decode("utf-8", "surrogateescape")
    out = bytearray()
    i, body = 0, raw[1:-1]
    while i < len(body):
        c = body[i : i + 1]
        if c == b"\\":
            nxt = body[i + 1 : i + 2]
            if nxt.isdigit():
                out.append(int(body[i + 1 : i + 4], 8))
                i += 4
                continue
            out += bytes([_ESCAPES[nxt]]) if nxt in _ESCAPES else nxt
            i += 2
            continue
        out += c
        i += 1
    return out.decode("utf-8", "surrogateescape")


def _parse_diff(lines: Iterable[bytes]) -> dict[str, _FileDiff]:
    """Zero-context diff output (``gitio.PATCH_OPTIONS``) -> path -> its hunks."""
    files: dict[str, _FileDiff] = {}
    current: _FileDiff | None = None
    created = False
    body = 0  # lines of the current hunk still to come (its own lines start with + - or space)
    for raw in lines:
        if body:
            if raw[:1] in (b"+", b"-", b" "):
                body -= 1
            continue
        if raw.startswith(b"@@"):
            match = _HUNK.match(raw)
            if match and current is not None:
                os_, on, ns, nn = match.groups()
                old_n = 1 if on is None else int(on)
                new_n = 1 if nn is None else int(nn)
                current.hunks.append((int(os_), old_n, int(ns), new_n))
                body = old_n + new_n
        elif raw.startswith(b"diff --git "):
            current, created = None, False
        elif raw.startswith(b"new file mode"):
            created = True
        elif raw.startswith(b"+++ "):
            name = raw[4:].rstrip(b"\n")
            if name.endswith(b"\t"):  # git ends a name holding a blank with a tab
                name = name[:-1]
            if name != b"/dev/null":
                path = _unquote(name)
                path = path[2:] if path.startswith("b/") else path
                current = files.setdefault(path, _FileDiff(created=created))
    return files


class _Walk:
    """The state of one walk: lines waiting at a commit, answers, files for blame."""

    def __init__(self, top: Path, ignored: Collection[str]) -> None:
        self.top = top
        self._renames: dict[str, set[str]] = {}
        self.waiting: dict[str, dict[str, list[tuple[int, int]]]] = {}
        self.found: dict[str, dict[int, str]] = {}
        self.blame: set[str] = set()
        self.ignored = ignored

    def wait(self, commit: str, path: str, pairs: list[tuple[int, int]]) -> None:
        if pairs and path not in self.blame:
            self.waiting.setdefault(commit, {}).setdefault(path, []).extend(pairs)

    def give(self, commit: str, path: str, target: int) -> None:
        self.found.setdefault(path, {})[target] = commit

    def renamed(self, commit: str, parent: str) -> set[str]:
        """Paths ``commit`` created by a rename or copy, as blame's rename search finds them
        (whole tree, default rename detection)."""
        if commit not in self._renames:
            self._renames[commit] = gitio.renamed_into(self.top, parent, commit)
        return self._renames[commit]

    def non_merge(self, commit: str, parents: list[str], files: dict[str, _FileDiff]) -> None:
        for path, pairs in self.waiting.pop(commit, {}).items():
            if path in self.blame:
                continue
            diff = files.get(path)
            if diff is None:  # not changed here: every line moves to the parent
                if not parents:
                    self.blame.add(path)
                else:
                    self.wait(parents[0], path, pairs)
                continue
            if diff.created and parents and path in self.renamed(commit, parents[0]):
                self.blame.add(path)  # blame follows the rename: so does it, in blame
                continue
            own, moved = diff.split(pairs)
            if own and commit in self.ignored:
                self.blame.add(path)  # blame guesses where an ignored commit's line came from
                continue
            for target, _ in own:
                self.give(commit, path, target)
            if parents:
                self.wait(parents[0], path, moved)
            elif moved:
                self.blame.add(path)

    def merge(self, top: Path, under: str, commit: str, parents: list[str]) -> None:
        at_merge = self.waiting.pop(commit, {})
        at_merge = {p: v for p, v in at_merge.items() if p not in self.blame}
        if not at_merge:
            return
        diffs = [_diff(top, under, parent, commit) for parent in parents]
        for path, pairs in at_merge.items():
            same = next((i for i, d in enumerate(diffs) if path not in d), None)
            if same is not None:  # the file equals a parent's: blame passes it whole
                self.wait(parents[same], path, pairs)
                continue
            left = pairs
            for parent, d in zip(parents, diffs, strict=True):
                diff = d[path]
                if diff.created:  # absent in that parent: blame may find a rename there
                    break
                left, moved = diff.split(left)
                self.wait(parent, path, moved)
                if not left:
                    break
            if left:  # changed against every parent (or a parent lacks the file)
                self.blame.add(path)


def _diff(top: Path, under: str, old: str, new: str | None) -> dict[str, _FileDiff]:
    args = ["diff", *gitio.PATCH_OPTIONS, old, *([new] if new else []), "--", _spec(under)]
    with gitio.stream(top, *args) as out:
        return _parse_diff(out)


def _spec(under: str) -> str:
    return f":(top,literal){under}" if under else ":(top)"


def _commits(out: Iterator[bytes]) -> Iterator[tuple[str, list[str], list[bytes]]]:
    """``git log -p --format=%x01%H %P`` -> (commit, parents, its diff lines), newest first."""
    head: bytes | None = None
    body: list[bytes] = []
    for raw in out:
        if raw.startswith(b"\x01"):
            if head is not None:
                yield (*_head(head), body)
            head, body = raw, []
        elif head is not None:
            body.append(raw)
    if head is not None:
        yield (*_head(head), body)


def _head(raw: bytes) -> tuple[str, list[str]]:
    ids = raw[1:].decode().split()
    return ids[0], ids[1:]


def ignored_revs(top: Path) -> set[str] | None:
    """Commits listed in ``.git-blame-ignore-revs`` and ``blame.ignoreRevsFile`` (full ids),
    or None when one of them cannot be read (``git blame`` then says why)."""
    files = []
    own = gitio.ignore_revs_file(top)
    if own is not None:
        files.append(own)
    configured = gitio.git(top, "config", "--get-all", "blame.ignoreRevsFile", check=False)
    for name in configured.decode("utf-8", "replace").splitlines():
        if name.strip():
            files.append(top / Path(name.strip()).expanduser())
    ids: list[str] = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        for line in text.splitlines():
            entry = line.split("#", 1)[0].strip()
            if entry:
                if not re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", entry):
                    return None
                ids.append(entry)
    if not ids:
        return set()
    try:
        out = gitio.git_text(top, "rev-parse", *(f"{i}^{{commit}}" for i in ids))
    except gitio.GitError:
        return None
    return set(out.split())


def _blame(top: Path, path: str, lines: Collection[int]) -> dict[int, str]:
    by_line = {b.line: b.commit for b in gitio.blame(top, path)}
    return {n: by_line.get(n, gitio.ZERO_COMMIT) for n in lines}


def attribute(top: Path, under: str, wanted: Mapping[str, Collection[int]]) -> Attribution:
    """The author of every line in ``wanted`` (path relative to ``top``, under the folder
    ``under`` -> 1-based line numbers of its working-tree file); see the module doc."""
    head = gitio.head_commit(top)
    if head is None:  # nothing committed yet
        return Attribution({}, {p: frozenset(ls) for p, ls in wanted.items()})
    in_head = set(gitio.ls_tree(top, head, under or "."))
    ignored = ignored_revs(top)
    walk = _Walk(top, ignored or set())
    uncommitted: dict[str, set[int]] = {}
    to_blame = {p for p in wanted if p not in in_head or ignored is None}
    walk.blame |= to_blame
    todo = {p: ls for p, ls in wanted.items() if p not in walk.blame and ls}
    if todo:
        worktree = _diff(top, under, "HEAD", None)
        for path, lines in todo.items():
            diff = worktree.get(path)
            pairs = [(n, n) for n in sorted(set(lines))]
            if diff is not None:
                own, pairs = diff.split(pairs)
                if own:
                    uncommitted[path] = {n for n, _ in own}
            walk.wait("HEAD", path, pairs)
    if walk.waiting:
        args = ["log", "-p", *gitio.PATCH_OPTIONS, "--diff-merges=off", "--root"]
        args += ["--topo-order", "--parents", "--format=%x01%H %P", head, "--", _spec(under)]
        with gitio.stream(top, *args) as out:
            first = True
            for commit, parents, body in _commits(out):
                if first:  # HEAD as the walk sees it (the newest commit that changed `under`)
                    walk.waiting[commit] = walk.waiting.pop("HEAD", {})
                    first = False
                if commit not in walk.waiting:
                    continue
                if len(parents) > 1:
                    walk.merge(top, under, commit, parents)
                else:
                    walk.non_merge(commit, parents, _parse_diff(body))
                if not any(walk.waiting.values()):
                    break
        for at in walk.waiting.values():  # never reached: blame says
            walk.blame.update(p for p, v in at.items() if v)

    commits: dict[str, dict[int, str]] = {}
    for path, found in walk.found.items():
        if path not in walk.blame:
            commits[path] = found
    unreadable: dict[str, gitio.GitError] = {}
    for path in sorted(walk.blame & set(wanted)):
        try:
            blamed = _blame(top, path, wanted[path])
        except gitio.GitError as exc:
            unreadable[path] = exc
            continue
        uncommitted.pop(path, None)
        for n, c in blamed.items():
            if c == gitio.ZERO_COMMIT:
                uncommitted.setdefault(path, set()).add(n)
        commits[path] = {n: c for n, c in blamed.items() if c != gitio.ZERO_COMMIT}
    authors = authors_of(top, (c for found in commits.values() for c in found.values()))
    return Attribution(
        lines={p: {n: authors[c] for n, c in found.items()} for p, found in commits.items()},
        uncommitted={p: frozenset(ls) for p, ls in uncommitted.items()},
        unreadable=unreadable,
        blamed=frozenset(walk.blame & set(wanted)),
    )
