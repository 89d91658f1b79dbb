"""trec_eval 10.0's measures with trec_eval's own semantics, byte for byte.

trec_eval's view is not labelpool's ranked view: it knows no classes (each document has its
own grade), tells documents outside the pool (-1) from pooled-but-unjudged ones (-2), ranks by
score descending then document id descending (the rank column ignored), and has options of
its own (``-c``, ``-M``, ``-J``, ``-l``). This package computes that view, vectorised with
numpy over blocks of questions, each value the very double trec_eval computes (sums added in
trec_eval's order, logarithms from the C library):

* :mod:`.catalogue`: the measures, their order, parameters and names; :func:`select` parses
  ``-m`` values; :func:`is_trec_name` is the naming rule;
* :mod:`.lists`: the qrels of a label set (as ``labelpool export trec`` writes them) and each
  question's relevance list (``form_res_rels``);
* :mod:`.chunk`: a block of questions as matrices; :mod:`.counting`, :mod:`.interpolated`,
  :mod:`.gains`: the measures, one function each;
* :mod:`.evaluate`: :func:`evaluate` ``(run, labels, measures, options) -> TrecEval``;
* :mod:`.cnum`: C's ``atol``, ``atof``, ``lround`` and ``%6.4f``.

The renderer is :mod:`labelpool.render.trec_eval`.
"""

from __future__ import annotations

from labelpool.model import qrels_rows
from labelpool.scoring.trec_eval.catalogue import (
    BY_NAME,
    MEASURES,
    NICKNAMES,
    Selected,
    is_trec_name,
    select,
)
from labelpool.scoring.trec_eval.evaluate import (
    Column,
    MissingQuestions,
    NoQuestions,
    Options,
    TrecEval,
    evaluate,
)

__all__ = [
    "BY_NAME",
    "MEASURES",
    "NICKNAMES",
    "Column",
    "MissingQuestions",
    "NoQuestions",
    "Options",
    "Selected",
    "TrecEval",
    "evaluate",
    "is_trec_name",
    "qrels_rows",
    "select",
]
