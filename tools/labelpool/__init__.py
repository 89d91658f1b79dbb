"""labelpool: a git-native label repository for retrieval evaluation."""

from __future__ import annotations

__version__ = "0.1.0"
