"""``labelpool score RUN --format trec_eval``: the body behind trec_eval's own output.

trec_eval's flags map to long options: ``-q`` ``--per-query``, ``-m`` ``--measure``, ``-c``
``--complete``, ``-M N`` ``--max-depth N``, ``-l L`` ``--relevance-level L``, ``-J``
``--judged-only``. ``--complete``, ``--max-depth`` and ``--judged-only`` exist only for this
format (:func:`check_trec_only`).
"""

from __future__ import annotations

import sys
from pathlib import Path

from labelpool.cli import _lazy, _runs
from labelpool.cli._common import check_cutoff, load_config, usage_error


def check_trec_only(fmt: str, complete: bool, max_depth: int | None, judged_only: bool) -> None:
    """``--complete``, ``--max-depth`` and ``--judged-only`` outside ``--format trec_eval``:
    exit 2 (labelpool's formats score a missing question 0 and show judged-only as a column)."""
    if fmt == "trec_eval":
        return
    given = [
        flag
        for flag, on in (
            ("--complete", complete),
            ("--max-depth", max_depth is not None),
            ("--judged-only", judged_only),
        )
        if on
    ]
    if given:
        usage_error(
            f"{', '.join(given)}: only with --format trec_eval (labelpool's own formats count "
            "a question missing from the run as 0 and show judged-only as a column)"
        )


def run(
    specs: list[str],
    measure: list[str] | None,
    relevance_level: int,
    per_query: bool,
    complete: bool,
    max_depth: int | None,
    judged_only: bool,
    names: list[str],
    repo: Path | None,
) -> None:
    """Print what trec_eval 10.0 prints for exactly one run."""
    if max_depth is not None and max_depth < 0:
        usage_error(f"--max-depth must be at least 0, not {max_depth}")
    check_cutoff("--max-depth", max_depth)
    workflow = _lazy.trec_eval_workflow
    selected = workflow.measures(list(measure or []))
    cfg = load_config(repo)
    runs_mod = _lazy.runs
    paths = _runs.select_paths(cfg, specs, measure)  # as score's other formats
    if len(paths) != 1:
        usage_error(f"--format trec_eval scores exactly one run (got {len(paths)})")
    if len(names) > 1:
        usage_error(f"--name given {len(names)} time(s) for 1 run(s); give one name per run")
    name = names[0] if names else runs_mod.system_name(paths[0])
    options = _lazy.trec_eval.Options(
        relevance_level=relevance_level,
        complete=complete,
        max_depth=max_depth,
        judged_only=judged_only,
    )
    result = workflow.score_run(cfg, paths[0], name, selected, options)
    sys.stdout.write(_lazy.trec_eval_report.render(result, per_query))
