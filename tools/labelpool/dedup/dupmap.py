"""A duplicate map from outside: groups of ids that name one text (``import duplicates``).

Two forms, told apart line by line: ``canonical:dup1,dup2,...`` (the MS MARCO map of TREC
CAsT, ``marco_duplicates.txt``) and two tab-separated columns ``a<TAB>b`` (a pair a line). A
tab makes a line a pair, so an id may hold ``:`` there; in the first form the first ``:`` ends
the canonical id. ``prefix`` is put before every id (MARCO's map lacks the ``MARCO_`` its
runs carry). ``canonical:`` with no duplicate (MARCO's README: "0 or many") is a group of one,
which joins nothing. Blank lines are skipped; a line over 1 MiB, a line in neither form, an empty id
or bytes that are not UTF-8 are an :class:`~labelpool.errors.InputError` naming ``path:line``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from labelpool.errors import InputError
from labelpool.textlines import split_lines, too_long

BLOCK = 1 << 20


@dataclass(frozen=True)
class DupMap:
    """The groups (each: its ids in the file's order, the canonical first), the lines read
    and the distinct ids in all groups."""

    groups: tuple[tuple[str, ...], ...]
    lines: int
    ids: int


def _group(line: str, path: Path, n: int, prefix: str) -> tuple[str, ...]:
    if "\t" in line:
        cells = line.rstrip("\r").split("\t")
        if len(cells) != 2:
            raise InputError(
                f"expected two tab-separated ids, found {len(cells)} columns", path=path, line=n
            )
        ids = [c.strip() for c in cells]
    elif ":" in line:
        canonical, _, rest = line.partition(":")
        dups = [d.strip() for d in rest.split(",")] if rest.strip() else []
        ids = [canonical.strip(), *dups]  # `d0:` (no duplicate) is a group of one
    else:
        raise InputError(
            "expected canonical:dup1,dup2,... or two tab-separated ids", path=path, line=n
        )
    if not all(ids):
        raise InputError("an empty id", path=path, line=n)
    if any(any(ch.isspace() for ch in i) for i in ids):
        raise InputError("an id holds a space", path=path, line=n)
    return tuple(prefix + i for i in ids)


def read_map(path: Path, prefix: str = "") -> DupMap:
    """Read a duplicate map (see the module); errors name ``path:line``."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=path) from None
    groups: list[tuple[str, ...]] = []
    with handle:

        def read() -> bytes:
            try:
                return handle.read(BLOCK)
            except OSError as exc:
                raise InputError(f"cannot read: {exc.strerror or exc}", path=path) from None

        def refuse(n: int) -> InputError:
            return InputError(too_long("a duplicate map"), path=path, line=n)

        for n, raw in split_lines(read, refuse, lone_cr=False):
            try:
                line = raw.decode("utf-8").removesuffix("\r")
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"not UTF-8 (invalid byte 0x{raw[exc.start]:02X})", path=path, line=n
                ) from None
            if line.strip():
                groups.append(_group(line, path, n, prefix))
    return DupMap(tuple(groups), len(groups), len({i for g in groups for i in g}))
