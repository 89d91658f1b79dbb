"""``score``: read and score each run file against the repository's labels.

The arithmetic lives in :mod:`labelpool.scoring`; this is the command's workflow: inputs ->
one :class:`~labelpool.scoring.evaluate.SystemScore` per run. It never prints.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from labelpool import labelset, runs
from labelpool.config import Config
from labelpool.errors import InputError
from labelpool.runs import stream
from labelpool.scoring import SystemScore, cache_file_for, prepare, score, scored_qids
from labelpool.scoring.evaluate import score_windows
from labelpool.scoring.measures import Measure
from labelpool.workflows.evaluate.coverage import require_overlap

STREAM_BYTES = 64 << 20  # a run file larger than this is scored in windows when it can be


class NothingToScore(InputError):
    """The label set holds no judged question (exit 1)."""


def score_files(
    cfg: Config,
    paths: Sequence[Path],
    names: Sequence[str],
    measures: Sequence[Measure],
    *,
    k: int = 10,
    relevance_level: int = 1,
    on_progress: Callable[[], None] | None = None,
    preview: Mapping[Path, str] | None = None,
    labels: labelset.LabelSet | None = None,
    judge: str | None = None,
) -> list[SystemScore]:
    """Read and score each run file (named ``names``) against the repository's labels
    (``labels``: those already loaded).

    The labels (Python YAML, which holds the GIL) load on a thread while pyarrow parses the
    first run (multi-threaded C++, which releases it), so that on a cold start they overlap.
    Raises :class:`labelpool.runs.RunError`, :class:`labelpool.labelset.LabelSetError`,
    :class:`NothingToScore`, or :class:`~labelpool.workflows.evaluate.coverage.NoCommonQuestion`
    for the first run that shares no question with the labels (the runs after it are not
    read: a score of 0 on every measure would read as a result); ``on_progress()`` is called
    after each run. ``preview``: the new text of label files
    (:func:`labelpool.workflows.merge.commits.preview`) scored instead of the files on disk
    (``score --with-pending``). The labels are read as scoring reads them
    (:func:`labelpool.labelset.scored`: ``cfg.disputes``, and ``judge``'s own verdicts).
    """

    def load_labels() -> labelset.LabelSet:
        with labelset.gc_paused():
            loaded = labelset.load(cfg) if labels is None else labels
            if preview:
                loaded = labelset.with_texts(loaded, preview)
            loaded = labelset.scored(cfg, loaded, judge)
            gc.freeze()  # see _frozen_labels
        prepare(loaded, cache_file_for(cfg.labels_dir))
        return loaded

    results: list[SystemScore] = []
    with _frozen_labels(), ThreadPoolExecutor(max_workers=1) as background:
        pending_labels = background.submit(load_labels)
        ready_labels: labelset.LabelSet | None = None

        def ready() -> labelset.LabelSet:
            nonlocal ready_labels
            if ready_labels is None:
                ready_labels = pending_labels.result()
                if not len(scored_qids(ready_labels)):
                    raise NothingToScore(
                        f"error: no judged question in {cfg.labels_dir}: nothing to score against"
                    )
            return ready_labels

        for system, path in zip(names, paths, strict=True):
            note = None
            if streamed(path):
                try:
                    results.append(
                        _score_streamed(path, system, ready(), measures, k, relevance_level)
                    )
                except stream.Unstreamable as why:
                    note = f"{system}: read whole, not in windows: {why}"
                else:
                    require_overlap(results[-1])
                    if on_progress is not None:
                        on_progress()
                    continue
            run = runs.read_run(path, name=system)
            result = score(run, ready(), measures, k=k, relevance_level=relevance_level)
            del run
            if note:
                result = replace(result, warnings=(*result.warnings, note))
            require_overlap(result)
            results.append(result)
            if on_progress is not None:
                on_progress()
    return results


def streamed(path: Path) -> bool:
    """Whether a run file is large enough to be scored in windows (a grouped run then never
    needs to fit in memory): over :data:`STREAM_BYTES` as stored (gzip: an eighth of it)."""
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            gz = handle.read(2) == b"\x1f\x8b"
    except OSError:
        return False  # the reader names the problem
    return size > (STREAM_BYTES // 8 if gz else STREAM_BYTES)


def _score_streamed(
    path: Path,
    system: str,
    labels: labelset.LabelSet,
    measures: Sequence[Measure],
    k: int,
    relevance_level: int,
) -> SystemScore:
    """One run scored window by window (its SHA-256 computed beside on a thread)."""
    digest: list[str] = []
    hasher = threading.Thread(target=runs.sha256_file, args=(path, digest), daemon=True)
    hasher.start()
    try:
        windows = stream.windows(path, name=system)
        result = score_windows(
            windows,
            labels,
            measures,
            k=k,
            relevance_level=relevance_level,
            name=system,
            path=path,
        )
    finally:
        hasher.join()
    return replace(result, run_sha256=digest[0] if digest else "")


@contextlib.contextmanager
def _frozen_labels() -> Iterator[None]:
    """The labels, once loaded, are moved out of the cyclic garbage collector's reach
    (``gc.freeze()``, before the collector runs again) until the runs are scored.

    They live as long as the command and hold no cycles, yet every collection that followed
    their load traversed them all: at 10,000 questions the first one after loading took
    0.1 s and those during the judgment arrays' build another 0.25 s of CPU, for nothing
    to free. ``gc.unfreeze()`` at the end gives every object back to the collector (the
    oldest generation), so a process that scores many times keeps collecting as before.
    """
    try:
        yield
    finally:
        gc.unfreeze()
