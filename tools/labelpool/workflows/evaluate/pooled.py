"""Who pooled which questions: from the label set's columns when it carries them.

* :func:`pool_counts` ``(labels, qids)``: each system -> the questions of ``qids`` with a pool
  entry of it of known origin (``system`` not ``unknown``, ``k`` not null);
* :func:`pooled_on` ``(labels, qids, system, cutoff)``: the questions of ``qids`` with an entry
  of ``system`` pooled to ``cutoff`` or deeper;
* :func:`pooled_systems` ``(labels)``: every system with an entry of known origin.

A warm read serves them from the ``pool_system``/``pool_k`` columns
(:mod:`labelpool.columns`) and builds no label; a plain mapping of labels is read label by
label (the reference, held equal to the columns by the tests).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from labelpool import columns
from labelpool.columns import Columns
from labelpool.model import UNKNOWN_SYSTEM, Label


def _entries(cols: Columns) -> tuple[np.ndarray, pa.Array, np.ndarray, np.ndarray]:
    """(row of each pool entry, its system, its depth (0 for null), whether it has one)
    over the whole table."""
    rows, systems = columns.flat(cols.table.column("pool_system"))
    depths = columns.flat(cols.table.column("pool_k"))[1]
    k = np.asarray(pc.fill_null(depths, 0).to_numpy(zero_copy_only=False), dtype=np.int64)
    has_k = np.asarray(pc.is_valid(depths).to_numpy(zero_copy_only=False), dtype=bool)
    return rows, systems, k, has_k


def _chosen(cols: Columns, qids: Sequence[str] | None) -> np.ndarray:
    """Whether each row of the table is among ``qids`` (None: every row)."""
    if qids is None:
        return np.ones(len(cols.table), dtype=bool)
    mask = np.zeros(len(cols.table), dtype=bool)
    mask[cols.rows(qids)] = True
    return mask


def _known(cols: Columns, qids: Sequence[str] | None) -> tuple[np.ndarray, list[str], np.ndarray]:
    """(row, system code, the systems) of the entries of known origin on ``qids``."""
    rows, systems, _, has_k = _entries(cols)
    keep = _chosen(cols, qids)[rows] & has_k
    keep &= ~np.asarray(
        pc.equal(systems, UNKNOWN_SYSTEM).to_numpy(zero_copy_only=False), dtype=bool
    )
    encoded = pc.dictionary_encode(systems.filter(pa.array(keep)))
    codes = np.asarray(encoded.indices.to_numpy(zero_copy_only=False), dtype=np.int64)
    return rows[keep], encoded.dictionary.to_pylist(), codes


def pool_counts(labels: Mapping[str, Label], qids: Sequence[str]) -> Counter[str]:
    """Each system -> how many of ``qids`` it was pooled on (entries of known origin)."""
    cols = columns.of(labels)
    counts: Counter[str] = Counter()
    if cols is None:
        for q in qids:
            for system in {p.system for p in labels[q].pool if not p.unknown}:
                counts[system] += 1
        return counts
    rows, names, codes = _known(cols, qids)
    pairs = np.unique(rows * max(len(names), 1) + codes)
    per = np.bincount(pairs % max(len(names), 1), minlength=len(names))
    counts.update({name: int(n) for name, n in zip(names, per, strict=True) if n})
    return counts


def pooled_on(labels: Mapping[str, Label], qids: Sequence[str], system: str, cutoff: int) -> int:
    """How many of ``qids`` have an entry of ``system`` with ``k >= cutoff``."""
    cols = columns.of(labels)
    if cols is None:
        return sum(
            1
            for q in qids
            if any(p.system == system and p.k is not None and p.k >= cutoff for p in labels[q].pool)
        )
    rows, systems, k, has_k = _entries(cols)
    same = np.asarray(pc.equal(systems, system).to_numpy(zero_copy_only=False), dtype=bool)
    hit = same & has_k & (k >= cutoff) & _chosen(cols, qids)[rows]
    return int(np.unique(rows[hit]).size)


def pooled_systems(labels: Mapping[str, Label]) -> list[str]:
    """Every system with a pool entry of known origin, sorted."""
    cols = columns.of(labels)
    if cols is None:
        return sorted({p.system for lab in labels.values() for p in lab.pool if not p.unknown})
    return sorted(_known(cols, None)[1])
