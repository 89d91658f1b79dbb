"""``api.propose_classes``: ``labelpool classes propose`` as a call (nothing written unless
``write=True``), and its report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from labelpool.api.repository import RepoSpec, config_of
from labelpool.errors import UsageError
from labelpool.render import classes as classes_report
from labelpool.workflows.classes import propose as propose_workflow
from labelpool.workflows.classes.propose import ProposeResult

__all__ = ["ClassesReport", "propose_classes"]


@dataclass(frozen=True)
class ClassesReport:
    result: ProposeResult

    def to_dict(self) -> dict[str, Any]:
        """``labelpool classes propose --format json``, parsed."""
        return self.result.to_dict()

    def to_json(self) -> str:
        return classes_report.render_json(self.result)

    def to_text(self) -> str:
        return classes_report.text(self.result)


def propose_classes(
    *,
    threshold: float = 0.8,
    containment: float | None = None,
    corpus: bool = False,
    questions: Sequence[str] | str | None = None,
    write: bool = False,
    commit: bool = True,
    branch: str | None = None,
    repo: RepoSpec = ".",
    wait: float = 0.0,
) -> ClassesReport:
    """Near-duplicate classes among the documents each label file names (``corpus=True``:
    against the whole corpus, MinHash LSH, the ``[dedup]`` extra), never two versions of one
    document. ``write=False`` (the default): nothing written, the report says what
    ``labelpool classes propose`` would propose; ``write=True`` writes them on a new branch
    (``branch``) in one commit, or (``commit=False``) into the working tree. Raises the
    ``LabelpoolError`` classes."""
    if isinstance(questions, str):
        questions = [q.strip() for q in questions.split(",") if q.strip()]
    if questions is not None and not questions:
        raise UsageError("--questions: no question id given")
    if wait < 0 or wait != wait:
        raise UsageError(f"--wait must be at least 0 seconds, not {wait}")
    result = propose_workflow.propose(
        config_of(repo),
        threshold=threshold,
        containment=containment,
        corpus_wide=corpus,
        questions=None if questions is None else list(questions),
        branch=branch,
        commit=commit,
        write=write,
        wait=wait,
    )
    return ClassesReport(result)
