"""The report's upper sections: the summary (one sentence per finding, :mod:`.headline`), the
header, each measure's reading in words, scores, comparisons, what to judge."""

from __future__ import annotations

from labelpool.render import coverage, disputes, machines
from labelpool.report import headline
from labelpool.report.gather import ReportData
from labelpool.report.html import details, h, num, pct, signed, table
from labelpool.report.priority import Priority
from labelpool.words import counted
from labelpool.workflows.evaluate.compare import Comparison
from labelpool.workflows.evaluate.coverage import of as coverage_of


def header(d: ReportData) -> str:
    rows = [
        ("labelpool", h(d.version)),
        ("labels' commit", h(d.labels_commit or "none (not a git repository, or no commit)")),
        ("questions", f"{len(d.questions)} judged"),
        ("cut-off k", f"{d.k} (relevance level {d.relevance_level})"),
        ("resampling", f"{d.resamples:,} bootstrap resamples, seed {d.seed}"),
    ]
    covered = coverage.line([coverage_of(s) for s in d.scores])
    if covered is not None:  # some run and the labels differ in their questions
        rows.insert(3, ("coverage", h(covered.removeprefix("questions: "))))
    out = ['<h2>Runs and measures</h2>\n<dl class="facts">']
    out += [f"<dt>{h(k)}</dt><dd>{v}</dd>" for k, v in rows]
    out.append("</dl>\n<h3>Runs (git blob id of each file: <code>git hash-object</code>)</h3>\n")
    out.append(
        table(
            ["system", "file", "blob"],
            (
                [
                    h(r.name) + (" (baseline)" if i == 0 and d.compared else ""),
                    h(r.path),
                    f"<code>{h(r.blob)}</code>",
                ]
                for i, r in enumerate(d.runs)
            ),
        )
    )
    out.append("<h3>Measures</h3>\n")
    out.append(
        table(
            ["measure", "cut-off", "definition"],
            (
                [
                    h(m.name),
                    h(m.depth(d.k) if m.depth(d.k) is not None else "whole ranking"),
                    h(m.doc),
                ]
                for m in d.measures
            ),
        )
    )
    return "".join(out)


def _holm(d: ReportData) -> str:
    n = len(d.compared.comparisons) if d.compared else 0
    return "Holm-corrected over the " + f"{n} comparisons" if n > 1 else "one comparison"


def summary(d: ReportData) -> str:
    """The first screen: one sentence per finding (:func:`headline.findings`)."""
    if d.compared is None:
        s = d.scores[0]
        return (
            "<h2>Summary</h2>\n<p>One run, "
            f"{h(s.system)}: scores only (give a second run to compare). Its unjudged rate at "
            f"{d.k} is {pct(s.unjudged_rate)}.</p>\n"
        )
    items = "".join(f"<li>{sentence}</li>\n" for sentence in headline.findings(d))
    return f'<h2>Summary</h2>\n<ul class="findings">\n{items}</ul>\n'


def in_words(d: ReportData) -> str:
    """Each comparison's verdict in words, measure by measure (below the summary)."""
    if d.compared is None:
        return ""
    out = [
        "<h2>Readings, measure by measure</h2>\n",
        f"<p>Each challenger against the baseline <b>{h(d.runs[0].name)}</b> on "
        f"{counted(len(d.questions), 'question')}; p from the sign-flip test, {_holm(d)}; "
        "95% interval from the bootstrap.</p>\n",
    ]
    by_challenger: dict[str, list[Comparison]] = {}
    for c in d.compared.comparisons:
        by_challenger.setdefault(c.challenger, []).append(c)
    for name, comps in by_challenger.items():
        out.append(f"<h3>{h(name)} against {h(comps[0].baseline)}</h3>\n<ul>\n")
        for c in comps:
            out.append(
                f'<li><b>{h(c.measure)}</b>: <span class="v-{h(c.verdict_code)}">'
                f"{h(c.verdict)}</span>. Reading: {h(c.reading)} ({h(c.reading_why)}). "
                f"Per question: {counted(c.wins, 'win')}, {counted(c.ties, 'tie')}, "
                f"{counted(c.losses, 'loss', 'losses')}. Judging cost: "
                f"{counted(c.judge_cost.documents, 'document')} over "
                f"{counted(c.judge_cost.questions, 'question')}.</li>\n"
            )
        out.append("</ul>\n")
    return "".join(out)


def machine_notes(d: ReportData) -> str:
    """The machine-judged rate's footnote and the comparisons whose verdict differs on
    people's verdicts alone."""
    judges = next((s.judges for s in d.scores if s.judges != "all"), "all")
    out = f"<p>{h(machines.note(d.k, judges))}.</p>\n"
    changed = d.compared.without_machines if d.compared is not None else ()
    if changed:
        items = "".join(f"<li>{h(line)}</li>\n" for line in changed)
        out += f"<p>Without the machine verdicts the reading changes:</p>\n<ul>\n{items}</ul>\n"
    return out


