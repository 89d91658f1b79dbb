"""The Python API's repository handle (:func:`load`) and what its calls share: how a
repository and a run are named, the cut-off checks, and JSON as the CLI prints it."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from labelpool import config, labelset
from labelpool.config import Config
from labelpool.errors import UsageError
from labelpool.labelset import LabelSet
from labelpool.limits import CUTOFF_MAX
from labelpool.model import Label
from labelpool.scoring import measures as measures_mod
from labelpool.scoring.measures import Measure

RunSpec = str | os.PathLike[str]
"""A run: a file (TREC or JSON Lines, gzip allowed) or a system name in the ``runs`` folder."""


@dataclass(frozen=True)
class Repository:
    """A label repository, read: its configuration and every label (checked as ``validate``
    would refuse nothing ``score`` reads)."""

    config: Config
    labels: LabelSet

    @property
    def root(self) -> Path:
        return self.config.root

    @property
    def questions(self) -> tuple[str, ...]:
        """Every question id, in code-point order."""
        return tuple(sorted(self.labels))

    def label(self, qid: str) -> Label:
        """The label of question ``qid`` (``KeyError`` when there is none)."""
        return self.labels[qid]


RepoSpec = str | os.PathLike[str] | Repository
"""A repository: a folder at or under its root, or one :func:`load` has read."""


def load(repo: str | os.PathLike[str] = ".") -> Repository:
    """Read the label repository holding the folder ``repo``: its ``[tool.labelpool]``
    configuration and every label file. Raises :class:`labelpool.config.ConfigError` (a
    :class:`~labelpool.errors.UsageError`) or :class:`labelpool.labelset.LabelSetError`."""
    cfg = config.load(Path(repo), naming=config.API_NAMING)
    return Repository(cfg, labelset.load(cfg))


def config_of(repo: RepoSpec) -> Config:
    if isinstance(repo, Repository):
        return repo.config
    return config.load(Path(repo), naming=config.API_NAMING)


def labels_of(repo: RepoSpec, cfg: Config) -> LabelSet:
    return repo.labels if isinstance(repo, Repository) else labelset.load(cfg)


def with_disputes(cfg: Config, disputes: str | None) -> Config:
    """``cfg`` with ``disputes`` (``--disputes``: bounds, majority, max, min) instead of its
    ``[tool.labelpool] disputes`` for one call; ``UsageError`` for another word."""
    if disputes is None:
        return cfg
    if disputes not in config.DISPUTE_POLICIES:
        raise UsageError(
            f"--disputes must be one of {', '.join(config.DISPUTE_POLICIES)}, not {disputes!r}"
        )
    return replace(cfg, disputes=disputes)


def with_judges(cfg: Config, judges: str | None) -> Config:
    """``cfg`` with ``judges`` (``--judges``: people, machines, all) instead of its
    ``[tool.labelpool] score_judges`` for one call; ``UsageError`` for another word."""
    if judges is None:
        return cfg
    if judges not in config.JUDGE_SELECTIONS:
        raise UsageError(
            f"--judges must be one of {', '.join(config.JUDGE_SELECTIONS)}, not {judges!r}"
        )
    return replace(cfg, judges=judges)


def specs(runs: RunSpec | Sequence[RunSpec]) -> list[str]:
    """Run specs as the CLI takes them (one, or a sequence)."""
    if isinstance(runs, str | os.PathLike):
        return [os.fspath(runs)]
    return [os.fspath(r) for r in runs]


def check_at_least(name: str, value: int, low: int) -> None:
    if value < low:
        raise UsageError(f"{name} must be at least {low}, not {value}")


def check_cutoff(name: str, value: int | None) -> None:
    if value is not None and value > CUTOFF_MAX:
        raise UsageError(f"{name} must be at most {CUTOFF_MAX:,}, not {value}")


def checked_measures(
    measures: Sequence[str] | None,
    k: int,
    relevance_level: int,
    default: Sequence[str] = measures_mod.DEFAULT,
) -> list[Measure]:
    """The measures parsed (default: ``default``, compare's ``R@10 P@10 nDCG@10 RR@10 AP@100
    Success@10``), after the checks the CLI makes of ``--k`` and ``--relevance-level``;
    ``UsageError``s."""
    check_at_least("--k", k, 1)
    check_at_least("--relevance-level", relevance_level, 1)
    check_cutoff("--k", k)
    check_cutoff("--relevance-level", relevance_level)
    chosen = measures_mod.parse(list(measures or default))
    for m in chosen:
        check_cutoff(f"the cut-off of {m.name}", m.depth(k))
    return chosen


def plain(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` as the CLI's ``--format json`` output reads back (tuples as lists, keys
    as strings): what ``json.loads`` of the printed text gives."""
    value = json.loads(json.dumps(document))
    assert isinstance(value, dict)
    return value
