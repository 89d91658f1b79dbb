"""``score --format trec_eval``: exactly the lines trec_eval 10.0 prints.

Per question (with ``per_query``, trec_eval ``-q``) one block per question in strcmp order, then
the summary (``all``); measures in trec_eval's own order. Formats as trec_eval's ``printf``s:
``%-22s\\t%s\\t%6.4f`` for values, ``%ld`` for the ``num_*`` counts, ``%s`` for ``runid``,
``'%s'`` for ``relstring`` (per question only). ``gm_map``, ``gm_bpref`` and ``num_q`` appear
only in the summary. A question id and the run tag go through the one sanitiser (a control
character is shown escaped, so an id with one no longer matches trec_eval byte for byte; labels
refuse such ids anyway).
"""

from __future__ import annotations

from labelpool.render.sanitize import text
from labelpool.scoring.trec_eval import TrecEval
from labelpool.scoring.trec_eval.cnum import fixed


def _line(name: str, qid: str, value: str) -> str:
    return f"{name:<22}\t{qid}\t{value}\n"


def _value(integer: bool, value: float) -> str:
    return str(int(value)) if integer else fixed(value)


def render(result: TrecEval, per_query: bool = False) -> str:
    out: list[str] = []
    by_measure: dict[str, list[int]] = {}
    for i, col in enumerate(result.columns):
        by_measure.setdefault(col.measure, []).append(i)
    if per_query:
        for q, qid in enumerate(result.qids):
            shown = text(qid)
            for s in result.measures:
                if s.name == "relstring" and result.relstrings is not None:
                    out.append(_line(result.relstring_name, shown, f"'{result.relstrings[q]}'"))
                    continue
                if not s.definition.per_query:
                    continue
                for i in by_measure.get(s.name, ()):
                    col = result.columns[i]
                    out.append(_line(col.name, shown, _value(col.integer, col.per_query[q])))
    for s in result.measures:
        if s.name == "runid":
            out.append(_line("runid", "all", text(result.runid)))
            continue
        for i in by_measure.get(s.name, ()):
            col = result.columns[i]
            out.append(_line(col.name, "all", _value(col.integer, col.summary)))
    return "".join(out)