def scores(d: ReportData) -> str:
    names = [m.name for m in d.measures]
    rows = []
    warnings = []
    policy = next((s.disputes for s in d.scores if s.disputed_seen is not None), None)
    machine = any(s.machine_seen is not None for s in d.scores)
    for s in d.scores:
        high = s.unjudged_rate > d.high
        rate = pct(s.unjudged_rate) + (' <b class="warn">high</b>' if high else "")
        disputed = [] if policy is None else [pct(s.disputed_rate or 0.0)]
        disputed += [pct(s.machine_rate or 0.0)] if machine else []
        rows.append([h(s.system), *(num(s.means[n].raw) for n in names), rate, *disputed])
        if high:
            warnings.append(
                f'<p class="warn">{h(s.system)}: {pct(s.unjudged_rate)} of its top {d.k} is '
                f"unjudged (above {pct(d.high)}): its scores count those documents as "
                "irrelevant, and may be too low.</p>\n"
            )
    bounds = [
        [
            h(s.system),
            *(f"{num(s.means[n].judged_only)} / {num(s.means[n].optimistic)}" for n in names),
        ]
        for s in d.scores
    ]
    return (
        "<h2>Scores</h2>\n<p>Mean over the judged questions; an unjudged document counts as "
        f"irrelevant. Unjudged: the share of each system's top {d.k} with no judgment.</p>\n"
        + table(
            [
                "system",
                *names,
                f"unjudged at {d.k}",
                *([f"disputed at {d.k}"] if policy else []),
                *([f"machine-judged at {d.k}"] if machine else []),
            ],
            rows,
        )
        + ("" if policy is None else f"<p>{h(disputes.note(d.k, policy))}.</p>\n")
        + (machine_notes(d) if machine else "")
        + "".join(warnings)
        + details(
            "Judged-only and optimistic scores",
            "<p>judged-only: the ranking with its unjudged documents removed; optimistic: "
            "every unjudged document counted relevant.</p>\n"
            + table(["system", *(f"{n} judged-only / optimistic" for n in names)], bounds),
        )
    )


def comparisons(d: ReportData) -> str:
    assert d.compared is not None
    rows = [
        [
            h(c.challenger),
            h(c.measure),
            signed(c.delta),
            f"[{num(c.ci95[0])}, {num(c.ci95[1])}]",
            f"[{num(c.delta_range.low)}, {num(c.delta_range.high)}]",
            h(f"{c.p_adjusted:.3g}"),
            h(c.reading),
            f'<span class="v-{h(c.verdict_code)}">{h(c.verdict_code)}</span>',
            "yes" if c.sign_can_flip else "no",
        ]
        for c in d.compared.comparisons
    ]
    return "<h3>Every measure</h3>\n" + table(
        [
            "challenger",
            "measure",
            "delta",
            "95% interval",
            "delta range",
            "p (Holm)",
            "reading",
            "verdict",
            "sign can flip",
        ],
        rows,
    )


def judge_first(d: ReportData) -> str:
    if d.compared is None:
        return ""
    measure = d.compared.comparisons[0].measure
    out = [
        "<h2>Documents to judge first</h2>\n",
        f"<p>The unjudged documents whose labels would narrow the delta range of {h(measure)} "
        "most. For each, the range is computed again with the document judged irrelevant and "
        "judged relevant: <i>narrows by</i> is the least it takes off the mean range, whatever "
        "the verdict (of the widest questions' documents, the first listed). <i>Question "
        "width</i> is the question's whole share of the mean range, what judging all its "
        "documents could take off.</p>\n",
    ]
    for c, p in zip(
        (c for c in d.compared.comparisons if c.measure == measure), d.priorities, strict=True
    ):
        out.append(f"<h3>{h(c.challenger)} against {h(c.baseline)}</h3>\n")
        out.append(_priority(p, c))
    return "".join(out)


def _priority(p: Priority, c: Comparison) -> str:
    if not p.docs:
        return "<p>Nothing to judge: every document in both rankings is judged.</p>\n"
    rows = [
        [
            h(t.qid),
            f"<code>{h(t.doc)}</code>",
            h(t.ranks[0] or "-"),
            h(t.ranks[1] or "-"),
            num(t.narrows, 4),
            num(t.width, 4),
        ]
        for t in p.docs
    ]
    return (
        table(
            [
                "question",
                "document",
                f"rank in {c.baseline}",
                f"rank in {c.challenger}",
                "narrows by",
                "question width",
            ],
            rows,
        )
        + f"<p>Batch these {counted(len(p.questions), 'question')} "
        f"({counted(p.unjudged, 'unjudged document')} in "
        f"the top {c.cutoff} of either system):</p>\n<pre><code>{h(p.command)}</code></pre>\n"
    )
