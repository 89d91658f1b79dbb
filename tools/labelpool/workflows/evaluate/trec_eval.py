"""``score --format trec_eval``: one run evaluated as trec_eval 10.0 evaluates it.

:func:`measures` ``(specs) -> tuple[Selected, ...]`` parses ``-m`` values with trec_eval's
grammar (a value that is a labelpool name, such as ``nDCG@10``, is refused with the trec_eval
name to use instead); :func:`score_run` ``(cfg, path, name, selected, options) -> TrecEval``
reads the labels and the run and evaluates. Never prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from labelpool import labelset, runs
from labelpool.config import Config
from labelpool.scoring import measures as lp_measures
from labelpool.scoring.measures import MeasureError
from labelpool.scoring.trec_eval import Options, Selected, TrecEval, evaluate, is_trec_name, select


def measures(specs: Sequence[str]) -> tuple[Selected, ...]:
    """The trec_eval measures ``-m`` asks for (``official`` when none)."""
    names = [part for spec in specs for part in spec.split()]
    for name in names:
        if not is_trec_name(name):
            hint = ""
            try:
                known = lp_measures.measure(name)
            except MeasureError:
                known = None
            if known is not None and known.trec_eval:
                head, _, tail = known.trec_eval.rpartition("_")
                spec = f"{head}.{tail}" if head and tail.isdigit() else known.trec_eval
                hint = f"; trec_eval calls it {spec}"
            raise MeasureError(f"{name!r} is not a trec_eval measure name{hint}")
    return select(names)


def score_run(
    cfg: Config, path: Path, name: str, selected: Sequence[Selected], options: Options
) -> TrecEval:
    """Evaluate the run at ``path`` against the repository's labels, as trec_eval."""
    labels = labelset.load(cfg)
    run = runs.read_run(path, name=name)
    return evaluate(run, labels, selected, options)
