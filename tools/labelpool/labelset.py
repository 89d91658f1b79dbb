"""Every label of a repository, loaded once, looked up by question id."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labelpool import cache, yamlio
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
    names = sorted(n for n in os.listdir(labels_dir) if n.endswith((".yaml", ".yml")))
    return [labels_dir / n for n in names]


def load(cfg: Config, *, use_cache: bool = True) -> LabelSet:
    """Load every label file under ``cfg.labels_dir``: guarded fast reader, parsed-label cache."""
    return load_files(
        label_files(cfg.labels_dir),
        max_bytes=cfg.max_file_bytes,
        max_depth=cfg.max_depth,
        use_cache=use_cache,
    )


def read_guarded(
    path: Path,
    raw: bytes,
    *,
    max_bytes: int = yamlio.MAX_BYTES,
    max_depth: int = yamlio.MAX_DEPTH,
) -> Any:
    """Plain data of one label file's bytes: the safety guard, then the fast loader."""
    findings = yamlio.guard(path, raw, max_bytes=max_bytes, max_depth=max_depth)
    if findings:
        raise yamlio.YamlError.from_finding(findings[0])
    return yamlio.loads_fast(raw.decode("utf-8"), path)


def digest_of(entries: list[tuple[str, str]]) -> str:
    """Hash over (file name, content sha256) pairs: changes when any label file does."""
    h = hashlib.sha256()
    for name, sha in sorted(entries):
        h.update(f"{name}\0{sha}\n".encode())
    return h.hexdigest()


def load_files(
    paths: list[Path],
    *,
    max_bytes: int = yamlio.MAX_BYTES,
    max_depth: int = yamlio.MAX_DEPTH,
    use_cache: bool = True,
) -> LabelSet:
    def parse(path: Path, raw: bytes) -> Any:
        return read_guarded(path, raw, max_bytes=max_bytes, max_depth=max_depth)

    labels: dict[str, Label] = {}
    where: dict[str, Path] = {}
    hashes: list[tuple[str, str]] = []
    try:
        if use_cache:
            by_folder: dict[Path, list[Path]] = {}
            for path in paths:
                by_folder.setdefault(path.parent, []).append(path)
            entries = [
                e
                for folder_paths in by_folder.values()
                for e in cache.read_files(
                    folder_paths, parse, tag=f"labels:{max_bytes}:{max_depth}"
                )
            ]
        else:
            entries = []
            for path in paths:
                raw = path.read_bytes()
                entries.append(cache.Entry(path, cache.sha256(raw), parse(path, raw)))
    except yamlio.YamlError as exc:
        raise LabelSetError(str(exc)) from None
    except OSError as exc:
        raise LabelSetError(f"{exc.filename}:1:1: cannot read: {exc.strerror}") from None
    for entry in entries:
        path, data = entry.path, entry.data
        hashes.append((path.name, entry.sha))
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
    return LabelSet(labels=labels, paths=where, digest=digest_of(hashes))
