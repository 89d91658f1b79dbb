"""The plain data of files named by their blob ids (a commit's files, from its tree): taken
from the label index where it holds the blob, else fetched (``git cat-file --batch``), parsed
and added to the index.

A commit's tree gives every file's blob id without reading a byte (``git ls-tree -r``), so
the files of a revision the working tree held before, or an earlier command read, are never
parsed again. :func:`data_of` (:func:`checked_data_of`: with each blob's ``checked`` flag)
is the index's entry point for such reads; the rows it adds carry the data only (``checked``
false, no reading's columns): a later read of the working tree runs its checks on them once,
as on any row it did not check.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from labelpool.labelindex import files, store

# (blob ids) -> their bytes, None for a blob that cannot be had
Fetch = Callable[[list[str]], list[bytes | None]]
# (blob id, bytes) -> (plain data, whether the index may keep it: the data is what the
# index's reading gives those bytes)
Parse = Callable[[str, bytes], tuple[Any, bool]]


def data_of(
    folder: Path,
    blobs: Sequence[str],
    fetch: Fetch,
    parse: Parse,
    *,
    tag: str,
    extra: pa.Schema | None = None,
    present: Iterable[str] = (),
) -> list[Any]:
    """The plain data of each of ``blobs`` (:func:`checked_data_of` without the flags)."""
    found = checked_data_of(folder, blobs, fetch, parse, tag=tag, extra=extra, present=present)
    return [found.data(i) for i in range(len(blobs))]


@dataclass(frozen=True)
class Found:
    """What :func:`checked_data_of` found of each blob ``i`` asked for: its plain data,
    decoded from the index on each call of :meth:`data` (a reader that builds something of
    each blob in turn holds one blob's data at a time), and whether it is checked."""

    rows: store.Rows
    at: list[int]  # each blob's row in the index, -1 for one parsed here (or not had)
    parsed: list[Any]  # the data of blobs parsed here, None elsewhere

    def data(self, i: int) -> Any:
        at = self.at[i]
        return json.loads(self.rows.json_of(at)) if at >= 0 else self.parsed[i]

    def checked(self, i: int) -> bool:
        at = self.at[i]
        return at >= 0 and bool(self.rows.checked[at])


def checked_data_of(
    folder: Path,
    blobs: Sequence[str],
    fetch: Fetch,
    parse: Parse,
    *,
    tag: str,
    extra: pa.Schema | None = None,
    present: Iterable[str] = (),
) -> Found:
    """The plain data of each of ``blobs`` and whether it is checked (:class:`Found`; data
    None for a blob ``fetch`` cannot give), through the index of ``folder`` and ``tag``
    (:func:`files.index_file`; ``extra``: its reading's own columns). ``checked``: the
    index holds the blob with the reading's label checks passed (a read of the working tree
    recorded them), so that its data needs no checking again; False for a blob parsed here
    or only ever read from a revision.
    Blobs the index does not hold are fetched at once and parsed, and what ``parse`` lets
    keep is written back, beside the rows of ``present`` (blob ids still in use: a
    revision's other files) and, as :meth:`files.Reading.save` does, as many rows again of
    other blobs. ``parse`` raising stops the read; nothing is written then."""
    file = files.index_file(folder, tag)
    rows = store.load(file, tag, extra)
    row_of = rows.row_of
    unseen = list(dict.fromkeys(b for b in blobs if b not in row_of))
    fetched = dict(zip(unseen, fetch(unseen), strict=True)) if unseen else {}
    parsed: dict[str, Any] = {}
    new: dict[str, bytes] = {}
    for blob in unseen:
        raw = fetched.pop(blob)  # each file's bytes let go once parsed
        if raw is None:
            continue
        data, keep = parse(blob, raw)
        parsed[blob] = data
        if keep:
            new[blob] = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    if new:
        kept = list(dict.fromkeys([*blobs, *present]))
        at = [row_of.get(b, -1) for b in kept]
        reading = files.Reading(file, tag, rows, blobs=kept, at=at, new=new, extra=extra)
        reading.save()
    at = [row_of.get(blob, -1) for blob in blobs]
    return Found(
        rows, at, [parsed.get(b) if a < 0 else None for b, a in zip(blobs, at, strict=True)]
    )
