"""The lower panels: the drill-down per question, the pool, the label history."""

from __future__ import annotations

from labelpool.report import plots
from labelpool.report.gather import Doc, ReportData
from labelpool.report.html import details, figure, h, pct, table
from labelpool.report.timeline import Timeline
from labelpool.words import counted

MARK_TEXT = {"relevant": "R", "irrelevant": "N", "duplicate": "D", "unjudged": "?"}
MARK_CLASS = {"relevant": "r", "irrelevant": "n", "duplicate": "d", "unjudged": "u"}


def _cell(doc: Doc) -> str:
    """One document of a ranking: its mark (a letter, and the grade above 1) and its id; its
    text on demand. Kept short: 1,000 questions x 2 runs x 20 documents are 40,000 cells."""
    mark = MARK_TEXT[doc.mark]
    if doc.mark in ("relevant", "duplicate") and doc.grade is not None and doc.grade > 1:
        mark += str(doc.grade)
    head = f"<i>{mark}</i> {h(doc.doc)}"
    if doc.text is None:
        return f'<td class="{MARK_CLASS[doc.mark]}">{head}'
    body = (f"<b>{h(doc.text.title)}</b> " if doc.text.title else "") + h(doc.text.text)
    return f'<td class="{MARK_CLASS[doc.mark]}"><details><summary>{head}</summary>{body}</details>'


def _rankings(names: list[str], rankings: tuple[tuple[Doc, ...], ...]) -> str:
    depth = max((len(r) for r in rankings), default=0)
    if not depth:
        return "<p>No run ranks a document.</p>"
    out = ['<table class="side"><tr><th>rank</th>']
    out += [f"<th>{h(n)}</th>" for n in names]
    for i in range(depth):
        out.append(f"\n<tr><td>{i + 1}")
        out += [_cell(r[i]) if i < len(r) else "<td>" for r in rankings]
    out.append("\n</table>")
    return "".join(out)


def drilldown(d: ReportData) -> str:
    names = [r.name for r in d.runs]
    deeper = f" (k is {d.k}; the measures read deeper than shown)" if d.drill_depth < d.k else ""
    out = [
        "<h2>Per question: the rankings side by side</h2>\n",
        f"<p>Each question's top {d.drill_depth} of every run{deeper}. Marks: "
        '<span class="r"><i>R</i></span> relevant (R2, R3: its grade), '
        '<span class="n"><i>N</i></span> judged not relevant, '
        '<span class="d"><i>D</i></span> a duplicate of a relevant document (it shares '
        'its relevance class), <span class="u"><i>?</i></span> unjudged (never judged, '
        "or waiting in a batch). Open a question to see its rankings, a document for its "
        "text (when the repository has a corpus).</p>\n",
    ]
    for q in d.questions:
        out.append(
            details(f"<code>{h(q.qid)}</code> {h(q.text)}", _rankings(names, q.rankings), "q")
        )
    return "".join(out)


def pool(d: ReportData) -> str:
    p = d.pool
    rows = []
    for s in p.systems:
        depths = ", ".join(f"{'no k' if k is None else k}: {n}" for k, n in s.depths)
        rate = (
            "no run in runs/" if s.unjudged_rate is None else f"{pct(s.unjudged_rate)} ({h(s.run)})"
        )
        rows.append([h(s.system), str(s.questions), h(depths), rate, "yes" if s.fair else "no"])
    born = ", ".join(p.born_from) or "nothing"
    out = [
        "<h2>The pool</h2>\n",
        f"<p>Which systems built the judged set ({p.judged} of "
        f"{counted(p.questions, 'question')} judged), "
        f"at which depth and on how many questions, and each system's measured unjudged rate "
        f"at {p.k} (its run in runs/) beside its pooled depth. Fair at {p.k}: pooled at depth "
        f">= {p.k} on every judged question and nothing of its top {p.k} unjudged. The set was "
        f"born from {h(born)}" + (f" on {h(p.born_date)}" if p.born_date else "") + ".</p>\n",
    ]
    if rows:
        out.append(
            table(
                [
                    "system",
                    "questions pooled",
                    "depth: questions",
                    f"unjudged at {p.k}",
                    f"fair at {p.k}",
                ],
                rows,
            )
        )
    else:
        out.append("<p>No pool entry names a system.</p>\n")
    for s in p.systems:
        if s.disagreement:
            out.append(f'<p class="warn">{h(s.system)}: {h(s.disagreement)}</p>\n')
    if p.unknown_origin:
        n = len(p.unknown_origin)
        out.append(
            f"<p>{counted(n, 'judged question')} {'has' if n == 1 else 'have'} no known "
            "origin.</p>\n"
        )
    pooled = {s.system for s in p.systems}
    outside = [
        f"{h(s.system)} ({pct(s.unjudged_rate)} of its top {d.k} unjudged)"
        for s in d.scores
        if s.system not in pooled
    ]
    if outside:
        out.append(f"<p>Runs of this report that built no pool: {', '.join(outside)}.</p>\n")
    return "".join(out)


def _verdicts_plot(t: Timeline) -> str:
    days = sorted({x.day for x in t.days})
    judges = sorted({m.judge for m in t.merges})
    merged = {(m.day, m.judge): 0 for m in t.merges}
    for m in t.merges:
        merged[(m.day, m.judge)] += m.verdicts
    series = []
    for judge in judges:
        total, counts = 0, []
        for day in days:
            total += merged.get((day, judge), 0)
            counts.append(total)
        series.append((judge, counts))
    return figure(
        plots.verdicts_over_time("verdicts", days, series),
        "<b>Who judged how much, and when.</b> One line per judge (named on the right): the "
        "verdicts <code>labelpool merge</code> folded in so far, on each day a commit changed "
        "the labels.",
    )


def history(t: Timeline) -> str:
    out = ["<h2>Label history</h2>\n"]
    if t.note:
        out.append(f'<p class="warn">{h(t.note)}</p>\n')
    if t.days:
        out.append(
            "<p>Commits that changed the labels, by day and author, with the verdicts "
            "<code>labelpool merge</code> folded in.</p>\n"
            + table(
                ["day", "judge", "commits", "verdicts merged"],
                ([h(x.day), h(x.judge), str(x.commits), str(x.verdicts)] for x in t.days),
            )
        )
    if t.merges:
        out.append(_verdicts_plot(t))
        out.append(
            "<h3>Batches merged</h3>\n"
            + table(
                ["day", "judge", "verdicts", "batches", "commit"],
                (
                    [
                        h(m.day),
                        h(m.judge),
                        str(m.verdicts),
                        h(", ".join(m.batches) or "-"),
                        f"<code>{h(m.commit[:12])}</code>",
                    ]
                    for m in t.merges
                ),
            )
        )
    elif t.note is None:
        out.append("<p>No batch has been merged with <code>labelpool merge</code>.</p>\n")
    return "".join(out)
