"""The bounds labelpool's int64 arrays can carry, shared by the command line, the Python API and
the label rule LP042 (:mod:`labelpool.rules.bounds`): one number each, stated once."""

from __future__ import annotations

GRADE_MAX = 1_000_000  # a grade (``grades`` values, an integer verdict)
CUTOFF_MAX = 1_000_000_000  # a cut-off (--k, --depth, P@k, a pool's k or depth, full_depth)
