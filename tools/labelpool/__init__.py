"""labelpool: a git-native label repository for retrieval evaluation."""

from __future__ import annotations

__version__ = "0.2.0"  # pyproject.toml reads it (dynamic); CHANGELOG.md says what changed
