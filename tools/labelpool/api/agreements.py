"""``labelpool.api.agreement``: how far the judges agree, as ``labelpool agreement`` prints it
(this module is ``agreements``: a submodule named as its call would hide the call)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labelpool.api.repository import (
    RepoSpec,
    RunSpec,
    check_at_least,
    check_cutoff,
    config_of,
    labels_of,
    plain,
    specs,
)
from labelpool.errors import UsageError
from labelpool.render import agreement as agreement_report
from labelpool.scoring import measures as measures_mod
from labelpool.workflows.evaluate import agreement as agreement_workflow
from labelpool.workflows.evaluate import run_args
from labelpool.workflows.evaluate.agreement import AgreementReport as Report

BOOTSTRAP_MAX = 100_000


@dataclass(frozen=True)
class AgreementReport:
    """The figures, the pairs, the judges, the open disputes and (with runs) the effect."""

    report: Report

    def to_dict(self) -> dict[str, Any]:
        """What ``labelpool agreement --format json`` prints, parsed
        (``schema/agreement-report.schema.json``)."""
        return plain(agreement_report.to_json(self.report))

    def to_json(self) -> str:
        """Exactly what ``labelpool agreement --format json`` prints."""
        return agreement_report.render_json(self.report)

    def to_markdown(self) -> str:
        return agreement_report.render_markdown(self.report)

    def to_text(self, width: int | None = 80) -> str:
        return agreement_report.render_text(self.report, width)


def agreement(
    *,
    judges: Sequence[str] | None = None,
    question_pattern: str | None = None,
    runs: RunSpec | Sequence[RunSpec] = (),
    measure: str = "nDCG@10",
    k: int = 10,
    bootstrap: int = 1000,
    seed: int = 0,
    repo: RepoSpec = ".",
) -> AgreementReport:
    """Agreement over every document with verdicts by two or more judges: Krippendorff's
    alpha, Gwet's AC1/AC2, raw agreement, and per pair Cohen's kappa and the confusion matrix,
    with 95% bootstrap intervals over questions (``bootstrap`` resamples, ``seed``); per judge
    the odd one out and the grades; the open disputes. ``judges``: only these (an identity, or
    a person's email); ``question_pattern``: RE2, searched in the question id. With ``runs``,
    each system's ``measure`` under each judge's labels and Kendall's tau between the judges'
    rankings. Raises ``UsageError`` for a bad argument or an unknown judge."""
    check_at_least("--k", k, 1)
    check_cutoff("--k", k)
    if not 0 <= bootstrap <= BOOTSTRAP_MAX:
        raise UsageError(f"--bootstrap must be between 0 and {BOOTSTRAP_MAX:,}, not {bootstrap}")
    if seed < 0:
        raise UsageError(f"--seed must be >= 0, not {seed}")
    chosen = measures_mod.parse_one(measure)
    check_cutoff(f"the cut-off of {chosen.name}", chosen.depth(k))
    cfg = config_of(repo)
    labels = labels_of(repo, cfg)
    given = specs(runs)
    paths = (
        [Path(p) for p in run_args.select(cfg, given, measures=[measure]).specs] if given else []
    )
    report = agreement_workflow.agreement(
        cfg,
        labels,
        judges=judges,
        question_pattern=question_pattern,
        runs=paths,
        measure=chosen,
        k=k,
        replicates=bootstrap,
        seed=seed,
    )
    return AgreementReport(report)
