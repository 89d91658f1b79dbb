"""Scoring: the judgments as arrays, a run joined to them, and the measures.

* :mod:`labelpool.scoring.qrels`: the labels' judgments as sorted arrays (built once per set);
  kept on disk between commands (:mod:`labelpool.scoring.stored`: :func:`prepare`), patched
  there when a few labels changed (:mod:`labelpool.scoring.patch`);
* :mod:`labelpool.scoring.join`: a run's rows that can matter, with their grades;
* :mod:`labelpool.scoring.evaluate`: every measure raw, judged-only and optimistic, and the
  unjudged rate (:func:`score`);
* :mod:`labelpool.scoring.measures`: one module per measure family, the registry and parser;
* :mod:`labelpool.scoring.delta.question`: the range of a delta over the unjudged documents.
"""

from __future__ import annotations

from labelpool.scoring.evaluate import MeasureMeans, SystemScore, score, unjudged_at
from labelpool.scoring.qrels import scored_qids
from labelpool.scoring.stored import cache_file_for, prepare

__all__ = [
    "MeasureMeans",
    "SystemScore",
    "cache_file_for",
    "prepare",
    "score",
    "scored_qids",
    "unjudged_at",
]
