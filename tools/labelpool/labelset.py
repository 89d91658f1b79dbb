"""Every label of a repository, loaded once, looked up by question id."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from labelpool import yamlio
from labelpool.config import Config
from labelpool.model import Label, label_from_data


class LabelSetError(Exception):
    """A label file cannot be read; ``str()`` is a ``path:line:col: message`` line."""


@dataclass(frozen=True)
class LabelSet(Mapping[str, Label]):
    labels: Mapping[str, Label]
    paths: Mapping[str, Path]
    digest: str = ""  # content hash of all label files (for caches and reports)

    def __getitem__(self, key: str) -> Label:
        return self.labels[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.labels)

    def __len__(self) -> int:
        return len(self.labels)


def label_files(labels_dir: Path) -> list[Path]:
    """Label files of a folder, sorted by name (``*.yaml`` and ``*.yml``)."""
    if not labels_dir.is_dir():
        return []
    return sorted(p for p in labels_dir.iterdir() if p.suffix in (".yaml", ".yml"))


def load(cfg: Config) -> LabelSet:
    """Load every label file under ``cfg.labels_dir`` with the fast reader."""
    return load_files(label_files(cfg.labels_dir))


def load_files(paths: list[Path]) -> LabelSet:
    labels: dict[str, Label] = {}
    where: dict[str, Path] = {}
    for path in paths:
        try:
            data = yamlio.load_fast(path)
        except yamlio.YamlError as exc:
            raise LabelSetError(str(exc)) from None
        if not isinstance(data, dict) or "id" not in data:
            raise LabelSetError(f"{path}:1:1: not a label (a mapping with an `id`)")
        try:
            label = label_from_data(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise LabelSetError(
                f"{path}:1:1: not a valid label ({exc}); run `labelpool validate {path}`"
            ) from None
        labels[label.id] = label
        where[label.id] = path
    return LabelSet(labels=labels, paths=where)
