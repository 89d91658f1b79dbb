"""``score``: read and score each run file against the repository's labels.

The arithmetic lives in :mod:`labelpool.scoring`; this is the command's workflow: inputs ->
one :class:`~labelpool.scoring.evaluate.SystemScore` per run. It never prints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from labelpool import labelset, runs
from labelpool.config import Config
from labelpool.errors import InputError
from labelpool.scoring import SystemScore, cache_file_for, prepare, score, scored_qids
from labelpool.scoring.measures import Measure


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
) -> list[SystemScore]:
    """Read and score each run file (named ``names``) against the repository's labels.

    The labels (Python YAML, which holds the GIL) load on a thread while pyarrow parses the
    first run (multi-threaded C++, which releases it), so that on a cold start they overlap.
    Raises :class:`labelpool.runs.RunError`, :class:`labelpool.labelset.LabelSetError` or
    :class:`NothingToScore`; ``on_progress()`` is called after each run.
    """

    def load_labels() -> labelset.LabelSet:
        labels = labelset.load(cfg)
        prepare(labels, cache_file_for(cfg.labels_dir))
        return labels

    results: list[SystemScore] = []
    with ThreadPoolExecutor(max_workers=1) as background:
        pending_labels = background.submit(load_labels)
        labels = None
        for system, path in zip(names, paths, strict=True):
            run = runs.read_run(path, name=system)
            if labels is None:
                labels = pending_labels.result()
                if not len(scored_qids(labels)):
                    raise NothingToScore(
                        f"error: no judged question in {cfg.labels_dir}: nothing to score against"
                    )
            results.append(score(run, labels, measures, k=k, relevance_level=relevance_level))
            del run
            if on_progress is not None:
                on_progress()
    return results
