"""``pool --assign A,B,...``: the judge of each seat, named as git names an author.

A judge is named by the full identity (``Name <email>``, as git writes ``%aN <%aE>``), or by
the email alone when a label file or a commit of the repository names that person; an
unknown email is a usage error (exit 2) listing the judges that are known.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from labelpool import gitio, verdicts
from labelpool.errors import UsageError
from labelpool.labelset import LabelSet

MAX_LISTED = 20  # known judges named in the error


def known_judges(root: Path, labels: LabelSet) -> list[str]:
    """Every judge the label files name, then every author of the repository's commits."""
    out: dict[str, None] = {}
    for label in labels.values():
        for j in sorted(verdicts.judges(label)):
            out.setdefault(j, None)
    try:
        authors = gitio.git_text(root, "log", "--all", "--format=%aN <%aE>")
    except gitio.GitError:
        authors = ""
    for line in authors.splitlines():
        if verdicts.is_person(line):
            out.setdefault(line, None)
    return list(out)


def resolve(names: Sequence[str], known: Iterable[str], option: str = "--assign") -> list[str]:
    """The full identity of each name: ``Name <email>`` as given, an email or a known
    judge's full name as the known judge it names; else :class:`UsageError` (exit 2)."""
    known = list(known)
    out: list[str] = []
    for name in names:
        name = name.strip()
        if verdicts.is_person(name):
            out.append(name)
            continue
        found = verdicts.named(name, known)
        if len(found) == 1:
            out.append(found[0])
            continue
        listed = ", ".join(sorted(known)[:MAX_LISTED]) or "none"
        more = f" (and {len(known) - MAX_LISTED} more)" if len(known) > MAX_LISTED else ""
        what = "names two judges" if found else "is not a known judge"
        raise UsageError(
            f"{option}: {name!r} {what}; name a judge as `Name <email>` or by a known email "
            f"(known: {listed}{more})"
        )
    return out
