"""The scorer's qrels arrays kept on disk between commands, keyed by the labels' digest.

:func:`prepare` ``(labels, cache_file)`` makes the arrays of ``labels`` ready for scoring:
loaded from ``cache_file`` when it holds those of the same content digest
(``LabelSet.digest``), else built and written there (atomically, through
:mod:`labelpool.atomic`). :func:`cache_file_for` ``(labels_dir)`` is where one label folder's
arrays live (labelpool's cache folder; outside the tracked tree, safe to delete).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pyarrow as pa

from labelpool import atomic, cache
from labelpool.model import Label
from labelpool.scoring.qrels import Qrels, held, hold, qrels_for

CACHE_FORMAT = 1


def prepare(labels: Mapping[str, Label], cache_file: Path | None) -> None:
    """Make the judgment arrays of ``labels`` ready for scoring, through a file cache.

    ``cache_file`` (outside the tracked tree; safe to delete) holds the arrays of the last
    label set seen with its content digest (``LabelSet.digest``): when the digest matches they
    are loaded instead of rebuilt from every label; otherwise they are built and the file is
    replaced atomically. Without a digest or a file this only builds them in memory.
    """
    digest = str(getattr(labels, "digest", "") or "")
    if cache_file is None or not digest:
        qrels_for(labels)
        return
    if held(labels) is not None:
        return
    loaded = _load(cache_file, digest)
    if loaded is not None:
        hold(labels, loaded)
        return
    _save(cache_file, digest, qrels_for(labels))


def cache_file_for(labels_dir: Path) -> Path:
    """Where :func:`prepare` keeps the arrays of one label folder (labelpool's cache folder)."""
    key = hashlib.sha256(str(labels_dir.resolve()).encode()).hexdigest()[:24]
    return cache.cache_dir() / f"score-qrels-{key}.npz"


def _load(cache_file: Path, digest: str) -> Qrels | None:
    try:
        with np.load(cache_file, allow_pickle=False) as data:
            meta = data["meta"]
            if str(data["digest"]) != digest or int(meta[0]) != CACHE_FORMAT:
                return None
            offsets = data["vocab_offsets"]
            small = int(offsets[-1]) < 2**31  # the run's ids are pa.string: match the type
            vocab = pa.Array.from_buffers(
                pa.string() if small else pa.large_string(),
                len(offsets) - 1,
                [
                    None,
                    pa.py_buffer(offsets.astype(np.int32) if small else offsets),
                    pa.py_buffer(data["vocab_data"].tobytes()),
                ],
            )
            return Qrels(
                qids=data["qids"].astype(object),
                vocab=vocab,
                keys=data["keys"],
                grade=data["grade"],
                target=data["target"],
                ideal_q=data["ideal_q"],
                ideal_g=data["ideal_g"],
                pending_docs=int(meta[1]),
                not_judged=int(meta[2]),
                label_ids=frozenset(str(q) for q in data["label_ids"]),
            )
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None  # missing, old or corrupt: rebuilt


def _save(cache_file: Path, digest: str, q: Qrels) -> None:
    vocab = q.vocab.cast(pa.large_string())
    buffers = vocab.buffers()
    offsets = np.frombuffer(
        buffers[1], dtype=np.int64, count=len(vocab) + 1, offset=vocab.offset * 8
    )
    data = np.frombuffer(buffers[2], dtype=np.uint8) if buffers[2] is not None else np.zeros(0)
    data = data[int(offsets[0]) : int(offsets[-1])]
    arrays = {
        "digest": np.array(digest),
        "meta": np.array([CACHE_FORMAT, q.pending_docs, q.not_judged], dtype=np.int64),
        "qids": np.array([str(x) for x in q.qids], dtype=str),
        "label_ids": np.array(sorted(q.label_ids), dtype=str),
        "vocab_offsets": offsets - offsets[0],
        "vocab_data": data.astype(np.uint8),
        "keys": q.keys,
        "grade": q.grade,
        "target": q.target,
        "ideal_q": q.ideal_q,
        "ideal_g": q.ideal_g,
    }
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        atomic.write_bytes(cache_file, buffer.getvalue())
    except OSError:
        pass  # a cache that cannot be written only costs time
